import type { Context, ServiceSchema } from 'moleculer';
import { action } from '../../../brokers/actions.ts';
import type { DrainReport } from '../../../brokers/drain.ts';
import type { Infra } from '../../../brokers/infra.ts';
import {
  adapterActions,
  ToolcallCancelSchema,
  TOOLCALL_CANCEL_EVENT,
  type AdapterHealthReport,
  type AnnouncedTool,
  type InvokeParams,
} from '../../../contracts/actions/adapters.actions.ts';
import { ADAPTER_LOAD_EVENT, LEAST_IN_FLIGHT_STRATEGY } from '../../../contracts/actions/adapter-load.ts';
import { toValidationIssues, type ValidationIssue } from '../../../contracts/errors.ts';
import '../../../brokers/least-in-flight.strategy.ts';
import { invalidArguments, toolFailed, type ToolCallError, type ToolResult } from '../../../contracts/tool-result.ts';
import { annotationsOf, TOOL_CATALOGUE, UNCLASSIFIED_ANNOTATIONS } from '../../../contracts/tool-catalogue.ts';
import { createBacklog, type Backlog } from './backlog.ts';
import { adapterCallTimeoutSeconds } from './call-timeout.ts';
import { callerPort } from './caller-port.ts';
import { DrainSignal, InFlightCalls } from './in-flight.ts';
import { untrustedInput } from './tool-input.ts';
import {
  InvalidArgumentsError,
  inputJsonSchema,
  outputJsonSchema,
  ToolError,
  ToolUnavailableError,
  type ToolDefinition,
} from './tool.ts';

export interface AdapterDefinition {
  id: string;
  version: string;
  capability: string;
  /** The tools, or a factory when they need the process's infrastructure (database, workspace, metrics). */
  tools: ToolDefinition<any, any>[] | ((infra: Infra) => ToolDefinition<any, any>[]);
  /** Tools are also listed and called by their bare `name` (names an outside suite fixes); the registry refuses clashes. */
  bareNames?: boolean;
  /** Limits announced in every tool's manifest (SPEC defaults 1024 MB, 300 CPU s, 256 MB disk). */
  resourceLimits?: { max_memory_mb?: number; max_cpu_seconds?: number; max_disk_mb?: number };
  /** Checks the engine behind the adapter; `unhealthy` with a message naming what is missing. Cached per call burst. */
  checkEngine?(infra: Infra): Promise<EngineStatus>;
  /**
   * Calls one node runs at once (its pool or engine slots); past it a call is refused at once, retryable, and the
   * registry sends it to another replica or waits for a slot (backlog.ts). Unset or null: no cap.
   */
  concurrency?(infra: Infra): number | null;
}

/**
 * An engine check's verdict. `degraded` with `unavailable` (tool names, without the adapter id): those tools fail with
 * TOOL_UNAVAILABLE and the message before they run; the others work.
 */
export interface EngineStatus {
  status: 'healthy' | 'degraded' | 'unhealthy';
  message?: string;
  unavailable?: string[];
}

const ENGINE_CHECK_TTL_MS = 5000;
/** A progress report that takes longer than this to reach the caller's node is dropped (progress is best effort). */
const PROGRESS_TIMEOUT_MS = 1000;

/**
 * Builds the actor of one tool adapter (`adapters.<id>`): `manifest` announces its tools (annotations from the catalogue,
 * schemas generated from zod), `health` reports the engine, `invoke` runs one call with a deadline, cancellation and
 * progress, and answers the one ToolResult (contracts/tool-result.ts): every tool-level failure is an error result, never a throw.
 */
export function createAdapterService(def: AdapterDefinition) {
  return (infra: Infra): ServiceSchema => {
    const acts = adapterActions(def.id);
    const defs = typeof def.tools === 'function' ? def.tools(infra) : def.tools;
    const tools = new Map(defs.map((t) => [`${def.id}.${t.name}`, t]));
    const running = new InFlightCalls();
    const callTimeoutMs = adapterCallTimeoutSeconds(def.id) * 1000;
    const startedAt = Date.now();
    let lastInvocation: string | null = null;
    let backlog: Backlog | undefined;
    let engine: { at: number; value: Awaited<ReturnType<NonNullable<AdapterDefinition['checkEngine']>>> } | undefined;

    let checking: Promise<EngineStatus> | undefined;
    /**
     * The engine's status, checked at most every ENGINE_CHECK_TTL_MS (one check in flight at a time). `stale` (health)
     * answers the last check at once while the next one runs: a check spawns programs (bwrap, python), which on a loaded
     * machine takes hundreds of milliseconds that /health must not wait for (issue 27, finding 5).
     */
    const engineStatus = async (opts: { stale?: boolean } = {}): Promise<EngineStatus> => {
      if (!def.checkEngine) return { status: 'healthy' };
      if (engine && Date.now() - engine.at <= ENGINE_CHECK_TTL_MS) return engine.value;
      const check = def.checkEngine;
      checking ??= check(infra)
        .then((value) => {
          engine = { at: Date.now(), value };
          return value;
        })
        .finally(() => (checking = undefined));
      return engine && opts.stale ? engine.value : checking;
    };

    /** Tools whose zod input says more than its JSON Schema (tool-input.ts): only these are decoded by zod here. */
    const zodDecoded = new Set<string>();
    const announced: AnnouncedTool[] = defs.map((t) => {
      const id = `${def.id}.${t.name}`;
      const input_schema = inputJsonSchema(t.input);
      const untrusted = untrustedInput(t.input, input_schema);
      if (untrusted) {
        zodDecoded.add(id);
        infra.log.debug(
          { tool: id, reason: untrusted },
          'tool input not fully expressed in JSON Schema: the adapter decodes it with zod',
        );
      }
      const entry = TOOL_CATALOGUE.get(id);
      const annotations = entry
        ? annotationsOf(entry, infra.config.SERVICE_ALLOW_TWIN_MUTATIONS)
        : (t.annotations ?? UNCLASSIFIED_ANNOTATIONS);
      return {
        tool_id: id,
        adapter_id: def.id,
        name: t.name,
        title: t.title,
        description: t.description,
        capability: def.capability,
        input_schema,
        output_schema: t.output ? outputJsonSchema(t.output) : null,
        phase: entry?.phase ?? 1,
        resource_limits: { max_memory_mb: 1024, max_cpu_seconds: 300, max_disk_mb: 256, ...def.resourceLimits },
        annotations,
        idempotent: annotations.idempotentHint,
        ...(def.bareNames ? { bare_name: true } : {}),
      };
    });

    /** Runs the call in one of the node's slots; a full node throws its retryable refusal before anything starts. */
    async function invoke(p: InvokeParams, ctx: Context): Promise<ToolResult> {
      // Draining (SIGTERM): refused before anything runs, retryably, so the caller runs it on another replica (issue 20).
      running.refuseWhileDraining(acts.invoke.action, ctx.broker.nodeID);
      const release = backlog!.acquire();
      if (typeof release !== 'function') throw release;
      const started = performance.now();
      try {
        const r = await run(p, ctx);
        const status = r.status === 'success' ? 'success' : r.error.type;
        backlog!.observe(p.tool_id, status, (performance.now() - started) / 1000);
        return r;
      } finally {
        release();
      }
    }

    async function run(p: InvokeParams, ctx: Context): Promise<ToolResult> {
      const started = performance.now();
      const timeoutMs = Math.min(p.timeout_ms, callTimeoutMs);
      const fail = (error: ToolCallError): ToolResult => toolFailed(p.tool_id, error, performance.now() - started);
      const refuse = (issues: ValidationIssue[]): ToolResult =>
        invalidArguments(p.tool_id, issues, performance.now() - started);
      lastInvocation = infra.now().toISOString();
      const tool = tools.get(p.tool_id);
      if (!tool)
        return fail({
          type: 'TOOL_UNAVAILABLE',
          message: `adapter ${def.id} has no tool ${p.tool_id}`,
          details: p.tool_id,
        });
      const health = await engineStatus();
      if (health.status === 'unhealthy') {
        const message = `adapter ${def.id} is unavailable: ${health.message ?? 'engine not healthy'}`;
        return fail({ type: 'TOOL_UNAVAILABLE', message, details: health.message ?? message });
      }
      if (health.unavailable?.includes(tool.name)) {
        const message = `${p.tool_id} is unavailable: ${health.message ?? 'its engine is not installed'}`;
        return fail({ type: 'TOOL_UNAVAILABLE', message, details: health.message ?? message });
      }

      // The registry checked the arguments against this tool's input_schema (defaults filled in) and they are not
      // re-checked, except for a tool whose zod input says what JSON Schema cannot (a refinement, a transform, a
      // default inside a union): zod decodes those, and its refusal is INVALID_ARGUMENTS like the registry's.
      let args: Record<string, unknown> = p.arguments;
      if (zodDecoded.has(p.tool_id)) {
        const parsed = tool.input.safeParse(p.arguments);
        if (!parsed.success) return refuse(toValidationIssues(parsed.error));
        args = parsed.data as Record<string, unknown>;
      }

      const controller = new AbortController();
      running.set(p.call_id, controller);
      infra.log.debug({ tool: p.tool_id, call: p.call_id }, 'tool_call_started');
      const timer = setTimeout(() => controller.abort(new TimeoutSignal()), timeoutMs);
      const outputFiles: string[] = [];
      const port = callerPort(ctx, { callId: p.call_id, replyTo: p.progress_node });
      /** Progress still on its way to the caller's node: awaited (briefly) so the result never overtakes it. */
      const progressSent: Promise<unknown>[] = [];
      const aborted = new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
      );
      aborted.catch(() => undefined);
      try {
        const data = await Promise.race([
          tool.handler(args, {
            callId: p.call_id,
            caller: p.caller,
            signal: controller.signal,
            log: infra.log.child({ tool: p.tool_id, call: p.call_id }),
            ctx,
            outputFiles,
            progress(fraction, message) {
              if (port.reachable)
                progressSent.push(port.progress(fraction, message, { timeoutMs: PROGRESS_TIMEOUT_MS }));
            },
            notify: (method, params) => port.notify(method, params),
            async request(method, params) {
              if (!port.reachable) throw new ToolError(`${method} needs a client stream, and this call has none`);
              const remaining = Math.max(1000, timeoutMs - (performance.now() - started));
              const r = await port.request(method, params, { timeoutMs: remaining });
              if (!r.delivered) throw new ToolError(`${method} could not reach the client: ${r.reason}`);
              return r.result;
            },
          }),
          aborted,
        ]);
        if (progressSent.length) await Promise.all(progressSent);
        if (tool.output) {
          const checked = tool.output.safeParse(data);
          if (!checked.success) {
            infra.log.error(
              { tool: p.tool_id, issues: toValidationIssues(checked.error) },
              'tool result does not match its output schema',
            );
            return fail({
              type: 'TOOL_EXECUTION_ERROR',
              message: 'the tool result does not match its output schema',
              details: { validation_errors: toValidationIssues(checked.error) },
            });
          }
        }
        return {
          status: 'success',
          tool_id: p.tool_id,
          data,
          output_files: outputFiles,
          duration_ms: performance.now() - started,
        };
      } catch (err) {
        if (err instanceof TimeoutSignal) {
          const seconds = Math.round(timeoutMs / 1000);
          return fail({
            type: 'TOOL_TIMEOUT',
            message: `tool ${p.tool_id} exceeded its timeout of ${seconds} seconds`,
            details: { timeout_seconds: seconds },
          });
        }
        if (err instanceof DrainSignal)
          return fail({
            type: 'TOOL_UNAVAILABLE',
            message: `${err.message}; it may be run again`,
            details: 'draining',
          });
        if (err instanceof CancelSignal)
          return fail({ type: 'CANCELLED', message: `call cancelled: ${err.message}`, details: err.message });
        if (err instanceof InvalidArgumentsError) return refuse(err.issues());
        if (err instanceof ToolUnavailableError)
          return fail({ type: 'TOOL_UNAVAILABLE', message: err.message, details: err.details });
        if (err instanceof ToolError)
          return fail({ type: 'TOOL_EXECUTION_ERROR', message: err.message, details: err.details });
        infra.log.error({ err, tool: p.tool_id }, 'tool_handler_failed');
        return fail({
          type: 'TOOL_EXECUTION_ERROR',
          message: `tool ${p.tool_id} failed: ${(err as Error).message}`,
          details: String((err as Error).message),
        });
      } finally {
        clearTimeout(timer);
        running.delete(p.call_id);
      }
    }

    return {
      name: `adapters.${def.id}`,
      actions: {
        manifest: action(acts.manifest, () => ({
          adapter_id: def.id,
          version: def.version,
          capability: def.capability,
          tools: announced,
        })),
        health: action(acts.health, async (): Promise<AdapterHealthReport> => {
          const h = await engineStatus({ stale: true });
          const unavailable = (h.unavailable ?? []).filter((n) => tools.has(`${def.id}.${n}`));
          return {
            adapter_id: def.id,
            status: h.status,
            version: def.version,
            tools_available: h.status === 'unhealthy' ? 0 : announced.length - unavailable.length,
            uptime_seconds: (Date.now() - startedAt) / 1000,
            last_invocation: lastInvocation,
            ...(h.message ? { message: h.message } : {}),
            ...(unavailable.length ? { unavailable_tools: unavailable.map((n) => `${def.id}.${n}`) } : {}),
          };
        }),
        invoke: action(acts.invoke, (p, ctx) => invoke(p, ctx), { strategy: LEAST_IN_FLIGHT_STRATEGY }),
      },
      events: {
        [TOOLCALL_CANCEL_EVENT](ctx: Context) {
          const msg = ToolcallCancelSchema.safeParse(ctx.params);
          if (!msg.success) return;
          running.get(msg.data.call_id)?.abort(new CancelSignal(msg.data.reason ?? 'cancelled by the client'));
        },
      },
      methods: {
        /** The node's drain on SIGTERM (brokers/drain.ts `Drainable`). */
        async drainCalls(timeoutMs: number): Promise<DrainReport> {
          return { adapter: def.id, ...(await running.drain(timeoutMs)) };
        },
      },
      created() {
        const broker = this.broker;
        backlog = createBacklog({
          adapterId: def.id,
          nodeId: broker.nodeID,
          limit: def.concurrency?.(infra) ?? null,
          registry: infra.metrics.registry,
          // A draining node offers no slots (issue 20): it stops publishing, so callers' boards do not hand it calls.
          onChange: (load) =>
            void (running.draining ? undefined : broker.broadcast(ADAPTER_LOAD_EVENT, load).catch(() => undefined)),
        });
      },
      started() {
        void this.broker.broadcast(ADAPTER_LOAD_EVENT, backlog!.load()).catch(() => undefined);
      },
    };
  };
}

/** Abort reasons: a deadline, or the client's cancellation. */
class TimeoutSignal extends Error {}
class CancelSignal extends Error {}
