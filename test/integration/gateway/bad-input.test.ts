import { describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../../contracts/index.ts';
import { useTestNode } from '../../support/node.ts';

// Issue findings 5 and 6: bad input is refused at the contract with the gateway's error body, never a 500 carrying a
// database error (PostgreSQL 22021 for a NUL byte) and never the framework's own body.
const t = useTestNode();

async function answer(path: string, init: RequestInit = {}) {
  const res = await fetch(`${t.url}${path}`, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the assertion on the error body reports it
  }
  return { status: res.status, body, error: ErrorBodySchema.safeParse(body) };
}

const postJson = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('a NUL byte is refused with 422 naming the field, before any query', () => {
  it('in a JSON body field', async () => {
    const r = await answer('/v1/projects', postJson({ name: 'a\u0000b' }));
    expect(r.status).toBe(422);
    expect(r.error.success).toBe(true);
    expect(r.error.data?.error.code).toBe('VALIDATION_FAILED');
    expect(r.error.data?.error.details?.issues).toEqual([expect.objectContaining({ path: 'body.name' })]);
  });

  it('in a nested body field', async () => {
    const r = await answer(
      '/v1/simulation/load-cases',
      postJson({ project_id: 'p', name: 'ok', spec: { loads: [{ label: 'x\u0000' }] } }),
    );
    expect(r.status).toBe(422);
    expect(r.error.data?.error.details?.issues).toEqual([expect.objectContaining({ path: 'body.spec.loads.0.label' })]);
  });

  it.each(['/v1/runs/%00', '/v1/approvals/tool:%00', '/v1/projects/%00', '/v1/twin/nodes/%00', '/v1/sessions/a%00b'])(
    'in a path parameter: %s',
    async (path) => {
      const r = await answer(path);
      expect(r.status).toBe(422);
      expect(r.error.data?.error.code).toBe('VALIDATION_FAILED');
      expect(r.error.data?.error.message).toMatch(/^invalid params\./);
    },
  );

  it.each([
    '/v1/twin/nodes',
    '/v1/twin/current-view',
    '/v1/bom',
    '/v1/knowledge/sources',
    '/v1/simulation/results',
    '/v1/simulation/load-cases',
    '/v1/sessions',
  ])('in ?project_id on %s', async (path) => {
    const r = await answer(`${path}?project_id=%00`);
    expect(r.status).toBe(422);
    expect(r.error.data?.error.details?.issues).toEqual([expect.objectContaining({ path: 'querystring.project_id' })]);
  });

  it('while a well-shaped id that does not exist stays 404', async () => {
    const r = await answer('/v1/runs/run_doesnotexist');
    expect(r.status).toBe(404);
    expect(r.error.data?.error.code).toBe('NOT_FOUND');
  });
});

describe("the framework's own errors carry the gateway's error body", () => {
  it.each(['/v1/projects/%ff', '/v1/projects/%', '/v1/projects/%zz'])(
    'a bad percent escape: %s is 400',
    async (path) => {
      const r = await answer(path);
      expect(r.status).toBe(400);
      expect(r.error.data?.error.code).toBe('BAD_REQUEST');
    },
  );

  it.each(['text/plain', 'application/xml', 'application/x-www-form-urlencoded'])(
    '%s on a JSON route is 415',
    async (type) => {
      const r = await answer('/v1/projects', { method: 'POST', headers: { 'content-type': type }, body: 'name=x' });
      expect(r.status).toBe(415);
      expect(r.error.data?.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    },
  );

  it('a BOM page out of 1..1000 is 422 and a page in range is served', async () => {
    for (const q of ['limit=-1', 'limit=0', 'limit=1001', 'offset=-1', 'limit=x']) {
      const r = await answer(`/v1/bom?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.error.data?.error.code).toBe('VALIDATION_FAILED');
    }
    const ok = await answer('/v1/bom?limit=10&offset=0');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ components: [], total: 0 });
  });
});

const FILE_PART = '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc\r\n';
const MALFORMED: [string, string, string][] = [
  ['no closing boundary', 'multipart/form-data; boundary=zzz', FILE_PART],
  ['no boundary parameter', 'multipart/form-data', FILE_PART],
  ['a truncated part header', 'multipart/form-data; boundary=zzz', '--zzz\r\nContent-Disposition: form-data; name="fi'],
  ['a boundary that never occurs', 'multipart/form-data; boundary=qqq', FILE_PART],
  ['an empty body', 'multipart/form-data; boundary=zzz', ''],
  ['a part without headers', 'multipart/form-data; boundary=zzz', '--zzz\r\n\r\nabc\r\n--zzz--\r\n'],
  [
    'a wrong field name',
    'multipart/form-data; boundary=zzz',
    '--zzz\r\nContent-Disposition: form-data; name="upload"; filename="a.step"\r\n\r\nabc\r\n--zzz--\r\n',
  ],
  [
    'a field without a file',
    'multipart/form-data; boundary=zzz',
    '--zzz\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc\r\n--zzz--\r\n',
  ],
];

describe('malformed multipart is 400 or 422 with the error body', () => {
  for (const route of ['/v1/twin/import', '/v1/convert']) {
    it.each(MALFORMED)(`${route}: %s`, async (_label, type, body) => {
      const r = await answer(route, { method: 'POST', headers: { 'content-type': type }, body });
      expect([400, 422]).toContain(r.status);
      expect(r.error.success, JSON.stringify(r.body)).toBe(true);
    });
  }
});
