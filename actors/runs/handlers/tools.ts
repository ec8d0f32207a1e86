import type { ToolCallOutcome } from '../../../contracts/actions/tools.actions.ts';
import type { PhaseInput, PhaseOutcome } from '../executor.ts';
import type { Deliverable, FailureKind } from '../run.types.ts';

/** A tool call that did not succeed, as the phase failure it causes (failure taxonomy). */
export class PhaseStop extends Error {
  readonly kind: FailureKind;
  constructor(kind: FailureKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

function failureKind(o: Exclude<ToolCallOutcome, { kind: 'ok' }>): FailureKind {
  if (o.kind === 'unavailable') return 'capability';
  if (o.kind === 'invalid_params' || o.kind === 'not_found') return 'data';
  if (o.kind === 'held' || o.kind === 'refused') return 'authorization';
  return o.error.type === 'TOOL_TIMEOUT' ? 'transient' : 'tool';
}

function describe(o: Exclude<ToolCallOutcome, { kind: 'ok' }>): string {
  if (o.kind === 'tool_error') return o.error.message;
  if (o.kind === 'invalid_params') return o.validation_errors.map((v) => `${v.path} ${v.message}`).join('; ');
  if (o.kind === 'not_found') return `tool not found: ${o.tool_id}`;
  return o.message;
}

/** Calls a tool as the run's service caller; anything but success stops the phase with the right failure kind. */
export async function use<T = Record<string, any>>(
  input: PhaseInput,
  tool: string,
  args: Record<string, unknown>,
  timeoutSeconds?: number,
): Promise<T> {
  const o = await input.callTool(tool, args, timeoutSeconds);
  if (o.kind !== 'ok') throw new PhaseStop(failureKind(o), `${tool}: ${describe(o)}`);
  return o.data as T;
}

/** Runs a handler body; a PhaseStop becomes the phase's failure. */
export async function phase(
  body: () => Promise<{ summary: string; deliverables: Deliverable[] }>,
): Promise<PhaseOutcome> {
  try {
    return { ok: true, ...(await body()) };
  } catch (err) {
    if (err instanceof PhaseStop) return { ok: false, kind: err.kind, message: err.message };
    throw err;
  }
}

/** The refs earlier phases delivered, of one type. */
export function priorOf(input: PhaseInput, type: string): Deliverable[] {
  return Object.values(input.prior)
    .flat()
    .filter((d) => d.type === type);
}
