import {
  ChecklistStatusSchema,
  VerificationMethodSchema,
  type ChecklistItem,
  type ChecklistPack,
  type ChecklistStatus,
  type ComplianceChecklist,
  type ComplianceCoverage,
  type ComplianceEvidenceList,
  type CoverageBreakdown,
} from '../../../contracts/compliance.ts';
import { evidenceNodes, type GeometryPin, type HeadRow, type RecordRow } from './evidence.rules.ts';
import type { RequirementVerdict } from '../../../contracts/requirement-verdicts.ts';
import { packItems, requirementItems } from './items.rules.ts';
import { ownValue } from './methods.rules.ts';
import { PACKS, PRODUCT_TYPE_OF_FLOW } from './packs/index.ts';

/**
 * Pure rules (no I/O): the compliance report of a project (checklist, coverage, evidence) from the rows the twin's
 * compliance reads answer and the design flows its runs used. `evaluateCompliance` is the one entry point.
 */

/** What the compliance reads gather for one project. */
export interface ComplianceInput {
  project_id: string;
  /** Flows of the project's runs (`mech_v1`, `hardware_v1`, ...): they give its product types, hence the packs. */
  design_flows: string[];
  /** Head revisions of its constraint sets, prd, cad_model and technical_drawing items, most recently revised first. */
  heads: HeadRow[];
  /** Its evidence records, newest first. */
  records: RecordRow[];
  /** The geometry revisions its simulation results pin. */
  pins: GeometryPin[];
  /** The packs to apply by product type (default: the built-in packs). */
  packs?: readonly ChecklistPack[];
  /**
   * The one evaluator's verdicts (decision 0080) of the requirements a run wrote, on that run's own evidence, by
   * `verdictKey`: a numeric requirement item shows the verdict instead of judging the project's evidence itself.
   */
  verdicts?: ReadonlyMap<string, RequirementVerdict>;
}

export interface ComplianceReport {
  checklist: ComplianceChecklist;
  coverage: ComplianceCoverage;
  evidence: ComplianceEvidenceList;
}

/** Percent with one decimal; 0 of nothing is 0 %. */
const percent = (n: number, total: number) => (total ? Math.round((n / total) * 1000) / 10 : 0);

const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

/** Counts and coverage of a group: evidenced means current evidence decided it (verified or failed). */
export function breakdown(items: ChecklistItem[]): CoverageBreakdown {
  const statuses = Object.fromEntries(ChecklistStatusSchema.options.map((s) => [s, 0])) as Record<
    ChecklistStatus,
    number
  >;
  for (const i of items) statuses[i.status]++;
  const evidenced = statuses.verified + statuses.failed;
  return {
    total_items: items.length,
    evidenced_items: evidenced,
    coverage_percent: percent(evidenced, items.length),
    statuses,
  };
}

/** The coverage response: the spec's counts plus counts per status, per discipline and per verification method. */
export function coverageOf(projectId: string, items: ChecklistItem[]): ComplianceCoverage {
  const all = breakdown(items);
  const byDiscipline: Record<string, CoverageBreakdown> = {};
  for (const d of sorted(items.map((i) => i.discipline)))
    byDiscipline[d] = breakdown(items.filter((i) => i.discipline === d));
  return {
    project_id: projectId,
    total_items: all.total_items,
    evidenced_items: all.evidenced_items,
    coverage_percent: all.coverage_percent,
    by_status: Object.fromEntries(
      ChecklistStatusSchema.options.map((s) => [
        s,
        { count: all.statuses[s], percent: percent(all.statuses[s], items.length) },
      ]),
    ) as ComplianceCoverage['by_status'],
    by_discipline: byDiscipline,
    by_method: Object.fromEntries(
      VerificationMethodSchema.options.map((m) => [m, breakdown(items.filter((i) => i.verification_method === m))]),
    ) as ComplianceCoverage['by_method'],
  };
}

/** The project's prd (its most recently revised prd item) and the set revisions it names that are no longer current. */
function prdOf(heads: HeadRow[]): ComplianceChecklist['prd'] {
  const prd = heads.find((h) => h.item_type === 'prd');
  if (!prd) return null;
  const refs = Array.isArray(prd.properties.requirement_refs)
    ? prd.properties.requirement_refs.filter((r): r is string => typeof r === 'string')
    : [];
  const current = new Set(heads.filter((h) => h.item_type === 'constraint_set').map((h) => `${h.key}@${h.revision}`));
  return {
    ref: `${prd.key}@${prd.revision}`,
    node_id: prd.node_id,
    requirement_refs: refs,
    outdated_refs: refs.filter((r) => !current.has(r)),
  };
}

/**
 * The compliance report of a project. Requirements come first (constraint sets by name, constraints in their order),
 * then the items of each pack that applies to one of the project's product types. A project with no requirement and
 * no applicable pack has an empty checklist and 0 % coverage.
 */
export function evaluateCompliance(input: ComplianceInput): ComplianceReport {
  const evidence = evidenceNodes(input.heads, input.records, input.pins);
  const sets = input.heads
    .filter((h) => h.item_type === 'constraint_set')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.key < b.key ? -1 : 1));
  const designFlows = sorted(input.design_flows);
  const productTypes = sorted(designFlows.map((f) => ownValue(PRODUCT_TYPE_OF_FLOW, f)).filter((t) => t !== undefined));
  const packs = (input.packs ?? PACKS).filter((p) => p.product_types.some((t) => productTypes.includes(t)));
  const items = [...requirementItems(sets, evidence, input.verdicts), ...packs.flatMap((p) => packItems(p, evidence))];
  const coverage = coverageOf(input.project_id, items);

  const verifies = new Map<string, string[]>();
  for (const item of items)
    for (const e of item.evidence) verifies.set(e.node_id, [...(verifies.get(e.node_id) ?? []), item.ref]);

  return {
    checklist: {
      project_id: input.project_id,
      target_markets: sorted(packs.flatMap((p) => p.markets)),
      total_items: coverage.total_items,
      evidenced_items: coverage.evidenced_items,
      coverage_percent: coverage.coverage_percent,
      items,
      design_flows: designFlows,
      product_types: productTypes,
      packs: packs.map((p) => ({
        id: p.id,
        standard: p.standard,
        title: p.title,
        product_types: p.product_types,
        markets: p.markets,
        item_count: p.items.length,
      })),
      prd: prdOf(input.heads),
    },
    coverage,
    evidence: {
      project_id: input.project_id,
      total: evidence.length,
      items: evidence.map(({ usable: _u, values: _v, pins: _p, text: _t, ...e }) => ({
        ...e,
        verifies: verifies.get(e.node_id) ?? [],
      })),
    },
  };
}
