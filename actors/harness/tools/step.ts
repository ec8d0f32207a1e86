import type { Caller } from '../../../contracts/actions/adapters.actions.ts';
import type { HarnessCallParams, ModelToolCall } from '../../../contracts/harness-calls.ts';
import { TOOL_CATALOGUE, UNCLASSIFIED_ANNOTATIONS } from '../../../contracts/tool-catalogue.ts';
import type { ToolResult } from '../../../contracts/tool-result.ts';
import { decideHold } from '../../../brokers/hold-policy.ts';
import { ArgValidator } from '../../../brokers/tool-args.ts';
import {
  busFailureEnvelope,
  envelopeOf,
  invalidArgumentsEnvelope,
  unknownToolEnvelope,
  type ToolEnvelope,
} from './envelope.ts';
import type { OfferedTool } from './offer.ts';

export interface ToolStepDeps {
  /** The offer of this request, by offered name (offer.ts). */
  byName: ReadonlyMap<string, OfferedTool>;
  /** Runs one registry tool: `tools.call` on the bus (same validation and hold policy as an MCP caller). */
  callTool(toolId: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Runs one of the harness's own tools, in process. */
  runNative?(toolId: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Whether a person must approve the call (with these arguments, when known) before it runs (approvalPolicy below). */
  requiresApproval(tool: OfferedTool, args?: Record<string, unknown>): boolean;
  validator?: ArgValidator;
}

/** One validator for every turn of the process: its compiled schemas outlive a turn. */
const SHARED_VALIDATOR = new ArgValidator();

/** The outcome of one model tool call, in the model's order; `ran`: the tool was executed by this call. */
export interface ToolObservation {
  call_id: string;
  name: string;
  tool_id: string | null;
  envelope: ToolEnvelope;
  ran: boolean;
}

/**
 * The hold policy of the registry for this caller (SPEC rule 9: `hold` mode holds writes; `forward` refuses instead),
 * judged per call when the arguments are given, as the registry judges it (an EDA export into its scratch is no write).
 */
export function approvalPolicy(
  caller: Caller,
  exemptLocalWrites = true,
): (tool: OfferedTool, args?: Record<string, unknown>) => boolean {
  return (tool, args) =>
    !tool.native &&
    decideHold(
      tool.id,
      tool.annotations ?? UNCLASSIFIED_ANNOTATIONS,
      TOOL_CATALOGUE.get(tool.id),
      caller,
      { exemptLocalWrites },
      args,
    ).kind === 'hold';
}

/** JSON with object keys sorted at every level: `(tool, canonical arguments)` is the cache key (rule 3). */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

const hasSchema = (s: Record<string, unknown> | undefined): s is Record<string, unknown> =>
  s !== undefined && Object.keys(s).length > 0;

type Prepared =
  { call: ModelToolCall; done: ToolObservation } | { call: ModelToolCall; tool: OfferedTool; key: string };

/**
 * The tool calls of one turn (SPEC "Chat and harness rules" 1-4). Each model step's calls are checked first, all of
 * them, before anything runs or waits for a person: an unknown name is a `reasoning` envelope, arguments that fail the
 * tool's input_schema the rule-1 envelope; neither runs. The rest run concurrently, results in the model's order and a
 * failure (or a thrown bus error) confined to its own call; a step with a call a person must approve runs serially.
 * A successful call repeated with the same canonical arguments in the same turn answers its stored envelope with
 * `cached: true`; failures are never stored; a new turn is a new ToolTurn.
 */
export class ToolTurn {
  private readonly validator: ArgValidator;
  private readonly succeeded = new Map<string, ToolEnvelope>();
  private readonly inFlight = new Map<string, Promise<ToolEnvelope>>();

  private readonly deps: ToolStepDeps;

  constructor(deps: ToolStepDeps) {
    this.deps = deps;
    this.validator = deps.validator ?? SHARED_VALIDATOR;
  }

  async runStep(calls: readonly ModelToolCall[]): Promise<ToolObservation[]> {
    const prepared = calls.map((c) => this.prepare(c));
    const serial = prepared.some((p) => 'tool' in p && this.deps.requiresApproval(p.tool, p.call.arguments));
    if (!serial) return Promise.all(prepared.map((p) => this.settle(p)));
    const out: ToolObservation[] = [];
    for (const p of prepared) out.push(await this.settle(p));
    return out;
  }

  private prepare(call: ModelToolCall): Prepared {
    const tool = this.deps.byName.get(call.name);
    const obs = (envelope: ToolEnvelope, tool_id: string | null): Prepared => ({
      call,
      done: { call_id: call.id, name: call.name, tool_id, envelope, ran: false },
    });
    if (!tool) return obs(unknownToolEnvelope(call.name, [...this.deps.byName.keys()]), null);
    let canonicalArgs: unknown = call.arguments;
    if (hasSchema(tool.input_schema)) {
      const checked = this.validator.check(tool.input_schema, call.arguments);
      if (!checked.ok) return obs(invalidArgumentsEnvelope(tool.id, checked.issues), tool.id);
      canonicalArgs = checked.args; // defaults filled in: `{}` and the defaults spelled out are the same call
    }
    return { call, tool, key: `${tool.id}\n${canonicalJson(canonicalArgs)}` };
  }

  private async settle(p: Prepared): Promise<ToolObservation> {
    if ('done' in p) return p.done;
    const base = { call_id: p.call.id, name: p.call.name, tool_id: p.tool.id };
    const stored = this.succeeded.get(p.key);
    if (stored) return { ...base, envelope: { ...stored, cached: true } as ToolEnvelope, ran: false };
    const running = this.inFlight.get(p.key);
    if (running) {
      // The same call is running in this step: share its success; after a failure run again (never cached).
      const first = await running;
      if (first.status === 'success') return { ...base, envelope: { ...first, cached: true }, ran: false };
    }
    const run = this.execute(p.tool, p.call.arguments);
    this.inFlight.set(p.key, run);
    try {
      const envelope = await run;
      if (envelope.status === 'success') this.succeeded.set(p.key, envelope);
      return { ...base, envelope, ran: true };
    } finally {
      if (this.inFlight.get(p.key) === run) this.inFlight.delete(p.key);
    }
  }

  private async execute(tool: OfferedTool, args: Record<string, unknown>): Promise<ToolEnvelope> {
    try {
      if (tool.native) {
        if (!this.deps.runNative) throw new Error(`no runner for the harness tool ${tool.id}`);
        return envelopeOf(tool.id, await this.deps.runNative(tool.id, args));
      }
      return envelopeOf(tool.id, await this.deps.callTool(tool.id, args));
    } catch (err) {
      return busFailureEnvelope(tool.id, err);
    }
  }
}

/** The tool messages that answer one step, in the model's order (each names its call's id). */
export function toolMessages(
  observations: readonly ToolObservation[],
): Extract<HarnessCallParams['messages'][number], { role: 'tool' }>[] {
  return observations.map((o) => ({
    role: 'tool' as const,
    tool_call_id: o.call_id,
    content: JSON.stringify(o.envelope),
    is_error: o.envelope.status === 'error',
  }));
}
