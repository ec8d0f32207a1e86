import { describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../../contracts/index.ts';
import { useTestNode } from '../../support/node.ts';

// Found by the OpenAPI contract fuzz (openapi-fuzz.test.ts): JSON may carry an unpaired UTF-16 surrogate ("\ud800"),
// which PostgreSQL refuses in jsonb (22P02), so a load case whose spec held one answered 500. Such text is refused at
// the contract like a NUL character: 422 naming the field, before any query.
const t = useTestNode({ realDb: true });

async function post(path: string, body: unknown) {
  // JSON.stringify writes a lone surrogate as the escape `\ud800`: valid JSON text, not valid Unicode.
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, error: ErrorBodySchema.safeParse(await res.json()) };
}

describe('an unpaired surrogate in a JSON body is refused with 422 naming the field', () => {
  it('in a nested value stored as jsonb', async () => {
    const r = await post('/v1/simulation/load-cases', { name: 'case', spec: { loads: [{ label: 'x\ud800' }] } });
    expect(r.status).toBe(422);
    expect(r.error.data?.error.code).toBe('VALIDATION_FAILED');
    expect(r.error.data?.error.details?.issues).toEqual([
      { path: 'body.spec.loads.0.label', message: 'must not contain an unpaired surrogate (not Unicode text)' },
    ]);
  });

  it('in a key', async () => {
    const r = await post('/v1/simulation/load-cases', { name: 'case', spec: { ['k\udc00']: 1 } });
    expect(r.status).toBe(422);
    expect(r.error.data?.error.details?.issues).toEqual([
      { path: 'body.spec.k\\udc00', message: 'is a key that contains an unpaired surrogate (not Unicode text)' },
    ]);
  });

  it('while a paired surrogate (an emoji) is text like any other', async () => {
    const r = await post('/v1/projects', { name: 'bracket 🔩' });
    expect(r.status).toBe(201);
  });
});
