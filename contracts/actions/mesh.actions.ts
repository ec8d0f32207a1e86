import { defineAction } from '../define.ts';
import { NamedFacesRequestSchema, NamedFacesResponseSchema } from '../simulation-mesh.ts';

/** The named-faces actor (gmsh; hosted with the solver adapter): the face naming of a STEP for `/v1/simulation/named-faces`. */
export const MeshActions = {
  namedFaces: defineAction('simmesh.namedFaces', NamedFacesRequestSchema, NamedFacesResponseSchema),
} as const;
