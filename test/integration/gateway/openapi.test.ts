import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { DOCUMENTED } from '../../../gateway/plugins/openapi.ts';
import { useTestNode } from '../../support/node.ts';

// The OpenAPI 3.1 document (issue 18): generated from the routes' own zod schemas, valid against the OpenAPI 3.1
// schema, and exactly the gateway's route table under /v1, /api/v1 and /health, no more, no less.
const t = useTestNode();
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
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

  it('serves the interactive reference at /docs', async () => {
    const res = await fetch(`${t.url}/docs`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/swagger-ui/i);
  });
});

describe("the spec's words", () => {
  it('summarise the routes the spec names', async () => {
    const doc = await (await fetch(`${t.url}/openapi.json`)).json();
    expect((doc.paths['/v1/bom'] ?? doc.paths['/v1/bom/']).get.summary).toBe('BOM list');
    const summarised = Object.values(doc.paths as Record<string, Record<string, { summary?: string }>>)
      .flatMap((ops) => Object.values(ops))
      .filter((op) => op.summary);
    expect(summarised.length).toBeGreaterThan(30);
  });
});
