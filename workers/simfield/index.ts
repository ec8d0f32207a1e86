export { buildField, type BuildFieldResult, type FieldOutcome, type FrdSummary } from './field-task.ts';
export { prepareDeck, type PreparedDeck } from './deck.ts';
export { meshQuality, type MeshQuality } from './mesh-quality.ts';
export { namedFaces, type NamedFaces, type SurfaceSet } from './named-faces.ts';
export { probeFrd, type Probe } from './probe.ts';
export { parseFrd, readBlock, FrdError, type FrdFile, type FrdBlock } from './frd-parse.ts';
export { parseInp, InpError, type InpMesh } from './inp-parse.ts';
export { outerSurface } from './surface.ts';
export { fitPayload, encodePayload, gzipPayload } from './payload.ts';
