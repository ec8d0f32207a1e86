import type { Caller } from '../contracts/actions/adapters.actions.ts';
import type { ToolAnnotations } from '../contracts/tools.ts';
import { callAnnotations, type CatalogueEntry } from '../contracts/tool-catalogue.ts';

/** Tools that talk to a person themselves and are never held (TOOLS.md: `flow.await_gate` "asks the person; never held"). */
const NEVER_HELD = new Set(['flow.await_gate']);
/** Tools held downstream, not at the tool server: they freeze a flow version whose own approval a person gives (TOOLS.md). */
const HELD_DOWNSTREAM = new Set(['flow.propose', 'flow.patch']);

export type HoldDecision = { kind: 'run' } | { kind: 'hold'; reason: string } | { kind: 'refuse'; reason: string };

export interface HoldPolicyOptions {
  /** stdio writes are exempt unless the deployment sets exempt_local_writes=false. */
  exemptLocalWrites: boolean;
}

/**
 * Decides, before a call runs, whether it runs, is held for a person, or is refused (SPEC "Events": writing tools are
 * held when the caller is remote; rule 9 and the flows issue: the internal service caller runs read-only, additive,
 * producing and CAD-session tools, is refused destructive and human-authority tools and every `flow.*` tool).
 * A tool whose readOnlyHint is true is never held. A call is judged by what it can write (`callAnnotations`, with its
 * arguments when given): an EDA export into its own scratch folder runs, one into a caller's path is a write, held
 * for a remote caller, and with `overwrite: true` a destructive one (docs/decisions/0030-export-writes.md). Pure.
 */
export function decideHold(
  toolId: string,
  annotations: ToolAnnotations,
  entry: CatalogueEntry | undefined,
  caller: Caller,
  opts: HoldPolicyOptions,
  args?: Record<string, unknown>,
): HoldDecision {
  annotations = callAnnotations(annotations, entry, args);
  if (caller.kind === 'service') {
    if (toolId.startsWith('flow.'))
      return { kind: 'refuse', reason: 'the design-flow worker cannot call flow.* tools' };
    if (entry?.humanAuthority)
      return { kind: 'refuse', reason: `${toolId} needs a person's authority; a flow phase cannot call it` };
    if (annotations.readOnlyHint) return { kind: 'run' };
    if (annotations.destructiveHint) {
      return {
        kind: 'refuse',
        reason: `${toolId} may overwrite or delete; a flow phase (approval mode forward) cannot call it`,
      };
    }
    return { kind: 'run' };
  }
  if (annotations.readOnlyHint || NEVER_HELD.has(toolId) || HELD_DOWNSTREAM.has(toolId)) return { kind: 'run' };
  if (caller.kind === 'stdio' && opts.exemptLocalWrites) return { kind: 'run' };
  return {
    kind: 'hold',
    reason: `${toolId} writes (${annotations.destructiveHint ? 'may overwrite or delete' : 'additive'}) and the caller is ${caller.kind}`,
  };
}
