import type { Context } from 'moleculer';
import { action, call } from '../../../brokers/actions.ts';
import { HarnessCallsActions as A } from '../../../contracts/actions/harness-calls.actions.ts';
import { HarnessUsageActions } from '../../../contracts/actions/harness-usage.actions.ts';
import type { LlmCallRecord } from '../../../contracts/harness.ts';
import type { HarnessCompleteParams, HarnessCompleteResult } from '../../../contracts/harness-calls.ts';
import { ActorError } from '../../../brokers/errors.ts';
import type { HarnessContext, HarnessPart } from '../context.ts';
import type { ConfigCore } from '../config/index.ts';
import { callModel, type RecordCall } from './call-model.ts';
import { HarnessCallError } from './errors.ts';
import { routedCall } from './routed-call.ts';
import { turnAction } from './turn-action.ts';
import type { ProviderConfig } from './types.ts';

export { callModel, type CallMeta, type CallModelDeps, type CallModelOutcome, type RecordCall } from './call-model.ts';
export { complete } from './complete.ts';
export { routedCall, type RoutedCallDeps } from './routed-call.ts';
export { runTurn, type TurnDeps } from './turn.ts';
export { classifyError, HarnessCallError } from './errors.ts';
export { FIRST_PARTY_BASE_URL, isFirstParty, modelFits } from './family-fit.ts';
export type { CallProgress, CompleteRequest, ProviderConfig } from './types.ts';

export interface CallsPartOptions {
  /**
   * Where call records go; default: the usage part's ledger (`harness.recordCall`) when a node serves it, so the
   * calls part also works (and is tested) on its own.
   */
  record?(rec: LlmCallRecord, ctx: Context): void | Promise<void>;
  /**
   * The config part of the same actor, in process (routes, credentials, fallback) for `harness.call`; the actor
   * wires it (the config part imports this part's model-fit rule). Absent: `harness.call` is SERVICE_UNAVAILABLE.
   */
  config?(): ConfigCore;
  /** Resolves an api key reference (`env:NAME`); default: the process environment. */
  resolveKey?(ref: string): string | undefined;
}

/** How long a caller of `harness.call` waits unless it says otherwise (the bus default is for quick actions). */
const ROUTED_CALL_TIMEOUT_MS = 15 * 60_000;

const envKey = (ref: string) => (ref.startsWith('env:') ? process.env[ref.slice(4)] : undefined) || undefined;

/** The provider config of an explicit bus target; a reference that resolves to nothing is an `environment` failure. */
function providerOf(p: HarnessCompleteParams, resolveKey: (ref: string) => string | undefined): ProviderConfig {
  const t = p.target;
  const apiKey = t.api_key_ref ? resolveKey(t.api_key_ref) : undefined;
  if (t.api_key_ref && !apiKey) {
    throw HarnessCallError.of(
      'environment',
      `the api key reference ${t.api_key_ref} of provider ${t.provider} is not set`,
    );
  }
  return { family: t.family, baseURL: t.base_url, apiKey, timeoutMs: t.timeout_ms, idleTimeoutMs: t.idle_timeout_ms };
}

/**
 * The harness's `calls` part: `harness.complete`, one model call on an explicit provider, and `harness.call`, one
 * call routed by role on the configured credentials with fallback; both recorded for the ledger.
 */
export function createCallsPart(h: HarnessContext, opts: CallsPartOptions = {}): HarnessPart {
  const resolveKey = opts.resolveKey ?? envKey;
  const record =
    opts.record ??
    (async (rec: LlmCallRecord, ctx: Context) => {
      if (ctx.broker.registry.actions.isAvailable(HarnessUsageActions.recordCall.action)) {
        const { cost_usd: _cost, ...input } = rec;
        await call(ctx, HarnessUsageActions.recordCall, input);
      } else h.infra.log.debug({ record: rec }, 'llm call not recorded: no usage ledger served');
    });

  /** A turn's records in one ledger call (`harness.recordCalls`); a `record` override takes them one by one. */
  const recordMany = async (recs: LlmCallRecord[], ctx: Context) => {
    if (opts.record) {
      for (const rec of recs) await opts.record(rec, ctx);
    } else if (ctx.broker.registry.actions.isAvailable(HarnessUsageActions.recordCalls.action)) {
      await call(ctx, HarnessUsageActions.recordCalls, { calls: recs.map(({ cost_usd: _c, ...input }) => input) });
    } else h.infra.log.debug({ records: recs.length }, 'llm calls not recorded: no usage ledger served');
  };

  const configHere = (): ConfigCore => {
    if (!opts.config)
      throw new ActorError('SERVICE_UNAVAILABLE', 'harness.call needs the harness config part (routes, credentials)');
    return opts.config();
  };

  return {
    actions: {
      // A routed call may take several attempts, each up to its provider's timeouts: longer than the bus default.
      call: action(
        A.call,
        (p, ctx) =>
          routedCall(p, {
            config: configHere(),
            record: (rec) => record(rec, ctx),
            now: () => h.infra.now(),
            log: h.infra.log,
          }),
        // Moleculer honours an action's own timeout (its typings omit the field).
        { timeout: ROUTED_CALL_TIMEOUT_MS } as object,
      ),

      // One agent turn: routed calls in steps, the tools between them through the registry (turn-action.ts).
      turn: action(A.turn, (p, ctx) => turnAction(p, ctx, { infra: h.infra, config: configHere(), recordMany }), {
        timeout: 0, // several model calls and the tools between them (a held one waits for its person)
      } as object),

      complete: action(A.complete, async (p, ctx): Promise<HarnessCompleteResult> => {
        const recordHere: RecordCall = (rec) => record(rec, ctx);
        const meta = {
          provider: p.target.provider,
          role: p.role,
          phase: p.phase,
          run_id: p.run_id,
          project_id: p.project_id,
          credential_id: p.credential_id,
        };
        let provider: ProviderConfig;
        try {
          provider = { ...providerOf(p, resolveKey), fetch: h.egress.fetch };
        } catch (e) {
          // Refused before any request: nothing was sent, so nothing is recorded.
          const failure = (e as HarnessCallError).failure;
          return { outcome: 'failed', record_id: null, failure };
        }
        const out = await callModel(
          {
            provider,
            model: p.model,
            messages: p.messages,
            tools: p.tools,
            maxTokens: p.max_tokens,
            temperature: p.temperature,
          },
          meta,
          {
            record: recordHere,
            now: () => h.infra.now(),
            redact: h.redact,
            onRecordError: (err, rec) => h.infra.log.warn({ err, record_id: rec.id }, 'llm call record not stored'),
          },
        );
        if (!out.ok) {
          h.infra.log.warn(
            { provider: meta.provider, model: p.model, role: p.role, failure: out.error.failure },
            'llm call failed',
          );
          return { outcome: 'failed', record_id: out.record.id, failure: out.error.failure };
        }
        return { outcome: 'ok', record_id: out.record.id, completion: out.completion };
      }),
    },
  };
}
