import { describe, expect, it } from 'vitest';
import type { PhaseInput } from '../../../actors/runs/executor.ts';
import { phase, use } from '../../../actors/runs/handlers/tools.ts';
import { decide } from '../../../actors/runs/run.machine.ts';
import { foldRun } from '../../../actors/runs/run.events.ts';
import { DEFAULT_LIMITS } from '../../../actors/runs/run.types.ts';
import { toolFailed } from '../../../contracts/tool-result.ts';

/** A phase input whose every tool call times out (what the registry answers when the engine ran past its deadline). */
function timingOut(sent: string[]): PhaseInput {
  return {
    callTool: async (name: string) => {
      sent.push(name);
      return toolFailed(
        name,
        {
          type: 'TOOL_TIMEOUT',
          message: `tool ${name} exceeded its timeout of 5 seconds`,
          details: { timeout_seconds: 5 },
        },
        5000,
      );
    },
  } as unknown as PhaseInput;
}

/**
 * A phase whose tool call timed out is re-run as is (failure kind transient: the machine starts it again, sending its
 * calls again) only when that tool is idempotent in the catalogue; a timed-out write is a tool failure the gate shows,
 * never sent again without a person (issue 32 point 5, decision 0147).
 */
describe('a timed-out skill call in a design-flow phase', () => {
  it('is transient for an idempotent skill and a tool failure (no automatic re-run) for one that is not', async () => {
    const sent: string[] = [];
    const read = await phase(async () => {
      await use(timingOut(sent), 'solver.validate_mesh', {});
      return { summary: '', deliverables: [] };
    });
    const write = await phase(async () => {
      await use(timingOut(sent), 'solver.run_fea', {});
      return { summary: '', deliverables: [] };
    });
    expect(read).toMatchObject({ ok: false, kind: 'transient' });
    expect(write).toMatchObject({
      ok: false,
      kind: 'tool',
      message: expect.stringMatching(/solver\.run_fea: tool solver\.run_fea exceeded/),
    });

    // What the run machine does with each: the transient one starts attempt 2 (its calls sent again), the other not.
    const env = { now: '2026-11-28T00:00:00.000Z', limits: DEFAULT_LIMITS };
    const flow = {
      version_id: 'v',
      flow_id: 'f',
      content_hash: '0'.repeat(64),
      definition: {
        id: 'f',
        version: '1',
        name: 'f',
        phases: [
          { id: 'p1', title: 'p1', depends_on: [], required_deliverables: [], gate: { name: 'G', gate_id: 'g' } },
        ],
      },
      facts: {},
    };
    const created = decide(
      foldRun([]),
      { type: 'create', run_id: 'r', project_id: null, flow, patches: [] } as never,
      env as never,
    );
    const s = foldRun(created.events);
    const after = (o: typeof read) =>
      decide(s, { type: 'phaseResult', phase: 'p1', attempt: 1, ...o } as never, env as never).effects.map(
        (e) => e.type,
      );
    expect(after(read)).toContain('runPhase');
    expect(after(write)).not.toContain('runPhase');
    expect(after(write)).toContain('evaluateGate');
  });
});
