import { describe, expect, it } from 'vitest';
import { invalidArguments, toolFailed, toolNotFound, type ToolResult } from '../../../contracts/tool-result.ts';
import { toLegacyResult, toMcpResult } from '../../../gateway/mcp/methods/tool-results.ts';

// ISSUE 13 point 3: the one renderer of a ToolResult in both dialects. Each expected line is the exact JSON the
// renderer produced for the same call before the tool-result model was unified (ToolCallOutcome): the wire is unchanged.
const CASES: [ToolResult, string][] = [
  [
    { status: 'success', tool_id: 'x.t', data: { a: 1 }, output_files: ['f'], duration_ms: 3 },
    '{"mcp":{"ok":{"content":[{"type":"text","text":"{\\"a\\":1}"}],"structuredContent":{"a":1},"_meta":{"callId":"c1"}}},"legacy":{"ok":{"tool_id":"x.t","status":"success","data":{"a":1},"duration_ms":3,"output_files":["f"]}}}',
  ],
  [
    {
      status: 'success',
      tool_id: 'x.t',
      data: { _content: [{ type: 'text', text: 'hi' }], n: 2 },
      output_files: [],
      duration_ms: 3,
    },
    '{"mcp":{"ok":{"content":[{"type":"text","text":"hi"}],"structuredContent":{"n":2},"_meta":{"callId":"c1"}}},"legacy":{"ok":{"tool_id":"x.t","status":"success","data":{"_content":[{"type":"text","text":"hi"}],"n":2},"duration_ms":3,"output_files":[]}}}',
  ],
  [
    toolFailed('x.t', { type: 'TOOL_EXECUTION_ERROR', message: 'boom', details: 'boom' }, 4),
    '{"mcp":{"ok":{"content":[{"type":"text","text":"boom"}],"isError":true,"_meta":{"callId":"c1","error":{"toolId":"x.t","type":"TOOL_EXECUTION_ERROR","details":"boom","durationMs":4}}}},"legacy":{"err":{"code":-32001,"message":"Tool execution failed","data":{"error_type":"TOOL_EXECUTION_ERROR","tool_id":"x.t","details":"boom","duration_ms":4}}}}',
  ],
  [
    toolFailed('x.t', { type: 'TOOL_EXECUTION_ERROR', message: 'boom', details: 'why' }, 4),
    '{"mcp":{"ok":{"content":[{"type":"text","text":"boom"}],"isError":true,"_meta":{"callId":"c1","error":{"toolId":"x.t","type":"TOOL_EXECUTION_ERROR","details":"why","durationMs":4}}}},"legacy":{"err":{"code":-32001,"message":"Tool execution failed","data":{"error_type":"TOOL_EXECUTION_ERROR","tool_id":"x.t","details":"boom: why","duration_ms":4}}}}',
  ],
  [
    toolFailed('x.t', { type: 'TOOL_EXECUTION_ERROR', message: 'boom', details: { code: 'NOT_FOUND', id: 'p' } }, 4),
    '{"mcp":{"ok":{"content":[{"type":"text","text":"boom"}],"isError":true,"_meta":{"callId":"c1","error":{"toolId":"x.t","type":"TOOL_EXECUTION_ERROR","details":{"code":"NOT_FOUND","id":"p"},"durationMs":4}}}},"legacy":{"err":{"code":-32001,"message":"Tool execution failed","data":{"error_type":"TOOL_EXECUTION_ERROR","tool_id":"x.t","details":{"message":"boom","code":"NOT_FOUND","id":"p"},"duration_ms":4}}}}',
  ],
  [
    toolFailed(
      'x.t',
      { type: 'TOOL_TIMEOUT', message: 'tool x.t exceeded its timeout of 2 seconds', details: { timeout_seconds: 2 } },
      5,
    ),
    '{"mcp":{"ok":{"content":[{"type":"text","text":"tool x.t exceeded its timeout of 2 seconds"}],"isError":true,"_meta":{"callId":"c1","error":{"toolId":"x.t","type":"TOOL_TIMEOUT","details":{"timeout_seconds":2},"durationMs":5}}}},"legacy":{"err":{"code":-32006,"message":"tool x.t exceeded its timeout of 2 seconds","data":{"error_type":"TOOL_TIMEOUT","tool_id":"x.t","details":{"timeout_seconds":2},"duration_ms":5}}}}',
  ],
  [
    toolFailed('x.t', { type: 'CANCELLED', message: 'call cancelled: bye', details: 'bye' }, 5),
    '{"mcp":{"ok":{"content":[{"type":"text","text":"call cancelled: bye"}],"isError":true,"_meta":{"callId":"c1","error":{"toolId":"x.t","type":"CANCELLED","details":"bye","durationMs":5}}}},"legacy":{"err":{"code":-32001,"message":"Tool execution failed","data":{"error_type":"TOOL_EXECUTION_ERROR","tool_id":"x.t","details":"call cancelled: bye: bye","duration_ms":5}}}}',
  ],
  [
    toolFailed(
      'x.t',
      { type: 'TOOL_UNAVAILABLE', message: 'adapter x is unavailable: it is not on the bus', details: 'other' },
      0,
    ),
    '{"mcp":{"err":{"code":-32003,"message":"Tool adapter is unavailable: adapter x is unavailable: it is not on the bus","data":{"error_type":"TOOL_UNAVAILABLE","tool_id":"x.t","details":"adapter x is unavailable: it is not on the bus","duration_ms":0}}},"legacy":{"err":{"code":-32003,"message":"Tool adapter is unavailable: adapter x is unavailable: it is not on the bus","data":{"error_type":"TOOL_UNAVAILABLE","tool_id":"x.t","details":"adapter x is unavailable: it is not on the bus","duration_ms":0}}}}',
  ],
  [
    toolNotFound('x.q', ['x.t'], 9),
    '{"mcp":{"err":{"code":-32601,"message":"Tool not found: x.q; did you mean x.t?","data":{"tool_id":"x.q","did_you_mean":["x.t"],"tool_count":9}}},"legacy":{"err":{"code":-32601,"message":"Tool not found: x.q; did you mean x.t?","data":{"tool_id":"x.q","did_you_mean":["x.t"],"tool_count":9}}}}',
  ],
  [
    toolNotFound('x.q', [], 9),
    '{"mcp":{"err":{"code":-32601,"message":"Tool not found: x.q","data":{"tool_id":"x.q","did_you_mean":[],"tool_count":9}}},"legacy":{"err":{"code":-32601,"message":"Tool not found: x.q","data":{"tool_id":"x.q","did_you_mean":[],"tool_count":9}}}}',
  ],
  [
    toolNotFound('x_t', ['x.t', 'x-t'], 9, ['x.t', 'x-t']),
    '{"mcp":{"err":{"code":-32601,"message":"Tool not found: x_t; the alias matches several tools: x.t, x-t","data":{"tool_id":"x_t","did_you_mean":["x.t","x-t"],"tool_count":9}}},"legacy":{"err":{"code":-32601,"message":"Tool not found: x_t; the alias matches several tools: x.t, x-t","data":{"tool_id":"x_t","did_you_mean":["x.t","x-t"],"tool_count":9}}}}',
  ],
  [
    invalidArguments('x.t', [
      { path: 'a', message: 'bad' },
      { path: 'b', message: 'worse' },
    ]),
    '{"mcp":{"err":{"code":-32602,"message":"Invalid arguments for x.t: a bad; b worse","data":{"tool_id":"x.t","validation_errors":[{"path":"a","message":"bad"},{"path":"b","message":"worse"}]}}},"legacy":{"err":{"code":-32602,"message":"Invalid arguments for x.t: a bad; b worse","data":{"tool_id":"x.t","validation_errors":[{"path":"a","message":"bad"},{"path":"b","message":"worse"}]}}}}',
  ],
  [
    toolFailed('x.t', { type: 'APPROVAL_REQUIRED', message: 'held msg', details: { outcome: 'not_configured' } }),
    '{"mcp":{"err":{"code":-32001,"message":"held msg","data":{"tool_id":"x.t","outcome":"not_configured","code":"approval_required","retryable":false}}},"legacy":{"err":{"code":-32001,"message":"held msg","data":{"tool_id":"x.t","outcome":"not_configured","code":"approval_required","retryable":false}}}}',
  ],
  [
    toolFailed('x.t', {
      type: 'APPROVAL_REQUIRED',
      message: 'rej',
      details: {
        outcome: 'rejected',
        approval_id: 'ap1',
        route: 'dashboard',
        where: 'http://x',
        held_seconds: 3,
        window_seconds: 60,
      },
    }),
    '{"mcp":{"err":{"code":-32001,"message":"rej","data":{"tool_id":"x.t","outcome":"rejected","approval_id":"ap1","route":"dashboard","where":"http://x","held_seconds":3,"window_seconds":60,"code":"approval_required","retryable":false}}},"legacy":{"err":{"code":-32001,"message":"rej","data":{"tool_id":"x.t","outcome":"rejected","approval_id":"ap1","route":"dashboard","where":"http://x","held_seconds":3,"window_seconds":60,"code":"approval_required","retryable":false}}}}',
  ],
  [
    toolFailed('x.t', { type: 'REFUSED', message: 'no way', details: 'no way' }),
    '{"mcp":{"ok":{"content":[{"type":"text","text":"no way"}],"isError":true,"_meta":{"callId":"c1","error":{"toolId":"x.t","details":"no way","durationMs":0}}}},"legacy":{"err":{"code":-32001,"message":"Tool execution failed","data":{"error_type":"TOOL_EXECUTION_ERROR","tool_id":"x.t","details":"no way","duration_ms":0}}}}',
  ],
];

const rendered = (r: ToolResult) => {
  const run = (f: () => unknown) => {
    try {
      return { ok: f() };
    } catch (e) {
      const { code, message, data } = e as { code: number; message: string; data: unknown };
      return { err: { code, message, data } };
    }
  };
  return JSON.stringify({ mcp: run(() => toMcpResult(r, 'c1')), legacy: run(() => toLegacyResult(r)) });
};

describe('a tool result on the wire, in the MCP and the legacy dialect', () => {
  it.each(CASES.map(([r, wire]) => [r.status === 'success' ? 'success' : r.error.type, r, wire] as const))(
    '%s renders byte for byte as before',
    (_type, r, wire) => {
      expect(rendered(r)).toBe(wire);
    },
  );
});
