import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TOOLCALL_CANCEL_EVENT } from '../../../contracts/actions/adapters.actions.ts';
import { copyFixture, tempWorkspace } from '../../support/sim-fixtures.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { natsClusterEnv } from '../../support/servers.ts';
import { spawnService, type LogLine, type SpawnedService } from '../../support/spawn.ts';
import { invokeViaRegistry, okData } from '../../support/tools.ts';

/**
 * Issue 20, scale-down with a solve in flight, on the real NATS server with real processes: solver adapter A (its own
 * process) runs a medium-mesh run_fea for the caller (this process: the tools registry); SIGTERM reaches A while the
 * solve runs (both replicas up before it starts). A leaves the balancer, finishes the solve (correct result), exits 0; a call made after the SIGTERM goes
 * to adapter B and runs there exactly once. No step waits on time: each waits for a log line, a registry state or a result.
 */
describe.runIf(inject('servers').nats)('solver adapter drain on SIGTERM', () => {
  const ws = tempWorkspace('solver-drain-');
  const env = {
    ...natsClusterEnv(),
    SERVICE_WORKSPACE: ws.root,
    SERVICE_DATA_DIR: 'memory://',
    SERVICE_REQUEST_TIMEOUT_MS: '600000',
  };
  // debug: the kit's `tool_call_started` line is how the test sees a call running on a node.
  const adapterEnv = { ...env, SERVICE_LOG_LEVEL: 'debug', SERVICE_DRAIN_TIMEOUT_MS: '600000' };
  const spawned: SpawnedService[] = [];
  let caller: TestNode;

  const startAdapter = async () => {
    const s = spawnService(['--roles', 'adapter:solver'], adapterEnv);
    spawned.push(s);
    const ready = await s.waitFor('node_ready', 120_000);
    return { proc: s, nodeID: String(ready.node) };
  };
  const invokeNodes = () =>
    (caller.node.broker.registry.getActionEndpoints('adapters.solver.invoke')?.endpoints ?? [])
      .map((e: { node: { id: string } }) => e.node.id)
      .sort();
  /** Nodes the caller would send a cancellation to: a draining node stays among them (it left the balancer, not the bus). */
  const cancelNodes = () =>
    caller.node.broker.registry.events
      .getAllEndpoints(TOOLCALL_CANCEL_EVENT)
      .map((e: { id: string }) => e.id)
      .filter((id: string) => id !== caller.node.broker.nodeID)
      .sort();
  /** A run_fea call through the caller's registry: a 1000 N tip load on `mesh`, under `call_id`. */
  const runFea = (mesh: string, load_case: string, call_id: string) =>
    invokeViaRegistry(
      caller.node.broker,
      'solver.run_fea',
      {
        mesh_file: mesh,
        load_case,
        analysis_type: 'static_stress',
        material: 'steel',
        fixed_node_set: 'FIXED',
        load_node_set: 'LOAD',
        load_force_n: [0, 0, -1000],
      },
      {},
      { call_id, timeout_seconds: 900 },
    );
  const started = (callId: string) => (l: LogLine) => l.msg === 'tool_call_started' && l.call === callId;

  beforeAll(() => {
    copyFixture(ws.root, 'beam_medium.inp.gz');
    copyFixture(ws.root, 'beam_coarse.inp');
  });
  afterAll(async () => {
    await Promise.all(spawned.map((s) => s.kill('SIGKILL')));
    await caller?.stop();
    ws.remove();
  });

  it('finishes the solve in flight, exits 0, and the next call runs once on the other replica', async () => {
    // Both replicas are up before the solve starts, so nothing waits on a process start while it runs.
    const one = await startAdapter();
    const two = await startAdapter();
    caller = await startTestNode({ roles: 'tools', env });
    await expect.poll(invokeNodes, { timeout: 60_000 }).toEqual([one.nodeID, two.nodeID].sort());

    const first = okData(runFea('beam_medium.inp', 'tip load 1000 N', 'drain-first'));
    first.catch(() => undefined);
    // A is the replica the balancer gave the solve to; B the other.
    const runs = (s: { proc: SpawnedService }, callId: string) => s.proc.lines.filter(started(callId)).length;
    await expect.poll(() => runs(one, 'drain-first') + runs(two, 'drain-first'), { timeout: 120_000 }).toBe(1);
    const [a, b] = runs(one, 'drain-first') ? [one, two] : [two, one];

    a.proc.proc.kill('SIGTERM');
    await a.proc.waitFor('node_draining', 60_000);
    // A left the balancer: the caller's registry no longer offers it, though A is still on the bus finishing the solve.
    await expect.poll(invokeNodes, { timeout: 60_000 }).toEqual([b.nodeID]);
    expect(a.proc.proc.exitCode).toBeNull();
    expect(cancelNodes()).toEqual([a.nodeID, b.nodeID].sort());

    const second = await okData(runFea('beam_coarse.inp', 'tip load after SIGTERM', 'drain-second'));
    expect(second.reaction_force_n[2]).toBeCloseTo(1000, 0);

    const fea = await first;
    expect(-fea.load_set_mean_displacement_mm[2]).toBeCloseTo(7.58, 2);
    expect(fea.reaction_force_n[2]).toBeCloseTo(1000, 0);
    expect(fea).toMatchObject({ analysis_type: 'static_stress', mesh_nodes: 20135, warnings: [] });

    expect(await a.proc.exited).toBe(0);
    expect(a.proc.lines.find((l) => l.msg === 'adapter_drained')).toMatchObject({
      adapter: 'solver',
      in_flight: 1,
      finished: 1,
      aborted: 0,
    });
    // Each call ran exactly once, where it was sent: the first on A, the second on B.
    expect([runs(a, 'drain-first'), runs(b, 'drain-first')]).toEqual([1, 0]);
    expect([runs(a, 'drain-second'), runs(b, 'drain-second')]).toEqual([0, 1]);

    expect(await b.proc.kill('SIGTERM')).toBe(0);
  }, 900_000);

  it("passes a client's cancellation to the call it drains, which answers CANCELLED; then it exits 0", async () => {
    const c = await startAdapter();
    await expect.poll(invokeNodes, { timeout: 60_000 }).toEqual([c.nodeID]);
    const solve = runFea('beam_medium.inp', 'cancelled while draining', 'drain-cancel');
    await c.proc.waitFor(started('drain-cancel'), 120_000);
    c.proc.proc.kill('SIGTERM');
    await c.proc.waitFor('node_draining', 60_000);
    await expect.poll(invokeNodes, { timeout: 60_000 }).toEqual([]);
    expect(cancelNodes()).toEqual([c.nodeID]);

    // What the gateway sends when the client cancels (notifications/cancelled).
    await caller.node.broker.broadcast(TOOLCALL_CANCEL_EVENT, {
      call_id: 'drain-cancel',
      reason: 'stopped by the engineer',
    });
    expect(await solve).toMatchObject({ status: 'error', error: { type: 'CANCELLED' } });
    expect(await c.proc.exited).toBe(0);
    expect(c.proc.lines.find((l) => l.msg === 'adapter_drained')).toMatchObject({ in_flight: 1, aborted: 0 });
  }, 900_000);
});
