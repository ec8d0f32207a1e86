import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action, call } from '../../../brokers/actions.ts';
import type { BrokerHandle } from '../../../brokers/broker.ts';
import { createSolverAdapter } from '../../../actors/adapters/solver/solver.adapter.ts';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';
import { CallerChannel } from '../../../contracts/actions/gateway.actions.ts';
import { startActors } from '../../support/actors.ts';
import { copyFixture, tempWorkspace } from '../../support/sim-fixtures.ts';

/** Progress from the solver's `.sta` through tc.progress, and the kill of ccx when the call times out. */
const ws = tempWorkspace('solver-prog-');
const progress: { progress: number; message: string }[] = [];
let h: BrokerHandle;
beforeAll(async () => {
  copyFixture(ws.root, 'beam_coarse.inp');
  copyFixture(ws.root, 'beam_medium.inp.gz');
  // A stand-in for the gateway that holds the caller's stream: it records the progress reports it receives.
  const gateway = () => ({
    name: 'gateway',
    actions: { toolProgress: action(CallerChannel.progress, (p) => (progress.push(p), { delivered: true })) },
  });
  h = await startActors([createSolverAdapter, gateway], { SERVICE_WORKSPACE: ws.root });
});
afterAll(async () => {
  await h.broker.stop();
  ws.remove();
});

const invoke = (args: Record<string, unknown>, timeout_ms = 120_000) =>
  call(
    h.broker,
    adapterActions('solver').invoke,
    {
      tool_id: 'solver.run_fea',
      arguments: args,
      call_id: crypto.randomUUID(),
      timeout_ms,
      caller: { kind: 'stdio', transport: 'stdio' },
      progress_node: h.broker.nodeID,
    },
    { timeout: timeout_ms + 5000 },
  );
/** ccx processes working inside this test's workspace (other suites may run their own). */
const ccxPidsHere = (): string[] => {
  let pids: string[] = [];
  try {
    pids = execFileSync('pgrep', ['-x', 'ccx'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
  return pids.filter((pid) => {
    try {
      return fs.realpathSync(`/proc/${pid}/cwd`).startsWith(fs.realpathSync(ws.root));
    } catch {
      return false;
    }
  });
};
const ccxHere = (): number => ccxPidsHere().length;

describe('run_fea progress and deadline', () => {
  it('reports progress in order: deck, solve, field, done', async () => {
    const r = await invoke({
      mesh_file: 'beam_coarse.inp',
      load_case: 'tip',
      analysis_type: 'static_stress',
      load_force_n: [0, 0, -1000],
    });
    expect(r.status).toBe('success');
    const messages = progress.map((p) => p.message);
    expect(messages[0]).toBe('building the CalculiX deck');
    expect(messages).toContain('solving 955 nodes, 430 elements with CalculiX');
    expect(messages).toContain('reading the results and building the field');
    expect(progress.at(-1)).toEqual({ call_id: expect.any(String), progress: 1, message: 'done' });
    const values = progress.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });

  it('kills ccx when the call runs out of time (TOOL_TIMEOUT), leaving no solver process behind', async () => {
    // The solve must outlast its deadline on any machine: once ccx is seen it is stopped (SIGSTOP), so it cannot
    // finish however fast the machine is; the deadline then has to kill it (SIGKILL reaches a stopped process).
    let stopped = 0;
    const freeze = setInterval(() => {
      for (const pid of ccxPidsHere()) {
        process.kill(Number(pid), 'SIGSTOP');
        stopped++;
      }
    }, 20);
    const r = await invoke(
      { mesh_file: 'beam_medium.inp', load_case: 'tip', analysis_type: 'static_stress', load_force_n: [0, 0, -1000] },
      8000,
    );
    clearInterval(freeze);
    expect(r).toMatchObject({
      status: 'error',
      error: { type: 'TOOL_TIMEOUT', message: expect.stringContaining('timeout of 8 seconds') },
    });
    expect(stopped).toBeGreaterThan(0);
    expect(progress.map((p) => p.message)).toContainEqual(expect.stringMatching(/^solving \d+ nodes/));
    await expect.poll(ccxHere, { timeout: 10_000 }).toBe(0);
  }, 30_000);
});
