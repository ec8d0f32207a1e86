import type { ModelToolCall, ToolOffer } from '../../../contracts/harness-calls.ts';
import { HarnessCallError } from './errors.ts';

/**
 * The arguments of a tool call, assembled from streamed fragments, as an object. Empty means no arguments (some
 * servers send nothing for a tool without parameters). Anything that is not a JSON object is a `data` failure: the
 * provider's bytes are broken, so the call is reported, never run with guessed arguments.
 */
export function parseToolArguments(name: string, json: string): Record<string, unknown> {
  if (json.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw HarnessCallError.of(
      'data',
      `malformed tool-call JSON for ${name || '(unnamed tool)'}: ${json.slice(0, 200)}`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw HarnessCallError.of('data', `tool-call arguments for ${name || '(unnamed tool)'} are not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * Refuses a tool call naming a tool the request did not offer. Classified `reasoning`, not `tool`: no tool ran
 * and failed (that is what `tool` means); the model chose outside what it was given, a fault of its reasoning
 * that a retry with the same offer, or another model, may cure.
 */
export function checkOffered(calls: readonly ModelToolCall[], offered: readonly ToolOffer[]): void {
  if (calls.length === 0) return;
  const names = new Set(offered.map((t) => t.name));
  const unknown = calls.filter((c) => !names.has(c.name)).map((c) => c.name || '(unnamed)');
  if (unknown.length > 0) {
    const offer = names.size > 0 ? `offered: ${[...names].slice(0, 20).join(', ')}` : 'no tools were offered';
    throw HarnessCallError.of(
      'reasoning',
      `the model called a tool it was not offered: ${unknown.join(', ')} (${offer})`,
    );
  }
}
