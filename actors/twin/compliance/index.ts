export { complianceActions, complianceReport } from './compliance.actions.ts';
export { readComplianceRows } from './compliance.reads.ts';
export { evidenceNodes, statedValues } from './evidence.rules.ts';
export type { EvidenceNode, GeometryPin, HeadRow, RecordRow } from './evidence.rules.ts';
export { packItems, requirementItems } from './items.rules.ts';
export { disciplineOf, evidenceKindsFor, methodOf } from './methods.rules.ts';
export { PACKS, PRODUCT_TYPE_OF_FLOW } from './packs/index.ts';
export { breakdown, coverageOf, evaluateCompliance } from './report.rules.ts';
export type { ComplianceInput, ComplianceReport } from './report.rules.ts';
