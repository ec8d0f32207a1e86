import { describe, expect, it } from 'vitest';
import type { AnnouncedTool } from '../../../contracts/actions/adapters.actions.ts';
import { annotationsOf, TOOL_CATALOGUE } from '../../../contracts/tool-catalogue.ts';
import { ToolOfferSchema } from '../../../contracts/harness-calls.ts';
import { capTools, fromSafeName, planToolOffer, toSafeName, ToolNames } from '../../../actors/harness/tools/index.ts';

/** The 97 catalogue tools as the registry lists them (ids, adapters, annotations from contracts/tool-catalogue.ts). */
const catalogue: AnnouncedTool[] = [...TOOL_CATALOGUE.values()].map((e) => ({
  tool_id: e.id,
  adapter_id: e.adapter,
  name: e.id.slice(e.adapter.length + 1),
  description: `${e.id} (${e.cls})`,
  capability: e.adapter,
  input_schema: { type: 'object', properties: {} },
  phase: e.phase,
  resource_limits: { max_memory_mb: 1024, max_cpu_seconds: 300, max_disk_mb: 256 },
  annotations: annotationsOf(e),
  idempotent: e.idempotent,
}));

const MUST_KEEP = [
  'cadkernel.open_session',
  'cadkernel.pad_sketch',
  'cadkernel.pocket_sketch',
  'cadkernel.revolve_sketch',
  'cadkernel.loft_sketches',
  'cadkernel.sweep_sketch',
  'cadkernel.list_joints',
  'twin.stage_work_product_file',
  'cadkernel.import_step',
  'cadkernel.export_model',
  'twin.commit_geometry',
];

function logger() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, warn: (obj: Record<string, unknown>, msg: string) => void lines.push({ obj, msg }) };
}

describe('tool names for the families', () => {
  it('maps every catalogue id to a family-safe name and back', () => {
    expect(TOOL_CATALOGUE.size).toBe(97);
    for (const id of TOOL_CATALOGUE.keys()) {
      const name = toSafeName(id)!;
      expect(ToolOfferSchema.shape.name.safeParse(name).success).toBe(true);
      expect(fromSafeName(name)).toBe(id);
    }
    expect(toSafeName('cadkernel.open_session')).toBe('cadkernel__open_session');
    expect(toSafeName('my-adapter.run')).toBe('my-adapter__run');
  });

  it('refuses an id that cannot be named and two ids that would share a name', () => {
    const names = new ToolNames(['a__b.c', 'a.b__c', `x.${'y'.repeat(130)}`, 'bad.na me']);
    expect(names.idOf('a__b__c')).toBe('a__b.c');
    expect(names.refused.map((r) => r.tool_id)).toEqual(['a.b__c', `x.${'y'.repeat(130)}`, 'bad.na me']);
  });
});

describe('the OpenAI-compatible tool cap (rule 5)', () => {
  it('offers the whole 97-tool catalogue under the cap of 128, nothing dropped, nothing logged', () => {
    const log = logger();
    const plan = planToolOffer(catalogue, { family: 'openai_compatible', log });
    expect(plan.offers).toHaveLength(97);
    expect(plan.dropped).toEqual([]);
    expect(log.lines).toEqual([]);
    expect(plan.offers.every((o) => ToolOfferSchema.safeParse(o).success)).toBe(true);
    expect(plan.byName.get('twin__get_node')?.id).toBe('twin.get_node');
  });

  it('caps a 200-tool list to 128: natives, pinned, open_session, session verbs and companion pairs kept', () => {
    const extra: AnnouncedTool[] = [];
    for (const adapter of ['alpha', 'beta', 'gamma'])
      for (let i = 0; i < (adapter === 'gamma' ? 32 : 34); i++)
        extra.push({ ...catalogue[0], tool_id: `${adapter}.tool_${i}`, adapter_id: adapter, name: `tool_${i}` });
    extra.push({
      ...catalogue[0],
      tool_id: 'gamma.remote_open_session',
      adapter_id: 'gamma',
      name: 'remote_open_session',
    });
    const listed = [...catalogue, ...extra];
    const native = [
      { id: 'search_tools', description: 'find tools', input_schema: { type: 'object' } },
      { id: 'finish', description: 'end the turn', input_schema: { type: 'object' } },
    ];
    expect(listed.length + native.length).toBe(200);
    const log = logger();
    const plan = planToolOffer(listed, {
      family: 'openai_compatible',
      native,
      pinned: ['web.fetch', 'beta.tool_33'],
      log,
    });

    const ids = [...plan.byName.values()].map((t) => t.id);
    expect(ids).toHaveLength(128);
    expect(plan.dropped).toHaveLength(72);
    for (const id of [...MUST_KEEP, 'search_tools', 'finish', 'web.fetch', 'beta.tool_33', 'gamma.remote_open_session'])
      expect(ids).toContain(id);
    expect(plan.offers.slice(0, 2).map((o) => o.name)).toEqual(['search_tools', 'finish']);
    // The rest round-robin across adapters: every adapter of the list keeps some of its tools.
    const perAdapter = new Map<string, number>();
    for (const id of ids.filter((i) => i.includes('.')))
      perAdapter.set(id.split('.')[0], (perAdapter.get(id.split('.')[0]) ?? 0) + 1);
    expect([...perAdapter.keys()].sort()).toEqual([...new Set(listed.map((t) => t.adapter_id))].sort());
    expect(log.lines).toEqual([
      {
        msg: 'harness_tools_capped',
        obj: expect.objectContaining({ cap: 128, registered: 200, offered: 128, dropped: plan.dropped }),
      },
    ]);
    // The Anthropic family has no published cap: all 200 offered.
    expect(planToolOffer(listed, { family: 'anthropic', native }).offers).toHaveLength(200);
  });

  it('fills round-robin across adapters in the order given', () => {
    const tools = ['a.1', 'a.2', 'a.3', 'b.1', 'b.2', 'c.1'].map((id) => ({ id }));
    const { offered, dropped } = capTools(tools, { cap: 4 });
    expect(offered.map((t) => t.id)).toEqual(['a.1', 'a.2', 'b.1', 'c.1']);
    expect(dropped.map((t) => t.id)).toEqual(['a.3', 'b.2']);
  });

  it('keeps a companion group whole or drops it whole when even the kept set overflows', () => {
    const tools = [
      { id: 'cad.open_session' },
      { id: 'cad.pad_sketch' },
      { id: 'twin.stage_work_product_file' },
      { id: 'cad.import_step' },
      { id: 'cad.export_model' },
      { id: 'twin.commit_geometry' },
      { id: 'twin.get_node' },
    ];
    expect(capTools(tools, { cap: 4 }).offered.map((t) => t.id)).toEqual([
      'cad.open_session',
      'cad.pad_sketch',
      'twin.stage_work_product_file',
      'cad.import_step',
    ]);
    // 3 slots: the stage/import pair does not fit as a unit, and neither member is offered alone.
    expect(capTools(tools, { cap: 3 }).offered.map((t) => t.id)).toEqual([
      'cad.open_session',
      'cad.pad_sketch',
      'twin.get_node',
    ]);
  });

  it('applies the rules to the real catalogue under a lower cap', () => {
    const plan = planToolOffer(catalogue, { family: 'openai_compatible', cap: 40 });
    const ids = [...plan.byName.values()].map((t) => t.id);
    expect(ids).toHaveLength(40);
    for (const id of MUST_KEEP) expect(ids).toContain(id);
    expect(plan.dropped).toHaveLength(57);
  });
});
