import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context, ServiceSchema } from 'moleculer';
import { action, call } from '../../brokers/actions.ts';
import { createBlobStore, type BlobStore } from '../../brokers/blobs.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { Infra } from '../../brokers/infra.ts';
import { MeshActions } from '../../contracts/actions/mesh.actions.ts';
import { TwinActions as T } from '../../contracts/actions/twin.actions.ts';
import type { NamedFacesRequest } from '../../contracts/simulation-mesh.ts';
import { InvalidArgumentsError, ToolError, ToolUnavailableError } from '../adapters/kit/tool.ts';
import { Workspace, workspaceRoot } from '../adapters/kit/workspace.ts';
import type { SimFieldPool } from '../../workers/simfield/pool.ts';
import { meshStep } from '../adapters/kit/engines/gmsh.ts';
import { createToolSimFieldPool } from '../adapters/kit/engines/simfield.ts';
import { existingFile } from '../adapters/kit/existing-file.ts';

/** How long one naming may take (gmsh on a coarse mesh; large assemblies take seconds). */
const NAMING_TIMEOUT_MS = 120_000;

/**
 * The named-faces actor (`simmesh`, hosted with the solver adapter where gmsh is): answers the face naming of
 * `cadkernel.generate_mesh` for a workspace STEP or a twin node's stored STEP, meshing coarsely and keeping no mesh.
 * Refusals map to the catalogue: a bad path or a file that is no STEP 422, gmsh missing 503, an unknown node 404.
 */
export function createMeshFacesService(infra: Infra): ServiceSchema {
  const workspace = new Workspace(workspaceRoot(infra.config));
  let pool: SimFieldPool | undefined;
  let blobs: BlobStore | undefined;

  async function stepOf(req: NamedFacesRequest, ctx: Context, dir: string): Promise<string> {
    if (req.file_path) return existingFile(workspace, req.file_path, 'file_path');
    const node = await call(ctx, T.getNode, { node_id: req.node_id });
    if (!node.object_key)
      throw new InvalidArgumentsError(`node ${node.id} (${node.node_type} ${node.name}) has no stored file`);
    blobs ??= createBlobStore(await infra.db());
    const blob = await blobs.getByKey(node.object_key);
    if (!blob) throw new ToolError(`the file of node ${node.id} is missing from the blob store (${node.object_key})`);
    const file = path.join(dir, 'source.step');
    await fs.writeFile(file, blob.content);
    return file;
  }

  return {
    name: 'simmesh',
    actions: {
      namedFaces: action(MeshActions.namedFaces, async (req, ctx) => {
        const controller = new AbortController();
        const timer = setTimeout(
          () => controller.abort(new ToolError(`naming the faces took longer than ${NAMING_TIMEOUT_MS / 1000} s`)),
          NAMING_TIMEOUT_MS,
        );
        const dir = await workspace.scratch('simulation.named-faces');
        try {
          const stepPath = await stepOf(req, ctx, dir);
          pool ??= createToolSimFieldPool({ maxThreads: 1 });
          const m = await meshStep({
            stepPath,
            dir,
            meshPath: null,
            elementSizeMm: req.element_size_mm,
            curved: false,
            signal: controller.signal,
            pool,
          });
          return {
            source: req.file_path ? { file_path: req.file_path } : { node_id: req.node_id },
            surface_sets: m.named.surface_sets,
            face_count: Object.keys(m.named.surface_sets).length,
            mesh_bbox_mm: m.named.mesh_bbox_mm,
            coordinate_frame: 'twin' as const,
            placement_baked: true,
          };
        } catch (err) {
          if (err instanceof ToolUnavailableError)
            throw new ActorError('SERVICE_UNAVAILABLE', err.message, { missing: 'gmsh' });
          if (err instanceof ToolError)
            throw ActorError.validation(
              [{ path: req.file_path ? 'body.file_path' : 'body.node_id', message: err.message }],
              err.message,
            );
          throw err;
        } finally {
          clearTimeout(timer);
          await fs.rm(dir, { recursive: true, force: true });
        }
      }),
    },
    async stopped() {
      await pool?.destroy();
    },
  };
}
