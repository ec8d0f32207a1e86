import type { EvidenceKind, VerificationMethod } from '../../../contracts/compliance.ts';
import { ANALYSIS_METRICS, ENVELOPE_METRICS } from '../../../contracts/requirements.ts';

/** The map's own value at `key` (never an Object.prototype member such as `constructor`), else undefined. */
export const ownValue = <V>(map: Record<string, V>, key: string): V | undefined =>
  Object.hasOwn(map, key) ? map[key] : undefined;

/**
 * Pure rules (no I/O): the verification method and discipline of a requirement, derived from the fields a constraint
 * set stores, and which evidence kinds can verify each method. README "Compliance" states the same rules in prose.
 */

/** The constraint fields these rules read (as `twin.record_constraint_set` and `POST /v1/twin/constraints` store them). */
export interface ConstraintFields {
  metric: string;
  unit: string;
  verification_method: string;
  target_node_type: string | null;
  expected_evidence: string | null;
}

/** Words a constraint's `verification_method` may use (lower case, spaces and hyphens read as `_`). */
const METHOD_WORDS: Record<string, VerificationMethod> = {
  analysis: 'analysis',
  analytical: 'analysis',
  simulation: 'analysis',
  fea: 'analysis',
  calculation: 'analysis',
  test: 'test',
  testing: 'test',
  measurement: 'test',
  inspection: 'inspection',
  inspect: 'inspection',
  review: 'review',
  design_review: 'review',
  demonstration: 'demonstration',
  demo: 'demonstration',
};

/** The method a named evidence node type implies (`target_node_type`, `expected_evidence`). */
const METHOD_OF_NODE_TYPE: Record<string, VerificationMethod> = {
  simulation_result: 'analysis',
  erc_report: 'analysis',
  drc_report: 'analysis',
  test_result: 'test',
  cad_model: 'inspection',
  technical_drawing: 'inspection',
  design_decision: 'review',
};

/** The evidence kind a node type is (a cad_model head is `geometry`); undefined when it is no evidence kind. */
export const EVIDENCE_KIND_OF_NODE_TYPE: Record<string, EvidenceKind> = {
  simulation_result: 'simulation_result',
  test_result: 'test_result',
  erc_report: 'erc_report',
  drc_report: 'drc_report',
  design_decision: 'design_decision',
  cad_model: 'geometry',
  technical_drawing: 'technical_drawing',
};

/** What can verify each method. */
export const EVIDENCE_FOR_METHOD: Record<VerificationMethod, EvidenceKind[]> = {
  analysis: ['simulation_result', 'erc_report', 'drc_report'],
  test: ['test_result'],
  inspection: ['geometry', 'technical_drawing'],
  review: ['design_decision'],
  demonstration: ['test_result', 'design_decision'],
};

/** The discipline a named node type belongs to. */
const DISCIPLINE_OF_NODE_TYPE: Record<string, string> = {
  erc_report: 'electronics',
  drc_report: 'electronics',
  schematic: 'electronics',
  pcb_layout: 'electronics',
  simulation_result: 'mechanical',
  cad_model: 'mechanical',
  technical_drawing: 'mechanical',
};

const MECHANICAL_UNITS = new Set([
  'MPa',
  'GPa',
  'kPa',
  'Pa',
  'N',
  'kN',
  'Nm',
  'N·m',
  'mm',
  'cm',
  'm',
  'µm',
  'um',
  'kg',
  'g',
]);
const ELECTRICAL_UNITS = new Set(['V', 'mV', 'kV', 'A', 'mA', 'µA', 'uA', 'W', 'mW', 'kW', 'Ω', 'ohm', 'kΩ', 'Hz']);
const ELECTRICAL_UNIT_PREFIXES = ['kHz', 'MHz', 'GHz', 'dB', 'Ah', 'mAh'];
const THERMAL_UNITS = new Set(['°C', 'degC', 'C', 'K']);

/**
 * Discipline of a requirement: from the node type it targets or expects, else its metric (the solver's and the
 * envelope's metrics are mechanical; `erc_*`/`drc_*` electronics), else its unit, else `general`.
 */
export function disciplineOf(c: ConstraintFields): string {
  for (const t of [c.target_node_type, c.expected_evidence])
    if (t && Object.hasOwn(DISCIPLINE_OF_NODE_TYPE, t)) return DISCIPLINE_OF_NODE_TYPE[t];
  if (ANALYSIS_METRICS.has(c.metric) || ENVELOPE_METRICS.includes(c.metric)) return 'mechanical';
  if (/^(erc|drc)_/.test(c.metric)) return 'electronics';
  const unit = c.unit.trim();
  if (MECHANICAL_UNITS.has(unit)) return 'mechanical';
  if (ELECTRICAL_UNITS.has(unit) || ELECTRICAL_UNIT_PREFIXES.some((p) => unit.startsWith(p))) return 'electronics';
  if (THERMAL_UNITS.has(unit)) return 'thermal';
  return 'general';
}

/** The method a free-text `verification_method` names (its first recognised word), if any. */
export function namedMethod(text: string): VerificationMethod | undefined {
  const norm = text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (Object.hasOwn(METHOD_WORDS, norm)) return METHOD_WORDS[norm];
  for (const word of norm.split(/[^a-z_]+|_/)) if (Object.hasOwn(METHOD_WORDS, word)) return METHOD_WORDS[word];
  return undefined;
}

/**
 * Verification method of a requirement, first rule that answers: the method its `verification_method` names; the
 * method its target or expected evidence type implies; its metric (a solver metric is analysis, an envelope metric
 * inspection); its discipline (mechanical: inspection of the geometry, electronics: test, thermal: analysis,
 * anything else: review).
 */
export function methodOf(c: ConstraintFields): VerificationMethod {
  const named = namedMethod(c.verification_method);
  if (named) return named;
  for (const t of [c.target_node_type, c.expected_evidence])
    if (t && Object.hasOwn(METHOD_OF_NODE_TYPE, t)) return METHOD_OF_NODE_TYPE[t];
  if (ANALYSIS_METRICS.has(c.metric)) return 'analysis';
  if (ENVELOPE_METRICS.includes(c.metric)) return 'inspection';
  const byDiscipline: Record<string, VerificationMethod> = {
    mechanical: 'inspection',
    electronics: 'test',
    thermal: 'analysis',
  };
  return byDiscipline[disciplineOf(c)] ?? 'review';
}

/**
 * Evidence kinds that can verify a requirement: the one its `target_node_type` names when that is an evidence kind
 * (a constraint aimed at test results is verified by test results only), else those of its method.
 */
export function evidenceKindsFor(c: ConstraintFields, method: VerificationMethod): EvidenceKind[] {
  const target = c.target_node_type ? ownValue(EVIDENCE_KIND_OF_NODE_TYPE, c.target_node_type) : undefined;
  return target ? [target] : EVIDENCE_FOR_METHOD[method];
}
