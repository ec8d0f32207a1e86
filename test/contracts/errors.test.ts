import { describe, expect, it } from 'vitest';
import { ErrorBodySchema, ErrorCatalogue, JsonRpcCodes } from '../../contracts/index.ts';

describe('error catalogue', () => {
  it('maps every code to one HTTP status and a JSON-RPC code from the shared table', () => {
    const rpc = new Set<number>(Object.values(JsonRpcCodes));
    for (const [code, entry] of Object.entries(ErrorCatalogue)) {
      expect(entry.http, code).toBeGreaterThanOrEqual(400);
      expect(rpc.has(entry.rpc), code).toBe(true);
    }
  });

  it('accepts the error body and rejects an unknown code', () => {
    expect(ErrorBodySchema.safeParse({ error: { code: 'NOT_FOUND', message: 'x' } }).success).toBe(true);
    expect(ErrorBodySchema.safeParse({ error: { code: 'NOPE', message: 'x' } }).success).toBe(false);
  });
});
