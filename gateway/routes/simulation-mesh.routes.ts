import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { call } from '../../brokers/actions.ts';
import { MeshActions } from '../../contracts/actions/mesh.actions.ts';
import { NamedFacesRequestSchema, NamedFacesResponseSchema } from '../../contracts/simulation-mesh.ts';
import type { GatewayDeps } from '../deps.ts';

/** gmsh meshes the part to name its faces: allow it more than the default actor-call timeout. */
const NAMING_TIMEOUT_MS = 130_000;

/**
 * `POST /v1/simulation/named-faces` (SPEC "Twin, files, simulation, other"): the face naming of `cadkernel.generate_mesh`
 * (SPEC rule 9: `Face<n>` with bbox_mm, centroid_mm, area_mm2, normal; mesh_bbox_mm; coordinate_frame `twin`;
 * placement_baked) for a workspace STEP (`file_path`) or a twin node's stored STEP (`node_id`).
 */
export function simulationMeshRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/named-faces',
      { schema: { body: NamedFacesRequestSchema, response: { 200: NamedFacesResponseSchema } } },
      (req) => call(deps.caller, MeshActions.namedFaces, req.body, { timeout: NAMING_TIMEOUT_MS }),
    );
  };
}
