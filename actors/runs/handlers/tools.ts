import type { GateFinding } from '../../../contracts/approvals.ts';
import type { ToolCallError, ToolFailed } from '../../../contracts/tool-result.ts';
import { TOOL_CATALOGUE } from '../../../contracts/tool-catalogue.ts';
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

/**
 * The failure kind of a tool call that did not succeed. A timeout is transient (the phase is re-run as is) only for a
 * tool the catalogue declares idempotent: re-running the phase sends the call again, and a call that is not idempotent
 * is never sent twice without a person (decision 0147); its timeout is a tool failure the gate shows.
 */
function failureKind(e: ToolCallError, tool: string): FailureKind {
  if (e.type === 'TOOL_UNAVAILABLE') return 'capability';
  if (e.type === 'INVALID_ARGUMENTS' || e.type === 'TOOL_NOT_FOUND') return 'data';
  if (e.type === 'APPROVAL_REQUIRED' || e.type === 'REFUSED') return 'authorization';
  return e.type === 'TOOL_TIMEOUT' && TOOL_CATALOGUE.get(tool)?.idempotent === true ? 'transient' : 'tool';
}

function describe(r: ToolFailed): string {
  if (r.error.type === 'INVALID_ARGUMENTS')
    return r.error.details.validation_errors.map((v) => `${v.path} ${v.message}`).join('; ');
  if (r.error.type === 'TOOL_NOT_FOUND') return `tool not found: ${r.tool_id}`;
  return r.error.message;
}

/** Calls a tool as the run's service caller; anything but success stops the phase with the right failure kind. */
export async function use<T = Record<string, any>>(
  input: PhaseInput,
  tool: string,
  args: Record<string, unknown>,
  timeoutSeconds?: number,
): Promise<T> {
  const o = await input.callTool(tool, args, timeoutSeconds);
  if (o.status === 'error') throw new PhaseStop(failureKind(o.error, o.tool_id || tool), `${tool}: ${describe(o)}`);
  return o.data as T;
}

/** Runs a handler body; a PhaseStop becomes the phase's failure. */
export async function phase(
  body: () => Promise<{ summary: string; deliverables: Deliverable[]; findings?: GateFinding[] }>,
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
