import { describe, expect, it } from 'vitest';
import { annotationsOf, TOOL_CATALOGUE } from '../../contracts/tool-catalogue.ts';
import { BASE_PROFILE, PROFILES } from '../../contracts/profiles.ts';

const ids = [...TOOL_CATALOGUE.keys()];

describe('the 97-tool catalogue (TOOLS.md)', () => {
  it('holds exactly 97 canonical ids, counted per adapter as TOOLS.md sums them', () => {
    expect(ids).toHaveLength(97);
    expect(new Set(ids).size).toBe(97);
    const per: Record<string, number> = {};
    for (const e of TOOL_CATALOGUE.values()) per[e.adapter] = (per[e.adapter] ?? 0) + 1;
    expect(per).toEqual({
      solver: 9,
      circuit: 1,
      cadscript: 7,
      cadkernel: 33,
      eda: 8,
      twin: 14,
      flow: 10,
      project: 5,
      tools: 1,
      session: 3,
      knowledge: 2,
      memory: 2,
      web: 2,
    });
    for (const id of ids) expect(id).toMatch(/^[a-z]+\.[a-z_]+$/);
  });

  it('gives every tool its annotation class', () => {
    const a = (id: string) => annotationsOf(TOOL_CATALOGUE.get(id)!);
    expect(a('twin.get_node')).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(a('twin.record_document')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(a('cadscript.boolean_operation')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(a('cadkernel.pad_sketch')).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(a('web.fetch')).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(a('project.delete')).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(a('twin.query_cypher').readOnlyHint).toBe(true);
    expect(annotationsOf(TOOL_CATALOGUE.get('twin.query_cypher')!, true)).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    const humanAuthority = ids.filter((id) => TOOL_CATALOGUE.get(id)!.humanAuthority);
    expect(humanAuthority).toEqual([
      'twin.attempt_promotion',
      'twin.approve_design_loop',
      'twin.approve_engineering_change',
    ]);
  });

  it('puts authoring tools at phase 2 and everything else at phase 1', () => {
    const phase2 = ids.filter((id) => TOOL_CATALOGUE.get(id)!.phase === 2);
    expect(phase2).toHaveLength(27 + 2 + 2 + 1);
    expect(phase2).toEqual(
      expect.arrayContaining([
        'cadscript.create_assembly',
        'eda.auto_route',
        'twin.commit_geometry',
        'cadkernel.list_joints',
      ]),
    );
    expect(TOOL_CATALOGUE.get('cadkernel.generate_mesh')!.phase).toBe(1);
  });

  it('defines the six profiles with their sizes, each 20..40 tools of the catalogue, base in all', () => {
    const sizes = Object.fromEntries([...PROFILES].map(([n, m]) => [n, m.length]));
    expect(sizes).toEqual({
      core: 32,
      mechanical: 27,
      mechanical_product: 40,
      simulation: 27,
      electronics: 25,
      robotics: 25,
    });
    for (const [name, members] of PROFILES) {
      expect(members.length, name).toBeGreaterThanOrEqual(20);
      expect(members.length, name).toBeLessThanOrEqual(40);
      for (const id of members) expect(TOOL_CATALOGUE.has(id), `${name}: ${id}`).toBe(true);
      for (const id of BASE_PROFILE) expect(members, name).toContain(id);
    }
    expect(PROFILES.get('mechanical_product')).not.toContain('cadkernel.linear_pattern');
    expect(PROFILES.get('robotics')).toContain('solver.compute_joint_loads');
  });
});
