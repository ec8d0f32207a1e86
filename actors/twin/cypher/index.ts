/** The engine of `twin.query_cypher`: read-only Cypher over twin_nodes and twin_edges, compiled to bound SQL. */
export type { Clause, Expr, NodePattern, Pattern, Query, RelPattern, ReturnItem, SortItem } from './ast.ts';
export {
  compileCypher,
  DEFAULT_MAX_ROWS,
  MAX_ROWS_CEILING,
  type CompiledCypher,
  type CypherOptions,
} from './compile.ts';
export { MAX_HOPS } from './compile-match.ts';
export type { WriteCounts } from './apply-writes.ts';
export {
  CypherError,
  READ_ONLY_MESSAGE,
  SUPPORTED_CLAUSES,
  type CypherErrorKind,
  type CypherPosition,
} from './errors.ts';
export { parseCypher } from './parser.ts';
export { runCypher, type CypherResult } from './run.ts';
