import crypto from 'node:crypto';
import type { HarnessRole, LlmCallRecord } from '../../../contracts/harness.ts';
import type { Completion } from '../../../contracts/harness-calls.ts';
import { complete } from './complete.ts';
import { classifyError, HarnessCallError } from './errors.ts';
import { createRedactor, type Redactor } from '../redact.ts';
import { NO_USAGE, type CallProgress, type CompleteRequest } from './types.ts';

/** Who asked for a call and on whose credential: what the ledger needs beside the tokens. */
export interface CallMeta {
  provider: string;
  role: HarnessRole;
  phase?: string | null;
  run_id?: string | null;
  project_id?: string | null;
  credential_id?: string | null;
  /** Who the call is made for (decision 0113). */
  principal?: { subject: string; client_id: string | null } | null;
}

/** Where a call's record goes (the usage part's ledger); a failure to record never fails the call. */
export type RecordCall = (rec: LlmCallRecord) => void | Promise<void>;

export interface CallModelDeps {
  record: RecordCall;
  now(): Date;
  newId?(): string;
  onRecordError?(err: unknown, rec: LlmCallRecord): void;
  /** The harness's redactor (every stored key); without one, a redactor of this call's own key and the shapes. */
  redact?: Redactor;
}

/** A call's outcome as data: routing and fallback code inspect `error.failure` without try/catch. */
export type CallModelOutcome =
  | { ok: true; completion: Completion; record: LlmCallRecord }
  | { ok: false; error: HarnessCallError; record: LlmCallRecord };

/**
 * One model call with its accounting: runs `complete`, classifies any failure, builds the LlmCallRecord (tokens as
 * reported, cost left to the ledger's price table) and hands it to `record`, after success and failure alike. A
 * failed call records the usage the provider reported before the fault (Anthropic's message_start counts the
 * prompt; an OpenAI stream reports usage only at its end), so a retried call is charged for what each attempt
 * cost and nothing twice. The config part wraps this with route resolution, credentials and fallback.
 */
export async function callModel(req: CompleteRequest, meta: CallMeta, deps: CallModelDeps): Promise<CallModelOutcome> {
  const at = deps.now();
  const t0 = performance.now();
  const progress: CallProgress = {};
  let completion: Completion | undefined;
  let error: HarnessCallError | undefined;
  try {
    completion = await complete(req, progress);
  } catch (e) {
    // The failure's text leaves the harness (results, chat stream, logs): never with a key in it (issue 27, finding 8).
    const redact = deps.redact ?? createRedactor();
    if (req.provider.apiKey) redact.add(req.provider.apiKey);
    const classified = classifyError(e);
    error = new HarnessCallError({ ...classified.failure, message: redact.text(classified.failure.message) });
  }
  const usage = completion?.usage ?? progress.usage ?? NO_USAGE;
  const record: LlmCallRecord = {
    id: deps.newId?.() ?? crypto.randomUUID(),
    at: at.toISOString(),
    provider: meta.provider,
    // The model as routed (price tables and usage summaries key on it); the completion names the served snapshot.
    model: req.model,
    role: meta.role,
    phase: meta.phase ?? null,
    run_id: meta.run_id ?? null,
    project_id: meta.project_id ?? null,
    credential_id: meta.credential_id ?? null,
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    cached_input_tokens: usage.cached_input_tokens,
    usage_reported: usage.usage_reported,
    outcome: error ? 'failed' : 'ok',
    failure_class: error ? error.failure.class : null,
    latency_ms: Math.max(0, performance.now() - t0),
    cost_usd: null,
    principal_subject: meta.principal?.subject ?? null,
    principal_client_id: meta.principal?.client_id ?? null,
  };
  try {
    await deps.record(record);
  } catch (e) {
    deps.onRecordError?.(e, record);
  }
  return error ? { ok: false, error, record } : { ok: true, completion: completion as Completion, record };
}
