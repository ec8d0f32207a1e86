import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { API_DESCRIPTIONS, SERVICE_DESCRIPTIONS } from '../../../contracts/api-descriptions.ts';
import { DOCUMENTED } from '../../../gateway/plugins/openapi.ts';
import { useTestNode } from '../../support/node.ts';

// The OpenAPI 3.1 document (issue 18): generated from the routes' own zod schemas, valid against the OpenAPI 3.1
// schema, and exactly the gateway's route table under /v1, /api/v1 and /health, no more, no less.
const t = useTestNode();
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
/** Spec rows of the other surfaces (the tool server's wire endpoints): described, but not in this document. */
const NOT_ON_THIS_SURFACE = ['GET /mcp/sse', 'POST /mcp'];
/**
 * Fastify's `/a/:id/*` as OpenAPI's `/a/{id}/{*}` (@fastify/swagger's own conversion), without a trailing slash: a
 * prefix's root route answers with and without one, and the document lists it once.
 */
const openApiPath = (url: string) =>
  url
    .replace(/:([A-Za-z0-9_]+)/g, '{$1}')
    .replace(/\*$/, '{*}')
    .replace(/(.)\/$/, '$1');

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await fetch(`${t.url}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every /v1, /api/v1 and /health route the gateway registered, and nothing else', async () => {
    const doc = await (await fetch(`${t.url}/openapi.json`)).json();
    const documented = new Set<string>();
    for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>))
      for (const m of Object.keys(ops)) if (METHODS.has(m)) documented.add(`${m.toUpperCase()} ${openApiPath(p)}`);
    const registered = new Set(
      (t.node.gateway.routes ?? [])
        .filter((r) => DOCUMENTED.test(r.url) && METHODS.has(r.method.toLowerCase()))
        .map((r) => `${r.method} ${openApiPath(r.url)}`),
    );
    expect(registered.size).toBeGreaterThan(50);
    expect(
      [...registered].filter((r) => !documented.has(r)),
      'registered but not documented',
    ).toEqual([]);
    expect(
      [...documented].filter((d) => !registered.has(d)),
      'documented but not registered',
    ).toEqual([]);
  });

  it('shows the multipart forms from the contracts the routes check them with', async () => {
    const doc = await (await fetch(`${t.url}/openapi.json`)).json();
    const form = (p: string) => doc.paths[p].post.requestBody.content['multipart/form-data'].schema;
    expect(form('/v1/twin/import')).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary' },
        project_id: { type: 'string' },
        wp_type: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
        description: { type: 'string' },
      },
    });
    expect(form('/v1/convert')).toMatchObject({ required: ['file'], properties: { file: { format: 'binary' } } });
    expect(Object.keys(doc.paths['/v1/convert'].post.requestBody.content)).toEqual(['multipart/form-data']);
  });

  it('serves the interactive reference at /docs', async () => {
    const res = await fetch(`${t.url}/docs`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/swagger-ui/i);
  });
});

describe("the spec's words", () => {
  type Op = { summary?: string; tags?: string[] };
  const operations = async () => {
    const doc = await (await fetch(`${t.url}/openapi.json`)).json();
    return Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([m]) => METHODS.has(m))
        .map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, path: p, op })),
    );
  };

  it('summarise the routes the spec names; the service words the rest, and no operation goes without', async () => {
    const ops = await operations();
    const summary = (key: string) => ops.find((o) => o.key === key)?.op.summary;
    expect(summary('GET /v1/bom')).toBe('BOM list');
    expect(summary('GET /v1/projects')).toBe('list');
    expect(summary('POST /v1/projects')).toBe('create');
    expect(summary('GET /v1/harness/routing')).toBe(API_DESCRIPTIONS['GET /v1/harness/routing']);
    expect(summary('GET /v1/twin/nodes/{id}')).toBe('graph reads; node carries assemblyParts for assemblies');
    expect(summary('POST /v1/approvals/{id}/inline-decision')).toMatch(/^gate decision a person gave/);
    expect(summary('DELETE /v1/projects/{id}')).toBe(SERVICE_DESCRIPTIONS['DELETE /v1/projects/{}']);
    expect(ops.filter((o) => !o.op.summary).map((o) => o.key)).toEqual([]);
    // Every description the data holds names a route that exists: a renamed route cannot leave its words behind.
    const keys = new Set(ops.map((o) => o.key.replace(/\{[^}]*\}/g, '{}')));
    expect(
      [...Object.keys(API_DESCRIPTIONS), ...Object.keys(SERVICE_DESCRIPTIONS)].filter((k) => !keys.has(k)).sort(),
    ).toEqual(NOT_ON_THIS_SURFACE);
  });

  it('lists each path as the spec writes it (no trailing slash) under the area it belongs to', async () => {
    const ops = await operations();
    expect(ops.filter((o) => o.path.length > 1 && o.path.endsWith('/')).map((o) => o.key)).toEqual([]);
    for (const { key, path, op } of ops)
      expect(op.tags, key).toEqual([path === '/health' ? 'health' : /^\/(?:api\/)?v1\/([^/]+)/.exec(path)![1]]);
    expect(new Set(ops.flatMap((o) => o.op.tags ?? []))).toEqual(
      new Set([
        'health',
        'projects',
        'runs',
        'twin',
        'approvals',
        'chat',
        'assistant',
        'design-flows',
        'design-loop',
        'simulation',
        'bom',
        'knowledge',
        'compliance',
        'memory',
        'harness',
        'sessions',
        'convert',
        'auth',
      ]),
    );
  });
});
