export { createGateSource } from './gates.source.ts';
export type { ProjectScope } from './gates.source.ts';
export { listLedger } from './ledger.source.ts';
