export { createGateSource } from './gates.source.ts';
export type { ProjectScope } from './gates.source.ts';
export { createLedgerSource } from './ledger.source.ts';
