/** The layout's request and result, as the bus contract defines them (contracts/eda-layout.ts). */
export type { LayoutRequest, LayoutResult } from '../../../../contracts/eda-layout.ts';
