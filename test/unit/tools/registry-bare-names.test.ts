import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../../actors/tools/registry.ts';
import type { AdapterManifest, AnnouncedTool } from '../../../contracts/actions/adapters.actions.ts';
import { toManifest, toMcpTool } from '../../../gateway/mcp/methods/tool-results.ts';

const tool = (adapter: string, name: string, bare = false): AnnouncedTool => ({
  tool_id: `${adapter}.${name}`,
  adapter_id: adapter,
  name,
  description: `${name} of ${adapter}`,
  capability: adapter,
  input_schema: { type: 'object' },
  output_schema: null,
  phase: 1,
  resource_limits: { max_memory_mb: 1024, max_cpu_seconds: 300, max_disk_mb: 256 },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  idempotent: true,
  ...(bare ? { bare_name: true } : {}),
});

const manifest = (adapter: string, tools: AnnouncedTool[]): AdapterManifest => ({
  adapter_id: adapter,
  version: '1',
  capability: adapter,
  tools,
});

function registry(...manifests: AdapterManifest[]) {
  const r = new ToolRegistry();
  for (const m of manifests) r.upsert(m);
  return r;
}

const listedNames = (r: ToolRegistry) =>
  r
    .list()
    .tools.map((t) => toMcpTool(t).name)
    .sort();

describe('tools announced with bare names', () => {
  it('are listed and called by the bare name, and their canonical id still resolves', () => {
    const r = registry(
      manifest('conformance', [tool('conformance', 'test_simple_text', true)]),
      manifest('project', [tool('project', 'get')]),
    );
    expect(listedNames(r)).toEqual(['project.get', 'test_simple_text']);
    expect(r.resolve('test_simple_text')).toEqual({ kind: 'found', id: 'conformance.test_simple_text', alias: false });
    expect(r.resolve('conformance.test_simple_text')).toEqual({
      kind: 'found',
      id: 'conformance.test_simple_text',
      alias: false,
    });
    expect(r.resolve('conformance_test_simple_text')).toEqual({
      kind: 'found',
      id: 'conformance.test_simple_text',
      alias: true,
    });
  });

  it('keep their canonical id in the legacy manifest, without the internal flag', () => {
    const r = registry(manifest('conformance', [tool('conformance', 'test_simple_text', true)]));
    const legacy = toManifest(r.list().tools[0]);
    expect(legacy.tool_id).toBe('conformance.test_simple_text');
    expect(legacy).not.toHaveProperty('bare_name');
  });

  it('leave every other adapter on canonical ids and separator aliases', () => {
    const r = registry(
      manifest('conformance', [tool('conformance', 'x', true)]),
      manifest('project', [tool('project', 'get')]),
    );
    expect(r.resolve('project_get')).toEqual({ kind: 'found', id: 'project.get', alias: true });
    expect(r.resolve('get')).toMatchObject({ kind: 'unknown', didYouMean: ['project.get'] });
  });

  it('never shadow a separator alias: the alias wins and the tool is listed by its canonical id', () => {
    const r = registry(
      manifest('project', [tool('project', 'get')]),
      manifest('fixtures', [tool('fixtures', 'project_get', true)]),
    );
    expect(r.resolve('project_get')).toEqual({ kind: 'found', id: 'project.get', alias: true });
    expect(listedNames(r)).toEqual(['fixtures.project_get', 'project.get']);
    expect(r.resolve('fixtures.project_get')).toMatchObject({ kind: 'found', id: 'fixtures.project_get' });
  });

  it('are withheld from both tools when two adapters announce the same bare name', () => {
    const r = registry(manifest('a', [tool('a', 'same', true)]), manifest('b', [tool('b', 'same', true)]));
    expect(listedNames(r)).toEqual(['a.same', 'b.same']);
    expect(r.resolve('same').kind).toBe('unknown');
  });

  it('are granted again once the clash is gone (the adapter re-announces without it)', () => {
    const r = registry(manifest('a', [tool('a', 'same', true)]), manifest('b', [tool('b', 'same', true)]));
    r.upsert(manifest('b', [tool('b', 'other')]));
    expect(r.resolve('same')).toEqual({ kind: 'found', id: 'a.same', alias: false });
  });
});
