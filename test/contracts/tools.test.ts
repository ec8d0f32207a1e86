import { describe, expect, it } from 'vitest';
import {
  AdapterConfigSchema,
  AdapterHealthSchema,
  AdapterHealthStatusSchema,
  HeldCallErrorDataSchema,
  JsonRpcIdSchema,
  JsonRpcNotificationSchema,
  JsonRpcRequestSchema,
  LegacyErrorDataSchema,
  LegacyErrorTypeSchema,
  McpToolCallResultSchema,
  ResourceLimitsSchema,
  TextContentSchema,
  ToolAnnotationsSchema,
  ToolCallRequestSchema,
  ToolCallResultSchema,
  ToolContentSchema,
  ToolErrorMetaSchema,
  ToolIdSchema,
  ToolManifestSchema,
  ToolProgressSchema,
  UnknownToolErrorDataSchema,
} from '../../contracts/tools.ts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

describe('ToolIdSchema', () => {
  it('accepts the canonical <adapter_id>.<method_name>', () => {
    expect(ok(ToolIdSchema, 'twin.get_node')).toBe(true);
  });
  it('rejects separator aliases and bare names', () => {
    expect(ok(ToolIdSchema, 'twin_get_node')).toBe(false);
    expect(ok(ToolIdSchema, 'twin/get_node')).toBe(false);
  });
});

describe('ToolCallRequestSchema', () => {
  it('fills arguments {} and timeout_seconds 120', () => {
    expect(ToolCallRequestSchema.parse({ tool_id: 'solver.run_fea' })).toEqual({
      tool_id: 'solver.run_fea',
      arguments: {},
      timeout_seconds: 120,
    });
  });
  it('accepts an alias tool id and a null trace_id', () => {
    expect(ok(ToolCallRequestSchema, { tool_id: 'twin_get_node', trace_id: null, timeout_seconds: 3600 })).toBe(true);
  });
  it('rejects timeouts outside 1..3600, a fractional timeout and array arguments', () => {
    expect(ok(ToolCallRequestSchema, { tool_id: 't.x', timeout_seconds: 0 })).toBe(false);
    expect(ok(ToolCallRequestSchema, { tool_id: 't.x', timeout_seconds: 3601 })).toBe(false);
    expect(ok(ToolCallRequestSchema, { tool_id: 't.x', timeout_seconds: 1.5 })).toBe(false);
    expect(ok(ToolCallRequestSchema, { tool_id: 't.x', arguments: [] })).toBe(false);
    expect(ok(ToolCallRequestSchema, { arguments: {} })).toBe(false);
  });
});

describe('ToolCallResultSchema', () => {
  const result = {
    tool_id: 'solver.run_fea',
    status: 'success',
    data: { x: 1 },
    duration_ms: 12.5,
    output_files: ['a.frd'],
  };
  it('accepts the legacy result', () => {
    expect(ToolCallResultSchema.parse(result)).toEqual(result);
  });
  it('rejects an unknown status and missing output_files', () => {
    expect(ok(ToolCallResultSchema, { ...result, status: 'ok' })).toBe(false);
    const { output_files: _o, ...rest } = result;
    expect(ok(ToolCallResultSchema, rest)).toBe(false);
  });
});

describe('ResourceLimitsSchema', () => {
  it('defaults to 1024 MB, 300 CPU s, 256 MB disk', () => {
    expect(ResourceLimitsSchema.parse({})).toEqual({ max_memory_mb: 1024, max_cpu_seconds: 300, max_disk_mb: 256 });
  });
  it('rejects zero or non-integer limits', () => {
    expect(ok(ResourceLimitsSchema, { max_memory_mb: 0 })).toBe(false);
    expect(ok(ResourceLimitsSchema, { max_disk_mb: 1.5 })).toBe(false);
  });
});

describe('ToolManifestSchema', () => {
  const manifest = {
    tool_id: 'solver.run_fea',
    adapter_id: 'solver',
    name: 'run_fea',
    description: 'Run a static or modal analysis',
    capability: 'fea',
    input_schema: { type: 'object' },
  };
  it('fills phase 1 and the default resource limits', () => {
    const parsed = ToolManifestSchema.parse(manifest);
    expect(parsed.phase).toBe(1);
    expect(parsed.resource_limits).toEqual({ max_memory_mb: 1024, max_cpu_seconds: 300, max_disk_mb: 256 });
  });
  it('rejects phase 0, a non-canonical tool_id and a missing input_schema', () => {
    expect(ok(ToolManifestSchema, { ...manifest, phase: 0 })).toBe(false);
    expect(ok(ToolManifestSchema, { ...manifest, tool_id: 'run_fea' })).toBe(false);
    const { input_schema: _i, ...rest } = manifest;
    expect(ok(ToolManifestSchema, rest)).toBe(false);
  });
});

describe('ToolProgressSchema', () => {
  it('accepts progress between 0 and 1', () => {
    expect(ok(ToolProgressSchema, { request_id: 'r1', progress: 0, message: 'start' })).toBe(true);
    expect(ok(ToolProgressSchema, { request_id: 'r1', progress: 1, message: 'done' })).toBe(true);
  });
  it('rejects progress above 1 or below 0', () => {
    expect(ok(ToolProgressSchema, { request_id: 'r1', progress: 1.01, message: '' })).toBe(false);
    expect(ok(ToolProgressSchema, { request_id: 'r1', progress: -0.1, message: '' })).toBe(false);
  });
});

describe('AdapterHealthSchema', () => {
  const health = {
    adapter_id: 'solver',
    status: 'healthy',
    version: '0.1.0',
    tools_available: 9,
    uptime_seconds: 12.5,
    last_invocation: null,
  };
  it('accepts the spec shape with a null or ISO last_invocation', () => {
    expect(ok(AdapterHealthSchema, health)).toBe(true);
    expect(ok(AdapterHealthSchema, { ...health, last_invocation: '2025-01-01T10:00:00Z' })).toBe(true);
    expect(AdapterHealthStatusSchema.options).toEqual(['healthy', 'degraded', 'unhealthy']);
  });
  it('rejects an unknown status and a non-datetime last_invocation', () => {
    expect(ok(AdapterHealthSchema, { ...health, status: 'down' })).toBe(false);
    expect(ok(AdapterHealthSchema, { ...health, last_invocation: 'yesterday' })).toBe(false);
  });
});

describe('AdapterConfigSchema', () => {
  it('fills the spec defaults', () => {
    expect(AdapterConfigSchema.parse({ adapter_id: 'solver', image: 'solver:1' })).toEqual({
      adapter_id: 'solver',
      image: 'solver:1',
      transport: 'stdio',
      host: 'localhost',
      port: 8080,
      workspace_mount: '/workspace',
      resource_limits: { max_memory_mb: 1024, max_cpu_seconds: 300, max_disk_mb: 256 },
      health_interval_seconds: 30,
    });
  });
  it('rejects an unknown transport, a port out of range and a non-string env value', () => {
    expect(ok(AdapterConfigSchema, { adapter_id: 'a', image: 'i', transport: 'sse' })).toBe(false);
    expect(ok(AdapterConfigSchema, { adapter_id: 'a', image: 'i', port: 70000 })).toBe(false);
    expect(ok(AdapterConfigSchema, { adapter_id: 'a', image: 'i', environment: { N: 1 } })).toBe(false);
  });
});

describe('ToolAnnotationsSchema', () => {
  it('gives an unclassified tool readOnlyHint false and destructiveHint true', () => {
    const parsed = ToolAnnotationsSchema.parse({});
    expect(parsed.readOnlyHint).toBe(false);
    expect(parsed.destructiveHint).toBe(true);
    expect(parsed).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
  });
  it('rejects a non-boolean hint', () => {
    expect(ok(ToolAnnotationsSchema, { readOnlyHint: 'true' })).toBe(false);
  });
});

describe('McpToolCallResultSchema', () => {
  const refused = {
    content: [{ type: 'text', text: 'mesh file not found' }],
    isError: true,
    _meta: { callId: 'c1', error: { toolId: 'solver.run_fea', details: 'mesh file not found', durationMs: 3 } },
  };
  it('accepts a refusing tool result and a plain success', () => {
    expect(McpToolCallResultSchema.parse(refused)).toEqual(refused);
    expect(ok(McpToolCallResultSchema, { content: [], structuredContent: { x: 1 } })).toBe(true);
    expect(ok(TextContentSchema, { type: 'text', text: 'x' })).toBe(true);
    expect(ok(ToolContentSchema, { type: 'image', data: 'AAAA', mimeType: 'image/png' })).toBe(true);
    expect(ok(ToolErrorMetaSchema, { toolId: 't.x', details: { a: 1 }, durationMs: 0 })).toBe(true);
  });
  it('rejects a text item without text, an unknown content type, a missing content and a bad _meta.error', () => {
    expect(ok(McpToolCallResultSchema, { content: [{ type: 'text' }] })).toBe(false);
    expect(ok(ToolContentSchema, { type: 'video' })).toBe(false);
    expect(ok(McpToolCallResultSchema, { isError: true })).toBe(false);
    expect(ok(McpToolCallResultSchema, { content: [], _meta: { error: { toolId: 't.x' } } })).toBe(false);
    expect(ok(ToolErrorMetaSchema, { toolId: 't.x', details: 'x', durationMs: -1 })).toBe(false);
  });
});

describe('HeldCallErrorDataSchema', () => {
  it('accepts the minimal and the full data', () => {
    expect(
      ok(HeldCallErrorDataSchema, {
        tool_id: 'twin.record_document',
        code: 'approval_required',
        outcome: 'timed_out',
        retryable: false,
      }),
    ).toBe(true);
    const full = {
      tool_id: 'twin.record_document',
      code: 'approval_required',
      outcome: 'rejected',
      retryable: false,
      approval_id: 'tool:12',
      route: 'elicitation',
      where: 'in the client',
      held_seconds: 42,
      window_seconds: 100,
    };
    expect(HeldCallErrorDataSchema.parse(full)).toEqual(full);
  });
  it('rejects retryable true, another code and an unknown outcome', () => {
    const base = { tool_id: 't.x', code: 'approval_required', outcome: 'rejected', retryable: false };
    expect(ok(HeldCallErrorDataSchema, { ...base, retryable: true })).toBe(false);
    expect(ok(HeldCallErrorDataSchema, { ...base, code: 'denied' })).toBe(false);
    expect(ok(HeldCallErrorDataSchema, { ...base, outcome: 'expired' })).toBe(false);
  });
});

describe('UnknownToolErrorDataSchema', () => {
  it('accepts {tool_id, did_you_mean, tool_count}', () => {
    expect(
      ok(UnknownToolErrorDataSchema, { tool_id: 'twin.get_nod', did_you_mean: ['twin.get_node'], tool_count: 97 }),
    ).toBe(true);
  });
  it('rejects a string did_you_mean and a missing tool_count', () => {
    expect(ok(UnknownToolErrorDataSchema, { tool_id: 'x', did_you_mean: 'twin.get_node', tool_count: 97 })).toBe(false);
    expect(ok(UnknownToolErrorDataSchema, { tool_id: 'x', did_you_mean: [] })).toBe(false);
  });
});

describe('LegacyErrorDataSchema', () => {
  it('accepts each error_type', () => {
    for (const error_type of LegacyErrorTypeSchema.options) {
      expect(ok(LegacyErrorDataSchema, { error_type, tool_id: 't.x', details: 'boom', duration_ms: 5 })).toBe(true);
    }
  });
  it('rejects an error_type outside the three and a missing duration_ms', () => {
    expect(
      ok(LegacyErrorDataSchema, { error_type: 'INTERNAL_ERROR', tool_id: 't.x', details: '', duration_ms: 0 }),
    ).toBe(false);
    expect(ok(LegacyErrorDataSchema, { error_type: 'TOOL_TIMEOUT', tool_id: 't.x', details: '' })).toBe(false);
  });
});

describe('JsonRpcRequestSchema and JsonRpcNotificationSchema', () => {
  it('accept the envelope with a string or integer id, params optional', () => {
    expect(ok(JsonRpcRequestSchema, { jsonrpc: '2.0', id: 'a1', method: 'tools/list', params: {} })).toBe(true);
    expect(ok(JsonRpcRequestSchema, { jsonrpc: '2.0', id: 1, method: 'health/check' })).toBe(true);
    expect(
      ok(JsonRpcNotificationSchema, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
    ).toBe(true);
    expect(ok(JsonRpcIdSchema, 'x')).toBe(true);
  });
  it('reject another jsonrpc version, a missing id or method and array params', () => {
    expect(ok(JsonRpcRequestSchema, { jsonrpc: '1.0', id: '1', method: 'x' })).toBe(false);
    expect(ok(JsonRpcRequestSchema, { jsonrpc: '2.0', method: 'x' })).toBe(false);
    expect(ok(JsonRpcRequestSchema, { jsonrpc: '2.0', id: '1', params: {} })).toBe(false);
    expect(ok(JsonRpcRequestSchema, { jsonrpc: '2.0', id: '1', method: 'x', params: [1] })).toBe(false);
    expect(ok(JsonRpcNotificationSchema, { jsonrpc: '2.0' })).toBe(false);
    expect(ok(JsonRpcIdSchema, 1.5)).toBe(false);
  });
});
