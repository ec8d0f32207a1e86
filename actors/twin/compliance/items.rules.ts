import type { ChecklistItem, ChecklistPack, EvidenceRef, WaiverSchema } from '../../../contracts/compliance.ts';
import { waiversOf, type RequirementVerdict } from '../../../contracts/requirement-verdicts.ts';
import { evaluateRequirements, type ConstraintDef } from '../../../contracts/requirements.ts';
import type { z } from 'zod';
import { isRecord, type EvidenceNode, type HeadRow } from './evidence.rules.ts';
import { disciplineOf, evidenceKindsFor, methodOf } from './methods.rules.ts';

/**
 * Pure rules (no I/O): checklist items from the project's requirements (every constraint of its current constraint
 * sets) and from the clauses of the packs that apply, each judged on the evidence nodes. Numbers are compared by the
 * gates' own evaluation (`evaluateRequirements`, contracts/requirements.ts), never a second comparison.
 *
 * Status: `waived` when the item's constraint set revision waives it; else the newest current evidence that states a
 * value decides (`verified` or `failed`); else `stale` when only stale evidence states one; else `unverified`.
 */

interface Candidate {
  ev: EvidenceNode;
  outcome: 'pass' | 'fail';
  value: number | string | null;
  stale: boolean;
  note: string;
}
type Decided = Pick<ChecklistItem, 'status' | 'evidenced' | 'value' | 'note' | 'evidence'>;

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const label = (ev: EvidenceNode) =>
  `${ev.kind} ${ev.item_ref ?? ev.node_id}${ev.analysed_geometry ? ` (on ${ev.analysed_geometry.ref})` : ''}`;

const toRef = (c: Candidate): EvidenceRef => ({
  node_id: c.ev.node_id,
  kind: c.ev.kind,
  name: c.ev.name,
  item_ref: c.ev.item_ref,
  revision: c.ev.revision,
  stale: c.stale,
  value: c.value,
  analysed_ref: c.ev.analysed_geometry?.ref ?? null,
});

/** Compares a numeric check with one node through the gates' evaluation; undefined when the node states no value. */
function compare(c: ConstraintDef & { id: string }, setRef: string, ev: EvidenceNode): Candidate | undefined {
  const evidence = { node_id: ev.node_id, ref: ev.item_ref, properties: ev.values };
  const asGeometry = ev.kind === 'geometry' || ev.kind === 'technical_drawing';
  const [r] = evaluateRequirements(
    [{ set: setRef, c }],
    asGeometry ? undefined : evidence,
    asGeometry ? evidence : undefined,
  );
  if (r.status === 'no_data' || r.value === null) return undefined;
  const unit = r.unit ? ` ${r.unit}` : '';
  const verdict = r.status === 'pass' ? 'meets' : 'violates';
  return {
    ev,
    outcome: r.status,
    value: r.value,
    stale: ev.stale,
    note: `${label(ev)} gives ${r.value}${unit}: ${verdict} ${r.metric} ${r.operator} ${r.limit}${unit}`,
  };
}

/** The newest current candidate decides; stale ones only make the item stale; none leaves it unverified. */
function decide(candidates: Candidate[], none: string): Decided {
  const current = candidates.find((c) => !c.stale);
  const ordered = current ? [current, ...candidates.filter((c) => c !== current)] : candidates;
  const evidence = ordered.map(toRef);
  if (current) {
    const status = current.outcome === 'pass' ? 'verified' : 'failed';
    return { status, evidenced: true, value: current.value, note: current.note, evidence };
  }
  if (candidates.length) {
    const s = candidates[0];
    const why = s.ev.stale_reason ?? s.note;
    return {
      status: 'stale',
      evidenced: false,
      value: null,
      note: `only stale evidence: ${label(s.ev)}: ${why}`,
      evidence,
    };
  }
  return { status: 'unverified', evidenced: false, value: null, note: none, evidence };
}

/** A decision reviews a requirement when it pins the requirement's set and names its id (stale when the pin is old). */
function reviewed(ev: EvidenceNode, set: HeadRow, id: string): Candidate | undefined {
  const pin = ev.pins.map((p) => /^(.+)@(\d+)$/.exec(p)).find((m) => m?.[1] === set.key);
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (!pin || !new RegExp(`(^|[^A-Za-z0-9_-])${escaped}($|[^A-Za-z0-9_-])`).test(ev.text)) return undefined;
  const pinned = Number(pin[2]);
  const old = pinned !== set.revision;
  return {
    ev,
    outcome: 'pass',
    value: null,
    stale: ev.stale || old,
    note: old
      ? `${label(ev)} reviewed ${id} on ${set.key}@${pinned}; the set is now @${set.revision}`
      : `${label(ev)} records the review of ${id} on ${set.key}@${pinned}`,
  };
}

/** The waiver of a requirement on its set revision (`waivers`: `{ID: reason}`, or a list of ids or `{id, reason}`). */
function waiverOf(set: HeadRow, id: string): z.infer<typeof WaiverSchema> | null {
  // The one reading of a set's waivers (contracts/requirement-verdicts.ts), as the live views' evidence reads them.
  const waived = waiversOf(set.properties.waivers, set.change_reason ?? '');
  if (!Object.hasOwn(waived, id)) return null;
  return { set_ref: `${set.key}@${set.revision}`, node_id: set.node_id, approved_by: set.author, reason: waived[id] };
}

function requirementItem(
  set: HeadRow,
  raw: Record<string, unknown>,
  i: number,
  evidence: EvidenceNode[],
  verdicts?: ReadonlyMap<string, RequirementVerdict>,
): ChecklistItem {
  const setRef = `${set.key}@${set.revision}`;
  const id = str(raw.id) || `C${i + 1}`;
  const limit = typeof raw.limit === 'number' && Number.isFinite(raw.limit) ? raw.limit : null;
  const req = {
    set_key: set.key,
    set_ref: setRef,
    set_node_id: set.node_id,
    id,
    metric: str(raw.metric),
    operator: str(raw.operator) || '<=',
    limit,
    unit: str(raw.unit),
    severity: str(raw.severity) || 'error',
    message: str(raw.message),
    target_node_type: str(raw.target_node_type) || null,
  };
  const fields = {
    ...req,
    verification_method: str(raw.verification_method),
    expected_evidence: str(raw.expected_evidence) || null,
  };
  const method = methodOf(fields);
  const kinds = evidenceKindsFor(fields, method);
  const check = { id, metric: req.metric, operator: req.operator, limit: limit ?? 0, unit: req.unit };
  const candidates: Candidate[] = [];
  for (const ev of evidence) {
    if (!ev.usable || !kinds.includes(ev.kind)) continue;
    const c =
      ev.kind === 'design_decision' ? reviewed(ev, set, id) : limit === null ? undefined : compare(check, setRef, ev);
    if (c) candidates.push(c);
  }
  const expr = `${req.metric} ${req.operator} ${limit ?? '(no limit)'}${req.unit ? ` ${req.unit}` : ''}`;
  const none =
    limit === null
      ? `${id} states no numeric limit, so nothing can verify it`
      : `no current ${kinds.join(' or ')} states ${req.metric}${kinds.includes('design_decision') ? ` or records a review of ${id}` : ''}`;
  // A numeric requirement a run wrote is judged on that run's evidence by the one evaluator; reviews stay here.
  const verdict =
    limit === null || kinds.includes('design_decision') ? undefined : verdicts?.get(verdictKey(setRef, id));
  const decided = verdict ? fromVerdict(verdict, decide(candidates, none)) : decide(candidates, none);
  const waiver = waiverOf(set, id);
  return {
    ref: `${set.key}:${id}`,
    source: 'requirement',
    title: req.message ? `${expr} (${req.message})` : expr,
    discipline: disciplineOf(fields),
    verification_method: method,
    mandatory: req.severity === 'error',
    ...decided,
    ...(waiver
      ? {
          status: 'waived',
          evidenced: false,
          note: `waived in ${waiver.set_ref}${waiver.reason ? `: ${waiver.reason}` : ''}`,
        }
      : {}),
    requirement: req,
    pack: null,
    waiver,
  };
}

/** One item per constraint of each current constraint set revision, in set order then constraint order. */
export function requirementItems(
  sets: HeadRow[],
  evidence: EvidenceNode[],
  verdicts?: ReadonlyMap<string, RequirementVerdict>,
): ChecklistItem[] {
  // The default id `C<n>` counts every entry, as the prd's requirement table does (prd-view.ts).
  return sets.flatMap((set) =>
    (Array.isArray(set.properties.constraints) ? (set.properties.constraints as unknown[]) : []).flatMap((c, i) =>
      isRecord(c) ? [requirementItem(set, c, i, evidence, verdicts)] : [],
    ),
  );
}

/** The key of a requirement's verdict: its constraint set revision and its id. */
export const verdictKey = (setRef: string, id: string) => `${setRef}#${id}`;

const CHECKLIST_STATUS = {
  pass: 'verified',
  fail: 'failed',
  not_verified: 'unverified',
  stale: 'stale',
  waived: 'waived',
} as const;

/** A checklist item's decision from the one evaluator's verdict (decision 0080). */
function fromVerdict(v: RequirementVerdict, decided: Decided): Decided {
  const evidenced = v.status === 'pass' || v.status === 'fail';
  return { ...decided, status: CHECKLIST_STATUS[v.status], evidenced, value: v.value, note: v.reason };
}

/** A head stating a property: it passes when the stated text matches the pack's pattern. */
function states(property: string, pattern: RegExp, ev: EvidenceNode): Candidate | undefined {
  const v = ev.values[property];
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const text = String(v);
  const pass = pattern.test(text);
  const verdict = pass ? 'matches' : 'does not match';
  return {
    ev,
    outcome: pass ? 'pass' : 'fail',
    value: text,
    stale: ev.stale,
    note: `${label(ev)} states ${property} "${text}" (${verdict} ${pattern.source})`,
  };
}

/** One item per clause of a pack, judged the same way; pack items are advisory (`mandatory: false`), never waived. */
export function packItems(pack: ChecklistPack, evidence: EvidenceNode[]): ChecklistItem[] {
  return pack.items.map((item) => {
    const chk = item.check;
    const pattern = chk.check === 'states' ? new RegExp(chk.pattern) : undefined;
    const candidates: Candidate[] = [];
    for (const ev of evidence) {
      if (!ev.usable || ev.kind !== chk.kind) continue;
      const c =
        chk.check === 'compare'
          ? compare(
              { id: item.clause, metric: chk.metric, operator: chk.operator, limit: chk.limit, unit: chk.unit },
              pack.id,
              ev,
            )
          : states(chk.property, pattern!, ev);
      if (c) candidates.push(c);
    }
    const wanted =
      chk.check === 'compare'
        ? `${chk.metric} ${chk.operator} ${chk.limit}${chk.unit ? ` ${chk.unit}` : ''}`
        : chk.property;
    const decided = decide(candidates, `no current ${chk.kind} states ${wanted}`);
    return {
      ref: `${pack.id}:${item.clause}`,
      source: 'pack',
      title: `${pack.standard} ${item.clause}: ${item.title}`,
      discipline: item.discipline,
      verification_method: item.verification_method,
      mandatory: false,
      ...decided,
      note: item.note ? `${decided.note}. ${item.note}` : decided.note,
      requirement: null,
      pack: { pack_id: pack.id, standard: pack.standard, clause: item.clause },
      waiver: null,
    };
  });
}
