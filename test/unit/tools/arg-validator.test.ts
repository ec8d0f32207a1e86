import { describe, expect, it } from 'vitest';
import { ArgValidator } from '../../../actors/tools/arg-validator.ts';
import { MAX_JSON_DEPTH } from '../../../contracts/nul.ts';

// The tools actor validates the arguments of every caller (MCP, the flow harness, other actors): a NUL character is
// refused naming the field even where the tool's schema would accept the string, so it never reaches an adapter's query.
const schema = {
  type: 'object',
  properties: {
    project_id: { type: 'string', minLength: 1 },
    spec: { type: 'object' },
    tags: { type: 'array', items: { type: 'string' } },
  },
};

describe('tool arguments with a NUL character or too deep', () => {
  const v = new ArgValidator();

  it('names the field holding NUL, at any depth, keys included', () => {
    expect(v.validate(schema, { project_id: 'a\u0000b' })).toEqual([
      { path: 'project_id', message: 'must not contain a NUL character' },
    ]);
    expect(v.validate(schema, { tags: ['ok', '\u0000'] })).toEqual([
      { path: 'tags.1', message: 'must not contain a NUL character' },
    ]);
    expect(v.validate(schema, { spec: { 'k\u0000': 1 } })[0]).toMatchObject({ path: 'spec.k\\u0000' });
  });

  it('refuses nesting past the limit without walking it', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(v.validate(schema, { spec: deep })[0].message).toBe(`is nested deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('passes clean arguments to the schema as before', () => {
    expect(v.validate(schema, { project_id: 'p-1', tags: ['a\nb', '%00', '\\0'] })).toEqual([]);
    expect(v.validate(schema, { project_id: '' })).toEqual([expect.objectContaining({ path: 'project_id' })]);
  });
});
