import type { Context } from 'moleculer';
import type { Infra } from '../../../brokers/infra.ts';
import type { LlmCallRecord } from '../../../contracts/harness.ts';
import {
  TURN_PROGRESS_EVENT,
  type HarnessTurnParams,
  type HarnessTurnResult,
} from '../../../contracts/harness-turns.ts';
import type { ConfigCore, RouteOutcome } from '../config/index.ts';
import { listTools, registryCaller } from '../tools/index.ts';
import { routeAskOf, routedCall, type RoutedCallDeps } from './routed-call.ts';
import { runTurn } from './turn.ts';

/** How long a turn's ledger records gather before they are written together. */
const RECORD_GATHER_MS = 20;

export interface TurnActionEnv {
  infra: Infra;
  config: ConfigCore;
  recordMany(recs: LlmCallRecord[], ctx: Context): Promise<void>;
}

/**
 * `harness.turn` on the bus: the agent loop (turn.ts) with its effects. Within one turn the role's route is resolved
 * once (every step asks the same; a failing route still falls back per call), and the steps' ledger records are
 * written while the turn goes on, gathered into one ledger call every RECORD_GATHER_MS: the turn answers only once
 * every record is stored (or its failure logged), so no step waits on the ledger and no call goes unrecorded. Progress goes out as `harness.turnProgress` when asked.
 */
export async function turnAction(p: HarnessTurnParams, ctx: Context, env: TurnActionEnv): Promise<HarnessTurnResult> {
  const { infra } = env;
  const routes = new Map<string, Promise<RouteOutcome>>();
  const config: ConfigCore = {
    ...env.config,
    route: (ask) => {
      const key = JSON.stringify(ask);
      let r = routes.get(key);
      if (!r) routes.set(key, (r = env.config.route(ask)));
      return r;
    },
  };
  // The steps' records gather for RECORD_GATHER_MS and go to the ledger together; the turn answers once all are stored.
  let pending: LlmCallRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  let written = Promise.resolve();
  const writeNow = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (!batch.length) return;
    written = written.then(() =>
      env
        .recordMany(batch, ctx)
        .catch((err: unknown) =>
          infra.log.warn({ err, records: batch.map((r) => r.id) }, 'llm call records not stored'),
        ),
    );
  };
  const deps: RoutedCallDeps = {
    config,
    record: (rec) => {
      pending.push(rec);
      timer ??= setTimeout(writeNow, RECORD_GATHER_MS);
    },
    now: () => infra.now(),
    log: infra.log,
  };
  let n = 0;
  const topic = p.progress_topic;
  try {
    const r = await runTurn(p, {
      call: (q, onText) => routedCall(q, { ...deps, onText }),
      progress: topic
        ? (event, step) => void ctx.broadcast(TURN_PROGRESS_EVENT, { topic, n: ++n, step, event })
        : undefined,
      family: async (q) => {
        const route = await config.route(routeAskOf(q));
        return route.ok ? route.route.family : null;
      },
      listTools: (profile) => listTools(ctx, profile),
      callTool: (tools) =>
        registryCaller(ctx, tools.caller, { timeout_seconds: tools.timeout_seconds, hold_seconds: tools.hold_seconds }),
      exemptLocalWrites: infra.config.SERVICE_EXEMPT_LOCAL_WRITES,
      log: infra.log,
    });
    return { ...r, progress_events: n };
  } finally {
    writeNow();
    await written;
  }
}
