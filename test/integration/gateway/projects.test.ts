import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema, ProjectListSchema, ProjectSchema } from '../../../contracts/index.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode();
});
afterAll(async () => {
  await t.stop();
});

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('projects over HTTP, through the broker to the projects actor', () => {
  it('creates, reads, lists, renames and deletes a project', async () => {
    const created = await fetch(`${t.url}/v1/projects`, json({ name: 'Bracket', description: 'steel' }));
    expect(created.status).toBe(201);
    const project = ProjectSchema.parse(await created.json());
    expect(project).toMatchObject({ name: 'Bracket', description: 'steel' });
    expect(created.headers.get('location')).toBe(`/v1/projects/${project.id}`);

    const got = await fetch(`${t.url}/v1/projects/${project.id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(project);

    const list = ProjectListSchema.parse(await (await fetch(`${t.url}/v1/projects`)).json());
    expect(list.projects.map((p) => p.id)).toContain(project.id);
    expect(list.total).toBeGreaterThanOrEqual(1);

    const renamed = await fetch(`${t.url}/v1/projects/${project.id}`, {
      ...json({ name: 'Bracket v2' }),
      method: 'PATCH',
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: project.id, name: 'Bracket v2', description: 'steel' });
    // The cached read is evicted by the write.
    expect((await (await fetch(`${t.url}/v1/projects/${project.id}`)).json()) as object).toMatchObject({
      name: 'Bracket v2',
    });

    const deleted = await fetch(`${t.url}/v1/projects/${project.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    const gone = await fetch(`${t.url}/v1/projects/${project.id}`);
    expect(gone.status).toBe(404);
    expect(ErrorBodySchema.parse(await gone.json()).error.code).toBe('NOT_FOUND');
  });

  it('applies the description default', async () => {
    const res = await fetch(`${t.url}/v1/projects`, json({ name: 'No description' }));
    expect(res.status).toBe(201);
    expect(((await res.json()) as any).description).toBe('');
  });
});

describe('bad input on the gateway', () => {
  it('answers malformed JSON with 400 and the error body', async () => {
    const res = await fetch(`${t.url}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('INVALID_JSON');
  });

  it('answers a missing field with 422 naming it', async () => {
    const res = await fetch(`${t.url}/v1/projects`, json({ description: 'x' }));
    expect(res.status).toBe(422);
    const body = ErrorBodySchema.parse(await res.json());
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.message).toContain('body.name');
    expect(body.error.details?.issues).toEqual([expect.objectContaining({ path: 'body.name' })]);
  });

  it('answers a field of the wrong type with 422 naming it', async () => {
    const res = await fetch(`${t.url}/v1/projects`, json({ name: 42 }));
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).error.message).toContain('body.name');
  });

  it('answers an empty rename with 422', async () => {
    const p = ProjectSchema.parse(await (await fetch(`${t.url}/v1/projects`, json({ name: 'x' }))).json());
    const res = await fetch(`${t.url}/v1/projects/${p.id}`, { ...json({}), method: 'PATCH' });
    expect(res.status).toBe(422);
  });

  it('answers a body over the limit with 413', async () => {
    const res = await fetch(`${t.url}/v1/projects`, json({ name: 'x', description: 'a'.repeat(11 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unknown route and an unknown id with 404 and the error body', async () => {
    const route = await fetch(`${t.url}/v1/nothing-here`);
    expect(route.status).toBe(404);
    expect(ErrorBodySchema.parse(await route.json()).error.code).toBe('NOT_FOUND');
    const id = await fetch(`${t.url}/v1/projects/does-not-exist`);
    expect(id.status).toBe(404);
    expect(((await id.json()) as any).error.message).toContain('does-not-exist');
    const patch = await fetch(`${t.url}/v1/projects/does-not-exist`, { ...json({ name: 'y' }), method: 'PATCH' });
    expect(patch.status).toBe(404);
    const del = await fetch(`${t.url}/v1/projects/does-not-exist`, { method: 'DELETE' });
    expect(del.status).toBe(404);
  });

  it('refuses a foreign Host or Origin and accepts loopback ones, and no Origin', async () => {
    const { request } = await import('node:http');
    const get = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${t.url}/health`, { headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    const port = new URL(t.url).port;
    expect(await get({ host: 'evil.example.com' })).toBe(403);
    expect(await get({ host: `127.0.0.1:${port}`, origin: 'http://evil.example.com' })).toBe(403);
    expect(await get({ host: `localhost:${port}` })).toBe(200);
    expect(await get({ host: `[::1]:${port}`, origin: `http://localhost:${port}` })).toBe(200);
    expect(await get({ host: `127.0.0.1:${port}` })).toBe(200);
  });
});
