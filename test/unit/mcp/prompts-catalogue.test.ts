import { describe, expect, it } from 'vitest';
import { TOOL_CATALOGUE } from '../../../contracts/tool-catalogue.ts';
import { fill, PROMPT_TEXTS } from '../../../gateway/mcp/prompts/catalogue.ts';

const ADAPTERS = [...new Set([...TOOL_CATALOGUE.values()].map((e) => e.adapter))];
/** `adapter.method` anywhere in a text, for every adapter the catalogue knows. */
const TOOL_REF = new RegExp(`\\b(?:${ADAPTERS.join('|')})\\.[a-z_]+\\b`, 'g');

const toolsNamed = (lines: readonly string[]) => [...new Set(lines.join('\n').match(TOOL_REF) ?? [])];
/** All the text a prompt may send: its lines and the alternative parts live data picks. */
const textOf = (p: (typeof PROMPT_TEXTS)[number]) => [...p.lines, ...Object.values(p.parts ?? {})];

describe('the service prompts as data (gateway/mcp/prompts/catalogue.ts)', () => {
  it('name only tools that exist in the 97-tool catalogue', () => {
    for (const p of PROMPT_TEXTS) {
      const named = toolsNamed(textOf(p));
      expect(named.length, p.name).toBeGreaterThanOrEqual(5);
      expect(
        named.filter((t) => !TOOL_CATALOGUE.has(t)),
        p.name,
      ).toEqual([]);
    }
  });

  it('walk the real jobs: the design-flow prompt calls the flow tools in the order a run needs them', () => {
    const run = PROMPT_TEXTS.find((p) => p.name === 'run_design_flow')!;
    const order = toolsNamed(run.lines).filter((t) => t.startsWith('flow.'));
    expect(order).toEqual([
      'flow.capabilities',
      'flow.compile_intent',
      'flow.start_run',
      'flow.status',
      'flow.lifecycle',
      'flow.await_gate',
      'flow.verify_completion',
    ]);
  });

  it('give every prompt a title, a description and described arguments with unique names', () => {
    expect(new Set(PROMPT_TEXTS.map((p) => p.name)).size).toBe(PROMPT_TEXTS.length);
    for (const p of PROMPT_TEXTS) {
      expect(p.title.length, p.name).toBeGreaterThan(5);
      expect(p.description.length, p.name).toBeGreaterThan(20);
      expect(new Set(p.arguments.map((a) => a.name)).size, p.name).toBe(p.arguments.length);
      for (const a of p.arguments) expect(a.description?.length, `${p.name}.${a.name}`).toBeGreaterThan(5);
    }
  });

  it('use only placeholders written as {{name}}, so JSON examples in the text stay as they are', () => {
    for (const p of PROMPT_TEXTS) {
      const text = textOf(p).join('\n');
      expect(text.replace(/\{\{[a-z_]+\}\}/g, '').match(/\{\{|\}\}/g), p.name).toBeNull();
    }
  });
});

describe('fill', () => {
  it('replaces each placeholder once and never expands a value again', () => {
    expect(fill(['goal: {{goal}}', 'flow {{flow}}'], { goal: 'a {{flow}} bracket', flow: 'mech_v1' })).toBe(
      'goal: a {{flow}} bracket\nflow mech_v1',
    );
  });

  it('leaves an unknown placeholder visible rather than dropping it', () => {
    expect(fill(['{{missing}} {"run_id": 1}'], {})).toBe('{{missing}} {"run_id": 1}');
  });
});
