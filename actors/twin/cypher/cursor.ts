import { errorAt, type CypherError } from './errors.ts';
import { describeToken, type Token } from './lexer.ts';

/** Words that are never variable names (they start or continue clauses and expressions). */
export const RESERVED = new Set([
  'MATCH',
  'OPTIONAL',
  'WHERE',
  'RETURN',
  'ORDER',
  'BY',
  'SKIP',
  'LIMIT',
  'AND',
  'OR',
  'XOR',
  'NOT',
  'IN',
  'IS',
  'NULL',
  'TRUE',
  'FALSE',
  'AS',
  'DISTINCT',
  'STARTS',
  'ENDS',
  'CONTAINS',
  'CREATE',
  'MERGE',
  'SET',
  'DELETE',
  'DETACH',
  'REMOVE',
  'WITH',
  'UNWIND',
  'UNION',
  'CALL',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'ASC',
  'DESC',
  'ASCENDING',
  'DESCENDING',
  'FOREACH',
  'LOAD',
  'YIELD',
  'USE',
]);

/** A read position over the tokens of one query, with the helpers the recursive-descent parser needs. */
export class Cursor {
  private i = 0;
  readonly source: string;
  private readonly tokens: Token[];

  constructor(source: string, tokens: Token[]) {
    this.source = source;
    this.tokens = tokens;
  }

  /** The token `k` ahead of the current one (the last token is always `eof`). */
  peek(k = 0): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)];
  }

  /** Consumes and returns the current token. */
  next(): Token {
    const t = this.peek();
    if (this.i < this.tokens.length - 1) this.i++;
    return t;
  }

  /** End offset of the last consumed token (for slicing an expression's text). */
  lastEnd(): number {
    return this.i === 0 ? 0 : this.tokens[this.i - 1].end;
  }

  /** True when the token `k` ahead is the keyword `word` (case-insensitive). */
  atWord(word: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'word' && t.value.toUpperCase() === word;
  }

  /** True when the token `k` ahead is the punctuation `p`. */
  atPunct(p: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'punct' && t.value === p;
  }

  /** Consumes the keyword when present. */
  eatWord(word: string): boolean {
    if (!this.atWord(word)) return false;
    this.next();
    return true;
  }

  /** Consumes the punctuation when present. */
  eatPunct(p: string): boolean {
    if (!this.atPunct(p)) return false;
    this.next();
    return true;
  }

  /** Consumes the keyword or fails naming what was expected. */
  expectWord(word: string, context: string): Token {
    if (!this.atWord(word)) this.fail(`Expected ${word} ${context}`);
    return this.next();
  }

  /** Consumes the punctuation or fails naming what was expected. */
  expectPunct(p: string, context: string): Token {
    if (!this.atPunct(p)) this.fail(`Expected '${p}' ${context}`);
    return this.next();
  }

  /** True when the current token can be a name (a non-reserved word or a `quoted` name). */
  atName(): boolean {
    const t = this.peek();
    return t.kind === 'quoted' || (t.kind === 'word' && !RESERVED.has(t.value.toUpperCase()));
  }

  /** Consumes a variable name, label, type or alias. Property keys may be any word (`n.order`), so `anyWord` allows keywords. */
  name(what: string, anyWord = false): string {
    const t = this.peek();
    if (t.kind === 'quoted' || (t.kind === 'word' && (anyWord || !RESERVED.has(t.value.toUpperCase())))) {
      this.next();
      return t.value;
    }
    return this.fail(`Expected ${what}`);
  }

  /** Throws a positioned syntax error at `token` that says what was found there. */
  fail(expected: string, token: Token = this.peek(), hint?: string): never {
    throw this.error(`${expected}, found ${describeToken(token)}`, token.offset, hint);
  }

  /** A positioned error of any kind at `offset`. */
  error(message: string, offset: number, hint?: string, kind: 'syntax' | 'unsupported' = 'syntax'): CypherError {
    return errorAt(kind, this.source, offset, message, hint);
  }
}
