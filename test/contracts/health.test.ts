import { describe, expect, it } from 'vitest';
import {
  ComponentHealthSchema,
  HealthClientSchema,
  HarnessWritesHealthSchema,
  HealthRollupSchema,
  LlmUsage24hSchema,
  LlmUsageAvailableSchema,
  LlmUsageUnavailableSchema,
  ModelRoutingHealthSchema,
  ProtocolSkewSchema,
  RollupAdapterSchema,
  TransportAuthSchema,
} from '../../contracts/health.ts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

const bucket = {
  tokens: { prompt: 100, completion: 20, cached_input: 0 },
  cost_usd: 0.01,
  calls: 2,
  calls_without_usage: 0,
  calls_unpriced: 0,
  calls_subscription: 0,
  billing: 'metered',
};
const usage = { available: true, ...bucket, by_phase: {}, by_role: { chat: bucket }, by_model: {} };

const rollup = {
  service: 'service',
  status: 'degraded',
  version: '0.1.0',
  uptime_seconds: 12,
  adapter_count: 2,
  tool_count: 17,
  adapters: [
    { adapter_id: 'solver', version: '0.1.0', tools_registered: 9, reachable: false, error: 'connect ECONNREFUSED' },
    { adapter_id: 'eda', version: '0.1.0', tools_registered: 8, reachable: true },
  ],
  unreachable_adapters: ['solver'],
  detail: '1 adapter unreachable',
  auth: 'open',
  client: {
    can_elicit: true,
    name: 'claude-code',
    version: '1.0',
    protocol_skew: { requested: '2025-03-26', pinned: '2025-06-18' },
  },
  llm_usage_24h: usage,
  model_routing: { status: 'ok', problems: [] },
  components: [{ name: 'db', status: 'healthy', latency_ms: 1.2, message: null }],
};

describe('ComponentHealthSchema', () => {
  it('accepts {name, status, latency_ms, message}', () => {
    expect(
      ok(ComponentHealthSchema, { name: 'projects', status: 'unhealthy', latency_ms: null, message: 'down' }),
    ).toBe(true);
  });
  it('rejects an unknown status and a negative latency', () => {
    expect(ok(ComponentHealthSchema, { name: 'db', status: 'ok', latency_ms: 1, message: '' })).toBe(false);
    expect(ok(ComponentHealthSchema, { name: 'db', status: 'healthy', latency_ms: -1, message: '' })).toBe(false);
  });
});

describe('RollupAdapterSchema', () => {
  it('accepts an adapter with or without error', () => {
    expect(ok(RollupAdapterSchema, rollup.adapters[0])).toBe(true);
    expect(ok(RollupAdapterSchema, rollup.adapters[1])).toBe(true);
  });
  it('rejects a missing reachable flag', () => {
    expect(ok(RollupAdapterSchema, { adapter_id: 'a', version: '1', tools_registered: 1 })).toBe(false);
  });
});

describe('TransportAuthSchema', () => {
  it('accepts the five spec values', () => {
    expect(TransportAuthSchema.options).toEqual(['open', 'api_key', 'oauth', 'api_key+oauth', 'unknown']);
  });
  it('rejects another value', () => {
    expect(ok(TransportAuthSchema, 'bearer')).toBe(false);
  });
});

describe('HealthClientSchema and ProtocolSkewSchema', () => {
  it('keep clientInfo fields as sent', () => {
    expect(HealthClientSchema.parse({ can_elicit: false, name: 'x', title: 'X client' })).toEqual({
      can_elicit: false,
      name: 'x',
      title: 'X client',
    });
    expect(ok(ProtocolSkewSchema, { requested: 'a', pinned: 'b' })).toBe(true);
  });
  it('reject a missing can_elicit and an incomplete skew', () => {
    expect(ok(HealthClientSchema, { name: 'x' })).toBe(false);
    expect(ok(ProtocolSkewSchema, { requested: 'a' })).toBe(false);
  });
});

describe('LlmUsage24hSchema', () => {
  it('accepts usage when available and a reason when not', () => {
    expect(ok(LlmUsage24hSchema, usage)).toBe(true);
    expect(ok(LlmUsageAvailableSchema, usage)).toBe(true);
    expect(ok(LlmUsage24hSchema, { available: false, reason: 'usage store unreadable' })).toBe(true);
    expect(ok(LlmUsageUnavailableSchema, { available: false, reason: 'x' })).toBe(true);
  });
  it('rejects available false without reason and available true without totals', () => {
    expect(ok(LlmUsage24hSchema, { available: false })).toBe(false);
    expect(ok(LlmUsage24hSchema, { available: true, reason: 'x' })).toBe(false);
  });
});

describe('ModelRoutingHealthSchema', () => {
  it('accepts {status, problems}', () => {
    expect(ok(ModelRoutingHealthSchema, { status: 'invalid', problems: ['route chat: unknown provider'] })).toBe(true);
  });
  it('rejects problems that are not a list', () => {
    expect(ok(ModelRoutingHealthSchema, { status: 'ok', problems: 'none' })).toBe(false);
  });
});

describe('HarnessWritesHealthSchema', () => {
  it('accepts the three states with their detail', () => {
    for (const status of ['open', 'admin_token', 'closed'])
      expect(ok(HarnessWritesHealthSchema, { status, detail: 'SERVICE_HARNESS_ADMIN_TOKEN is unset' })).toBe(true);
  });
  it('rejects another state and a missing detail', () => {
    expect(ok(HarnessWritesHealthSchema, { status: 'locked', detail: 'x' })).toBe(false);
    expect(ok(HarnessWritesHealthSchema, { status: 'closed' })).toBe(false);
  });
});

describe('HealthRollupSchema', () => {
  it('accepts a degraded roll-up with every field', () => {
    expect(HealthRollupSchema.parse(rollup)).toEqual(rollup);
  });
  it('accepts a healthy roll-up without the optional fields', () => {
    const { unreachable_adapters: _u, detail: _d, components: _c, ...healthy } = rollup;
    expect(ok(HealthRollupSchema, { ...healthy, status: 'healthy', adapters: [rollup.adapters[1]] })).toBe(true);
  });
  it('rejects status unhealthy, an unknown auth and a missing client', () => {
    expect(ok(HealthRollupSchema, { ...rollup, status: 'unhealthy' })).toBe(false);
    expect(ok(HealthRollupSchema, { ...rollup, auth: 'none' })).toBe(false);
    const { client: _c, ...noClient } = rollup;
    expect(ok(HealthRollupSchema, noClient)).toBe(false);
  });
});
