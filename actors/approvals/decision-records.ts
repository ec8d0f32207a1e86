import type { RunView } from '../../contracts/actions/runs.actions.ts';
import {
  DecisionRecordSchema,
  RecordedSurfaceSchema,
  type DecisionChannel,
  type DecisionRecord,
  type GateDecisionEntry,
} from '../../contracts/approvals.ts';

/**
 * Where a record was sent from when it does not say (records older than decision 0061, and the MCP prompt's and
 * chat's own identities): its surface when that names a channel, else the HTTP API.
 */
const CHANNEL_OF_SURFACE: Partial<Record<DecisionRecord['surface'], DecisionChannel>> = {
  dashboard: 'dashboard',
  cli: 'cli',
  mcp: 'mcp',
  chat: 'chat',
};

/** A decision record out of a stored object, with its channel and principal (decision 0061); null when it is not one. */
export function asDecision(v: unknown): DecisionRecord | null {
  const r = DecisionRecordSchema.safeParse(v);
  if (!r.success) return null;
  const d = r.data;
  return {
    ...d,
    channel: d.channel ?? CHANNEL_OF_SURFACE[d.surface] ?? 'api',
    // The approver is the authenticated principal whenever it is verified (SPEC Gateway rule 2).
    principal: d.principal !== undefined ? d.principal : d.approver_verified ? d.approver : null,
  };
}

/**
 * Every gate decision of a run, oldest first (decision 0061), as `detail.decisions` shows them. A retry on the gate
 * open again is left out until that gate resolves (SPEC "States / Approval item": retried).
 */
export function gateHistory(v: RunView): GateDecisionEntry[] {
  const open = v.gate?.phase;
  return v.decisions
    .filter((d) => !(open !== undefined && d.decision === 'retry' && d.phase === open && d === v.decisions.at(-1)))
    .map((d) => {
      const rec = asDecision({
        ...d,
        on_behalf_of: d.on_behalf_of ?? null,
        agent: d.agent ?? null,
        surface: surfaceOf(d.surface),
      });
      const gate_id = String(d.gate_id ?? '');
      return rec
        ? {
            ...rec,
            phase: String(d.phase ?? ''),
            gate_id,
            attempt: Number(gate_id.split(':').at(-1)) || 0,
            to_phase: String(d.to_phase ?? ''),
          }
        : null;
    })
    .filter((d): d is GateDecisionEntry => d !== null);
}

export const surfaceOf = (v: unknown) =>
  RecordedSurfaceSchema.safeParse(v).success ? (v as DecisionRecord['surface']) : 'unknown';
export const strOrNull = (v: unknown) => (typeof v === 'string' && v ? v : null);
