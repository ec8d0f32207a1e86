import { describe, expect, it } from 'vitest';
import { withContent } from '../../../actors/adapters/kit/tool.ts';
import type { ToolResult } from '../../../contracts/tool-result.ts';
import { McpToolCallResultSchema } from '../../../contracts/tools.ts';
import { toLegacyResult, toMcpResult } from '../../../gateway/mcp/methods/tool-results.ts';

const ok = (data: Record<string, unknown>): ToolResult => ({
  status: 'success',
  tool_id: 'x.t',
  data,
  output_files: [],
  duration_ms: 1,
});

const PNG = { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' };

describe('a tool that returns its own MCP content (`_content`)', () => {
  it('gets exactly those blocks as content, and no structuredContent when nothing else was returned', () => {
    const res = toMcpResult(ok(withContent([{ type: 'text', text: 'hello' }, PNG])), 'call_1');
    expect(res).toEqual({ content: [{ type: 'text', text: 'hello' }, PNG], _meta: { callId: 'call_1' } });
    expect(McpToolCallResultSchema.safeParse(res).success).toBe(true);
  });

  it('keeps its other fields as structuredContent, without the reserved key', () => {
    const res = toMcpResult(ok(withContent([{ type: 'text', text: 'two items' }], { count: 2 })), 'call_2');
    expect(res).toMatchObject({ content: [{ type: 'text', text: 'two items' }], structuredContent: { count: 2 } });
    expect((res as { structuredContent?: object }).structuredContent).not.toHaveProperty('_content');
  });

  it('sends the blocks as the tool wrote them, extra keys included', () => {
    const block = { type: 'text' as const, text: 'note', annotations: { audience: ['user'] } };
    expect(toMcpResult(ok({ _content: [block] }), 'c').content).toEqual([block]);
  });

  it('does not trust an invalid `_content`: the data goes out whole as JSON, like any other', () => {
    for (const bad of [[], 'text', [{ type: 'video', url: 'x' }], [{ type: 'text' }]]) {
      const data = { _content: bad, n: 1 };
      expect(toMcpResult(ok(data), 'c')).toEqual({
        content: [{ type: 'text', text: JSON.stringify(data) }],
        structuredContent: data,
        _meta: { callId: 'c' },
      });
    }
  });

  it('leaves data without the key mapped as before: JSON text plus structuredContent', () => {
    const data = { id: 'p1', name: 'Bracket' };
    expect(toMcpResult(ok(data), 'c')).toEqual({
      content: [{ type: 'text', text: JSON.stringify(data) }],
      structuredContent: data,
      _meta: { callId: 'c' },
    });
  });

  it('does not change the legacy dialect: data is returned as the tool returned it', () => {
    const data = withContent([{ type: 'text', text: 'hi' }], { n: 1 });
    expect(toLegacyResult(ok(data))).toMatchObject({ status: 'success', data });
  });
});
