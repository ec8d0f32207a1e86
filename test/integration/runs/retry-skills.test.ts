import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createGatesService } from '../../../actors/gates/gates.service.ts';
import type { PhaseExecutor } from '../../../actors/runs/executor.ts';
import { phase, use } from '../../../actors/runs/handlers/tools.ts';
import { createRunsService } from '../../../actors/runs/runs.service.ts';
import { createToolsService } from '../../../actors/tools/tools.service.ts';
import { createTwinService } from '../../../actors/twin/twin.service.ts';
import { call } from '../../../brokers/actions.ts';
import { createBroker, type BrokerHandle } from '../../../brokers/broker.ts';
import { loadConfig } from '../../../brokers/config.ts';
import { createRootLogger } from '../../../brokers/logger.ts';
import { RunsActions as R } from '../../../contracts/actions/runs.actions.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import { TOOL_CATALOGUE } from '../../../contracts/tool-catalogue.ts';
import { natsClusterEnv } from '../../support/servers.ts';
import { spawnService, type SpawnedService } from '../../support/spawn.ts';

const servers = inject('servers');
const NODE_BIN = path.join(import.meta.dirname, 'retry-adapter-node.ts');
const ADAPTER_NODES = 4;

/** A run's first phase calls the tool its request names with the key and deaths it names, as a real handler does. */
const executor: PhaseExecutor = (input) =>
  phase(async () => {
    const c = input.request.context as { tool: string; key: string; deaths: number };
    await use(input, c.tool, { key: c.key, deaths: c.deaths });
    return { summary: 'called', deliverables: [] };
  });

/**
 * SPEC "Execution lifecycle": retry applies only to idempotent skills, up to the skill's configured retries (issue 32
 * point 5, decision 0147). Four `solver` adapter processes on the real NATS bus serve catalogue tools; a call whose node
 * is SIGKILLed mid-call is sent again on another node only when its tool is idempotent, as often as the catalogue says.
 */
describe.runIf(servers.nats)('skill calls on a lost adapter node', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retry-skills-'));
  const adapters: SpawnedService[] = [];
  let main: BrokerHandle;
  const sends = (key: string) =>
    fs.existsSync(path.join(dir, `${key}.sends`))
      ? fs
          .readFileSync(path.join(dir, `${key}.sends`), 'utf8')
          .trim()
          .split('\n')
      : [];

  beforeAll(async () => {
    const env = { ...natsClusterEnv(), SERVICE_DATA_DIR: 'memory://', SERVICE_LOG_LEVEL: 'warn' };
    const config = loadConfig({ ...env, SERVICE_NODE_ID: `main-${crypto.randomBytes(3).toString('hex')}` });
    main = createBroker({
      roles: [
        {
          name: 'main',
          doc: 'runs and the registry',
          services: [
            (infra) => createRunsService(infra, { executor }),
            createGatesService,
            createTwinService,
            createToolsService,
          ],
        },
      ],
      transporter: config.SERVICE_TRANSPORTER,
      config,
      log: createRootLogger({ level: 'warn', toStderr: true }),
    });
    await main.broker.start();
    for (let i = 0; i < ADAPTER_NODES; i++)
      adapters.push(
        spawnService(
          [],
          { ...env, RETRY_DIR: dir, SERVICE_NODE_ID: `solver-${i}-${config.SERVICE_NAMESPACE}` },
          NODE_BIN,
        ),
      );
    await Promise.all(adapters.map((a) => a.waitFor('node_ready', 90_000)));
    await vi.waitFor(
      () =>
        expect(main.broker.registry.getActionEndpoints('adapters.solver.invoke')?.endpoints).toHaveLength(
          ADAPTER_NODES,
        ),
      { timeout: 30_000, interval: 100 },
    );
  }, 150_000);

  afterAll(async () => {
    await Promise.all(adapters.map((a) => a.kill('SIGKILL').catch(() => undefined)));
    await main?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('never sends a non-idempotent skill again: its run records the lost node and that it was not re-sent', async () => {
    expect(TOOL_CATALOGUE.get('solver.run_fea')).toMatchObject({ idempotent: false, retry: { retries: 0 } });
    const run = await call(main.broker, R.start, {
      design_flow: 'mech_v1',
      project_id: 'p-retry-fea',
      goal: 'a bracket',
      context: { tool: 'solver.run_fea', key: 'fea', deaths: 1 },
    });
    await expect
      .poll(async () => (await call(main.broker, R.get, { run_id: run.id })).gate?.phase ?? null, {
        timeout: 60_000,
        interval: 100,
      })
      .toBe('intent');
    expect(sends('fea')).toHaveLength(1);
    const events = (await call(main.broker, R.events, { run_id: run.id })).events;
    const failed = events.map((e) => e.payload ?? e).find((e) => (e as { type?: string }).type === 'PhaseFailed');
    expect(failed).toMatchObject({ phase: 'intent', kind: 'tool' });
    expect(String((failed as { message: string }).message)).toMatch(
      /solver\.run_fea: the node of adapter solver running solver\.run_fea was lost mid-call; solver\.run_fea is not idempotent, so it was not sent again: whether it took effect is unknown/,
    );
    const view = await call(main.broker, R.get, { run_id: run.id });
    expect(view.gate).toMatchObject({ phase: 'intent', ready: false });
    // Still one send once the run settled: nothing re-sent it later either (no automatic phase re-run).
    expect(view.phases.find((p) => p.id === 'intent')).toMatchObject({ attempt: 1 });
    expect(sends('fea')).toHaveLength(1);
  }, 120_000);

  it('sends an idempotent skill again on another node, as often as its catalogue policy says', async () => {
    const policy = TOOL_CATALOGUE.get('solver.validate_mesh')!.retry;
    expect(policy.retries).toBe(2);
    // The bus request outlives the node losses (each noticed at the heartbeat timeout) and the backoffs between sends.
    const out = await call(
      main.broker,
      ToolsActions.call,
      {
        name: 'solver.validate_mesh',
        arguments: { key: 'vm', deaths: policy.retries },
        call_id: `t-${crypto.randomUUID()}`,
        caller: { kind: 'stdio', transport: 'stdio' },
      },
      { timeout: 100_000 },
    );
    expect(out, JSON.stringify(out)).toMatchObject({ status: 'success', data: { key: 'vm' } });
    const got = sends('vm');
    expect(got).toHaveLength(policy.retries + 1);
    // Each send reached a different process: the two that died and the one that answered.
    expect(new Set(got.map((l) => l.split(' ')[1])).size).toBe(policy.retries + 1);
  }, 120_000);
});
