import crypto from 'node:crypto';
import type { JSONRPCServer } from 'json-rpc-2.0';
import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { ToolsActions } from '../../../contracts/actions/tools.actions.ts';
import type { Caller } from '../../../contracts/actions/adapters.actions.ts';
import { PROFILE_NAMES } from '../../../contracts/profiles.ts';
import { principalHas } from '../../../contracts/principal.ts';
import { listedToolScope } from '../../auth/scopes.ts';
import type { McpDeps, McpRequestContext } from '../context.ts';
import { decisionElicitation } from '../elicitation-policy.ts';
import { rpcError } from '../errors.ts';
import { InflightCalls } from '../inflight.ts';
import { parseParams } from '../params.ts';
import { toLegacyResult, toManifest, toMcpResult, toMcpTool } from './tool-results.ts';

const ListParams = z.looseObject({ capability: z.string().optional(), cursor: z.string().optional() });
const McpCallParams = z.looseObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
  _meta: z.looseObject({ progressToken: z.union([z.string(), z.number()]).optional() }).optional(),
});
const LegacyCallParams = z.looseObject({
  tool_id: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
  timeout_seconds: z.number().int().min(1).max(3600).default(120),
  trace_id: z.string().nullable().optional(),
});

function profileOf(ctx: McpRequestContext, deps: McpDeps): string | undefined {
  const profile = ctx.profile ?? deps.defaultProfile;
  if (profile && !PROFILE_NAMES.includes(profile)) {
    throw rpcError('INVALID_PARAMS', `unknown profile ${profile}; valid profiles: ${PROFILE_NAMES.join(', ')}`, {
      profile,
      valid: PROFILE_NAMES,
    });
  }
  return profile;
}

function callerOf(ctx: McpRequestContext, deps: McpDeps): Caller {
  const decisions =
    deps.elicitation && decisionElicitation(deps.elicitation, ctx.session, ctx.transport, ctx.principal);
  return {
    kind: ctx.transport === 'stdio' ? 'stdio' : 'remote',
    transport: ctx.transport,
    session_id: ctx.session?.id,
    client: ctx.session?.client_info.name,
    ...(ctx.session?.can_elicit ? { can_elicit: true } : {}),
    ...(decisions ? { decision_elicitation: decisions } : {}),
    ...(ctx.principal ? { principal: ctx.principal } : {}),
  };
}

/** `_meta` of a listing: present only when there is something to report (SPEC "Tool server wire endpoints"). */
function listingMeta(unavailable: string[], missing: string[], profile?: string) {
  const meta: Record<string, unknown> = {};
  if (unavailable.length) meta.unavailableAdapters = unavailable;
  if (missing.length) meta.profile = { name: profile, missing };
  return Object.keys(meta).length ? { _meta: meta } : {};
}

/** `tools/list`, `tool/list`, `tools/call`, `tool/call`: the registry's answers in each dialect. */
export function addToolMethods(server: JSONRPCServer<McpRequestContext>, deps: McpDeps): void {
  const list = async (params: unknown, ctx: McpRequestContext, method: string) => {
    const p = parseParams(ListParams, params, method);
    const profile = profileOf(ctx, deps);
    const res = await call(deps.bus, ToolsActions.list, { profile, capability: p.capability });
    // A token sees only the tools it may call (decision 0111): read-only ones with mcp:read, the others with mcp:write.
    const principal = ctx.principal;
    if (principal) res.tools = res.tools.filter((t) => principalHas(principal, listedToolScope(t.annotations)));
    return { res, meta: listingMeta(res.unavailable_adapters, res.profile_missing, profile) };
  };

  server.addMethod('tools/list', async (params, ctx) => {
    const { res, meta } = await list(params, ctx, 'tools/list');
    return { tools: res.tools.map(toMcpTool), ...meta };
  });

  server.addMethod('tool/list', async (params, ctx) => {
    const { res, meta } = await list(params, ctx, 'tool/list');
    return { tools: res.tools.map(toManifest), ...meta };
  });

  const run = async (
    ctx: McpRequestContext,
    dialect: 'mcp' | 'legacy',
    name: string,
    args: Record<string, unknown>,
    timeout: number,
    token?: string | number,
  ) => {
    const callId = `call_${crypto.randomUUID()}`;
    const requestId = ctx.requestId ?? callId;
    const caller = callerOf(ctx, deps);
    const done = deps.inflight.add({
      callId,
      requestKey: InflightCalls.key(ctx.sessionKey, requestId),
      dialect,
      requestId,
      progressToken: token,
      logLevel: ctx.session?.log_level ?? 'info',
      out: ctx.out,
      lastProgress: 0,
      cancelled: false,
      canElicit: ctx.session?.can_elicit ?? false,
      asksDecisions: caller.decision_elicitation !== undefined,
    });
    ctx.out.onClose?.(() => deps.callClosed?.(callId));
    try {
      const outcome = await call(
        deps.bus,
        ToolsActions.call,
        {
          name,
          arguments: args,
          timeout_seconds: timeout,
          call_id: callId,
          caller,
          progress_node: deps.nodeID,
          has_progress: token !== undefined,
        },
        { timeout: (timeout + (deps.holdMaxSeconds ?? 0)) * 1000 + 10_000 },
      );
      return { outcome, callId };
    } finally {
      done();
    }
  };

  server.addMethod('tools/call', async (params, ctx) => {
    const p = parseParams(McpCallParams, params, 'tools/call');
    const { outcome, callId } = await run(ctx, 'mcp', p.name, p.arguments, 120, p._meta?.progressToken);
    return toMcpResult(outcome, callId);
  });

  server.addMethod('tool/call', async (params, ctx) => {
    const p = parseParams(LegacyCallParams, params, 'tool/call');
    const { outcome } = await run(ctx, 'legacy', p.tool_id, p.arguments, p.timeout_seconds);
    return toLegacyResult(outcome);
  });
}
