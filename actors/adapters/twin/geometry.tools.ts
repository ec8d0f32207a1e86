import path from 'node:path';
import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { CadStashActions } from '../../../contracts/actions/cad.actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { defineTool, InvalidArgumentsError, ToolError, type ToolContext } from '../kit/tool.ts';
import { given, projectOf, twinCall, writerOf, type TwinToolDeps } from './common.ts';
import { DefinitionRefArgs, writeResult } from './record.tools.ts';

const isStep = (b: Buffer) => b.subarray(0, 64).toString('latin1').includes('ISO-10303-21');

/** The stash copy of a session export, or undefined on a miss (no CAD session actor, or nothing stashed). */
async function fromStash(tc: ToolContext, sessionId: string, objId: string): Promise<Buffer | undefined> {
  try {
    const r = await call(
      tc.ctx,
      CadStashActions.get,
      { session_id: sessionId, obj_id: objId },
      { timeout: 5000, retries: 0 },
    );
    return r.found ? Buffer.from(r.step_base64, 'base64') : undefined;
  } catch {
    return undefined;
  }
}

/** `twin.commit_geometry` (rule 6) and `twin.stage_work_product_file`. */
export function geometryTools(deps: TwinToolDeps) {
  return [
    defineTool({
      name: 'commit_geometry',
      description:
        'Commit geometry as the next revision of a cad_model item: from a CAD session export (session_id + obj_id, taken from the export stash), step_base64, or file_path (workspace). The stash copy wins over step_base64.',
      input: z.object({
        project_id: z.string().nullable().optional(),
        name: z.string().min(1).max(300),
        session_id: z.string().optional(),
        obj_id: z.string().optional(),
        step_base64: z.string().optional(),
        file_path: z.string().optional(),
        material: z.string().optional(),
        properties: z.record(z.string(), z.unknown()).default({}),
        ...DefinitionRefArgs,
      }),
      handler: async (a, tc) => {
        let bytes: Buffer | undefined;
        let source: string | undefined;
        if (given(a.session_id) && given(a.obj_id)) {
          const stashed = await fromStash(tc, a.session_id, a.obj_id);
          if (stashed) {
            if (given(a.step_base64) && !Buffer.from(a.step_base64, 'base64').equals(stashed)) {
              tc.log.warn(
                { session: a.session_id, obj: a.obj_id },
                'commit_geometry: step_base64 differs from the stashed export; the stash copy is committed',
              );
            }
            bytes = stashed;
            source = 'stash';
          }
        }
        if (!bytes && given(a.step_base64)) [bytes, source] = [Buffer.from(a.step_base64, 'base64'), 'step_base64'];
        if (!bytes && a.file_path !== undefined)
          [bytes, source] = [await deps.workspace.read(a.file_path, 'file_path'), 'file_path'];
        if (!bytes) {
          const absent = ['session_id', 'obj_id', 'step_base64'].filter((k) => !given(a[k as 'session_id']));
          throw new ToolError(
            `no geometry to commit: ${absent.length ? `${absent.join(', ')} ${absent.length > 1 ? 'are' : 'is'} absent` : 'the session export was not found in the stash'}${given(a.session_id) ? '' : ''} (give session_id and obj_id of an export, step_base64, or file_path)`,
          );
        }
        if (!isStep(bytes))
          throw new InvalidArgumentsError(`the geometry from ${source} is not a STEP file (no ISO-10303-21 header)`);
        const blob = await (await deps.blobs()).put(bytes, 'model/step');
        const w = await twinCall(
          call(tc.ctx, T.writeDefinition, {
            project_id: projectOf(tc, a.project_id),
            item_type: 'cad_model',
            name: a.name,
            properties: {
              ...a.properties,
              format: 'step',
              size_bytes: bytes.length,
              source,
              ...(a.material ? { material: a.material } : {}),
              ...(given(a.session_id) ? { session_id: a.session_id, obj_id: a.obj_id } : {}),
            },
            file: {
              sha256: blob.sha256,
              name: `${a.name.replace(/[^A-Za-z0-9_.-]+/g, '_')}.step`,
              media_type: 'model/step',
            },
            item_key: a.item_key,
            supersedes: a.supersedes,
            change_reason: a.change_reason,
            writer: writerOf(tc),
          }),
        );
        return { ...writeResult(w), content_hash: blob.sha256, size_bytes: bytes.length, source };
      },
    }),
    defineTool({
      name: 'stage_work_product_file',
      description:
        "Copy a work product's stored file (node_id, or item_key for your current revision) into the workspace and return its file_path and what to do next.",
      input: z.object({ node_id: z.string().optional(), item_key: z.string().optional() }),
      handler: async (a, tc) => {
        if (!given(a.node_id) && !given(a.item_key)) throw new InvalidArgumentsError('give node_id or item_key');
        const node = await twinCall(
          call(tc.ctx, T.getNode, { node_id: a.node_id, item_key: a.item_key, run_id: tc.caller.run_id }),
        );
        if (!node.object_key)
          throw new ToolError(`node ${node.id} (${node.node_type} ${node.name}) has no stored file`);
        const blob = await (await deps.blobs()).getByKey(node.object_key);
        if (!blob)
          throw new ToolError(`the file of node ${node.id} is missing from the blob store (${node.object_key})`);
        const rel = path.posix.join('staged', node.id, path.posix.basename(node.object_key));
        await deps.workspace.writeFile(rel, blob.content, 'file_path').catch((err: Error) => {
          throw err instanceof InvalidArgumentsError
            ? new ToolError(`cannot stage the file: ${err.message}`, { file_path: rel })
            : err;
        });
        tc.outputFiles.push(rel);
        const step = /\.(step|stp)$/i.test(rel);
        return {
          file_path: rel,
          node_id: node.id,
          item_ref: node.item_ref,
          size_bytes: blob.size_bytes,
          content_hash: blob.sha256,
          next_step: step
            ? `Import it with cadkernel.import_step {file_path: "${rel}"} or describe it with cadkernel.describe_step_file {file_path: "${rel}"}; mesh it for the solver with cadkernel.generate_mesh.`
            : `Read it from the workspace at ${rel}, or describe it with the tool that reads its format.`,
        };
      },
    }),
  ];
}
