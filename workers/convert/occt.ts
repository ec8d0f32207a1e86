import { createRequire } from 'node:module';

/** One triangle range of a mesh that came from one B-rep face, with the face's colour when the file gives one. */
export interface OcctFaceRange {
  first: number;
  last: number;
  color: [number, number, number] | null;
}

/** One tessellated part as occt-import-js 0.0.23 returns it (positions in the requested unit, transforms baked in). */
export interface OcctMesh {
  name: string;
  color?: [number, number, number];
  brep_faces: OcctFaceRange[];
  attributes: { position: { array: ArrayLike<number> }; normal?: { array: ArrayLike<number> } };
  index: { array: ArrayLike<number> };
}

/** The assembly tree: node names and the meshes each node holds. */
export interface OcctNode {
  name: string;
  meshes: number[];
  children: OcctNode[];
}

/** What `ReadStepFile` / `ReadIgesFile` answer. */
export interface OcctResult {
  success: boolean;
  root?: OcctNode;
  meshes?: OcctMesh[];
}

/** Reader parameters (cad-kernel.md: absolute deflection in mm for predictable triangle counts). */
export interface OcctParams {
  linearUnit: 'millimeter' | 'centimeter' | 'meter' | 'inch' | 'foot';
  linearDeflectionType: 'bounding_box_ratio' | 'absolute_value';
  linearDeflection: number;
  angularDeflection: number;
}

/** The occt-import-js module instance (one per thread; never shared). */
export interface Occt {
  ReadStepFile(bytes: Uint8Array, params: OcctParams | null): OcctResult;
  ReadIgesFile(bytes: Uint8Array, params: OcctParams | null): OcctResult;
  HEAPU8: Uint8Array;
}

const require = createRequire(import.meta.url);
const factory = require('occt-import-js') as (module?: {
  print?: (s: string) => void;
  printErr?: (s: string) => void;
}) => Promise<Occt>;

/**
 * Instantiates occt-import-js (70–80 ms warm). Its readers print to stdout ("Total number of loaded entities", parse
 * errors), which would corrupt a stdio transport: `print`/`printErr` go to `sink` instead.
 */
export function loadOcct(sink: (line: string) => void = () => undefined): Promise<Occt> {
  return factory({ print: sink, printErr: sink });
}

/** Bytes the instance's wasm heap holds now (it grows and never shrinks). */
export const heapBytes = (occt: Occt) => occt.HEAPU8.buffer.byteLength;
