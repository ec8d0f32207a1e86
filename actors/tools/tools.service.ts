import type { Context, ServiceSchema } from 'moleculer';
import { action, call } from '../../brokers/actions.ts';
import type { Infra } from '../../brokers/infra.ts';
import {
  adapterActions,
  ToolcallCancelSchema,
  TOOLCALL_CANCEL_EVENT,
} from '../../contracts/actions/adapters.actions.ts';
import { ToolsActions as T, type ToolCallParams } from '../../contracts/actions/tools.actions.ts';
import type { RollupAdapter } from '../../contracts/health.ts';
import { TOOL_CATALOGUE } from '../../contracts/tool-catalogue.ts';
import { invalidArguments, toolFailed, toolNotFound, type ToolResult } from '../../contracts/tool-result.ts';
import { ArgValidator } from './arg-validator.ts';
import { cancelWaitingCall, dispatch } from './dispatch.ts';
import { gateHeldCall } from './hold-gate.ts';
import { decideHold } from './hold-policy.ts';
import { ToolRegistry } from './registry.ts';

const ADAPTER_PREFIX = 'adapters.';
/** SPEC Limits: adapter roll-up health probe, 3 s per adapter. */
const HEALTH_PROBE_MS = 3000;

/**
 * The `tools` actor: the tool registry. Follows adapter actors joining and leaving the bus, resolves ids and aliases,
 * validates arguments against each tool's input_schema, asks the hold policy, and dispatches to `adapters.<id>.invoke`.
 */
export function createToolsService(infra: Infra): ServiceSchema {
  const registry = new ToolRegistry();
  const validator = new ArgValidator();
  let refreshing: Promise<void> | undefined;
  let stale = true;

  async function refresh(caller: Pick<Context, 'call'>, broker: Context['broker']): Promise<void> {
    const services = broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }) as { name: string }[];
    const onBus = new Set(
      services.filter((s) => s.name.startsWith(ADAPTER_PREFIX)).map((s) => s.name.slice(ADAPTER_PREFIX.length)),
    );
    await Promise.all(
      [...onBus]
        .filter((id) => !registry.isKnown(id))
        .map(async (id) => {
          try {
            registry.upsert(
              await call(caller, adapterActions(id).manifest, {}, { timeout: HEALTH_PROBE_MS, retries: 1 }),
            );
          } catch (err) {
            onBus.delete(id);
            infra.log.warn({ adapter: id, err: (err as Error).message }, 'adapter manifest not readable');
          }
        }),
    );
    registry.setAvailable(onBus);
  }

  async function fresh(ctx: Context): Promise<void> {
    if (!stale && !refreshing) return;
    refreshing ??= refresh(ctx, ctx.broker).finally(() => {
      refreshing = undefined;
    });
    stale = false;
    await refreshing;
  }

  async function callTool(p: ToolCallParams, ctx: Context): Promise<ToolResult> {
    await fresh(ctx);
    const res = registry.resolve(p.name);
    if (res.kind === 'unknown') return toolNotFound(p.name, res.didYouMean, registry.toolCount);
    if (res.kind === 'ambiguous') return toolNotFound(p.name, res.matches, registry.toolCount, res.matches);
    const tool = registry.tool(res.id)!;
    if (!registry.isAvailable(tool.adapter_id)) {
      const message = `adapter ${tool.adapter_id} is unavailable: it is not on the bus`;
      return toolFailed(tool.tool_id, { type: 'TOOL_UNAVAILABLE', message, details: message });
    }
    const checked = validator.check(tool.input_schema, p.arguments);
    if (!checked.ok) return invalidArguments(tool.tool_id, checked.issues);

    const hold = decideHold(
      tool.tool_id,
      tool.annotations,
      TOOL_CATALOGUE.get(tool.tool_id),
      p.caller,
      { exemptLocalWrites: infra.config.SERVICE_EXEMPT_LOCAL_WRITES },
      checked.args,
    );
    if (hold.kind === 'refuse')
      return toolFailed(tool.tool_id, { type: 'REFUSED', message: hold.reason, details: hold.reason });
    if (hold.kind === 'hold') {
      const unapproved = await gateHeldCall(ctx, infra, tool.tool_id, p, hold.reason);
      if (unapproved) return unapproved;
    }
    // The held call was shown with the caller's own arguments; the tool runs with the checked ones (defaults filled in).
    return dispatch(ctx, tool, { ...p, name: tool.tool_id, arguments: checked.args });
  }

  async function probeAdapter(ctx: Context, id: string): Promise<RollupAdapter> {
    const manifest = registry.manifestOf(id)!;
    const base = { adapter_id: id, version: manifest.version, tools_registered: manifest.tools.length };
    if (!registry.isAvailable(id)) return { ...base, reachable: false, error: 'not on the bus' };
    try {
      const h = await call(ctx, adapterActions(id).health, {}, { timeout: HEALTH_PROBE_MS, retries: 0 });
      if (h.status === 'unhealthy') return { ...base, reachable: false, error: h.message ?? 'unhealthy' };
      return { ...base, reachable: true };
    } catch (err) {
      return { ...base, reachable: false, error: `health probe failed: ${(err as Error).message}` };
    }
  }

  return {
    name: 'tools',

    actions: {
      list: action(T.list, async (p, ctx) => {
        await fresh(ctx);
        const l = registry.list(p);
        return { tools: l.tools, unavailable_adapters: l.unavailableAdapters, profile_missing: l.profileMissing };
      }),
      call: action(T.call, (p, ctx) => callTool(p, ctx)),
      search: action(T.search, async (p, ctx) => {
        await fresh(ctx);
        return { tools: registry.search(p.query, p.limit) };
      }),
      adapters: action(T.adapters, async (_p, ctx) => {
        await fresh(ctx);
        const adapters = await Promise.all(registry.adapterIds().map((id) => probeAdapter(ctx, id)));
        return { adapters, tool_count: registry.toolCount };
      }),
    },

    events: {
      '$services.changed'() {
        stale = true;
      },
      /** A client's cancel: a call waiting here for a free adapter slot answers CANCELLED and is never sent. */
      [TOOLCALL_CANCEL_EVENT](ctx: Context) {
        const msg = ToolcallCancelSchema.safeParse(ctx.params);
        if (msg.success) cancelWaitingCall(msg.data.call_id, msg.data.reason ?? 'cancelled by the client');
      },
    },

    async started() {
      await refresh(this.broker, this.broker as unknown as Context['broker']);
    },
  };
}
