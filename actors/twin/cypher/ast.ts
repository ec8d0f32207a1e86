/**
 * The syntax tree of the supported Cypher subset. Every node carries `pos`, its offset in the query text,
 * so compile errors can name line and column.
 */

/** Binary operators, from boolean logic through comparison and string predicates to arithmetic. */
export type BinaryOp =
  | 'AND'
  | 'OR'
  | 'XOR'
  | '='
  | '<>'
  | '<'
  | '<='
  | '>'
  | '>='
  | 'IN'
  | 'STARTS WITH'
  | 'ENDS WITH'
  | 'CONTAINS'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%';

/** An expression of WHERE, RETURN, ORDER BY, SKIP/LIMIT, property maps and SET values. */
export type Expr =
  | { kind: 'literal'; value: string | number | boolean | null; pos: number }
  | { kind: 'param'; name: string; pos: number }
  | { kind: 'var'; name: string; pos: number }
  | { kind: 'prop'; target: Expr; key: string; pos: number }
  | { kind: 'index'; target: Expr; index: Expr; pos: number }
  | { kind: 'list'; items: Expr[]; pos: number }
  | { kind: 'map'; entries: MapEntry[]; pos: number }
  | { kind: 'not'; arg: Expr; pos: number }
  | { kind: 'neg'; arg: Expr; pos: number }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; pos: number }
  | { kind: 'isNull'; arg: Expr; negated: boolean; pos: number }
  | { kind: 'hasLabels'; target: Expr; labels: string[]; pos: number }
  | { kind: 'call'; name: string; distinct: boolean; star: boolean; args: Expr[]; pos: number };

/** One `key: value` of a map literal. */
export interface MapEntry {
  key: string;
  value: Expr;
  pos: number;
}

/** `(n:label {k: v})`; every part optional. */
export interface NodePattern {
  variable?: string;
  labels: string[];
  props?: Extract<Expr, { kind: 'map' }>;
  pos: number;
}

/** `-[r:A|B *1..3 {k: v}]->`; `range` is set only for variable-length relationships. */
export interface RelPattern {
  variable?: string;
  types: string[];
  direction: 'out' | 'in' | 'both';
  range?: { min?: number; max?: number };
  props?: Extract<Expr, { kind: 'map' }>;
  pos: number;
}

/** A chain `(a)-[r]->(b)<-[s]-(c)`. */
export interface Pattern {
  start: NodePattern;
  steps: { rel: RelPattern; node: NodePattern }[];
  pos: number;
}

/** One RETURN item; `text` is the expression as written, the column name when there is no alias. */
export interface ReturnItem {
  expr: Expr;
  alias?: string;
  text: string;
  pos: number;
}

/** One ORDER BY item. */
export interface SortItem {
  expr: Expr;
  descending: boolean;
  pos: number;
}

/** `SET target.key = value`. */
export interface SetItem {
  target: Extract<Expr, { kind: 'prop' }>;
  value: Expr;
  pos: number;
}

/** A clause of the query, in source order. */
export type Clause =
  | { kind: 'match'; optional: boolean; patterns: Pattern[]; where?: Expr; pos: number }
  | {
      kind: 'return';
      distinct: boolean;
      star: boolean;
      items: ReturnItem[];
      orderBy: SortItem[];
      skip?: Expr;
      limit?: Expr;
      pos: number;
    }
  | { kind: 'create'; patterns: Pattern[]; pos: number }
  | { kind: 'set'; items: SetItem[]; pos: number }
  | { kind: 'delete'; detach: boolean; targets: Expr[]; pos: number }
  | { kind: 'unsupportedWrite'; keyword: 'MERGE' | 'REMOVE'; pos: number };

/** A parsed query; `source` is kept so later stages can position their errors. */
export interface Query {
  clauses: Clause[];
  source: string;
}

/** True when the clause changes the twin. */
export function isWriteClause(c: Clause): boolean {
  return c.kind === 'create' || c.kind === 'set' || c.kind === 'delete' || c.kind === 'unsupportedWrite';
}
