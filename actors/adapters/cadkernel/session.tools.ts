import crypto from 'node:crypto';
import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { ActorError } from '../../../brokers/errors.ts';
import { CadSessionsActions as A } from '../../../contracts/actions/cadsessions.actions.ts';
import { ExportModelArgs, SessionOpArgs, type SessionOpName } from '../../../contracts/cad-session.ts';
import { SANDBOX_DOC, type CadToolDeps } from '../kit/cad/common.ts';
import { OverwriteArg } from '../kit/output-args.ts';
import { defineTool, InvalidArgumentsError, ToolError, ToolUnavailableError, type ToolContext } from '../kit/tool.ts';

/** Actor calls of a session tool run as long as the tool's own deadline allows (the kit enforces it). */
const NO_BUS_TIMEOUT = { timeout: 3_600_000, retries: 0 };
const SessionId = { session_id: z.string().min(1).describe('id from cadkernel.open_session') };

/** One-line descriptions of the recorded operations (what the tool list shows). */
const OP_DOCS: Record<SessionOpName, string> = {
  create_primitive:
    'Add a parametric solid (box, beam, plate, cylinder, sphere, cone, torus, tube; parameters in mm; x, y, z place it) as part_N.',
  create_body: 'Add an empty body (body_N) that pads, revolves, lofts and sweeps can build into (body_id).',
  create_sketch:
    'Add a sketch (sketch_N): plane XY|XZ|YZ at offset mm, a profile (rectangle, circle, polygon, regular_polygon; path for sweeps) and optional hole profiles.',
  pad_sketch:
    'Extrude a sketch by length mm along its plane normal (negative: the other way); a new part, or fused into body_id.',
  pocket_sketch: 'Cut a sketch into target_id, depth mm against the plane normal (reversed: along it) or through_all.',
  revolve_sketch: 'Revolve a sketch by angle_deg about an axis (origin, direction); a new part or into body_id.',
  loft_sketches: 'Loft through two or more single-profile sketches (ruled or smooth); a new part or into body_id.',
  sweep_sketch: 'Sweep a closed profile along the path of a path sketch; a new part or into body_id.',
  fillet_edges:
    'Round edges of a solid (all, top, bottom, vertical, horizontal) by radius mm; an invalid result is refused, never returned.',
  chamfer_edges: 'Bevel edges of a solid by distance mm; checked like fillets.',
  shell_solid:
    'Hollow a solid to thickness mm, leaving the listed faces open (top by default); a shell that changes nothing is refused.',
  linear_pattern: 'Repeat a solid count times along direction at spacing mm, fused into one solid.',
  polar_pattern: 'Repeat a solid count times about an axis over angle_deg, fused into one solid.',
  mirror_feature:
    'Mirror a solid in a plane through origin, keeping (fusing) the original unless keep_original is false.',
  boolean:
    'Union, subtract or intersect tool_id into target_id (checked, with the raw-boolean retry); the tool is consumed unless keep_tool.',
  transform_object:
    'Rotate (axis, angle_deg about center, default the centre of mass), translate, or move to an absolute position; returns the verified placement (position, rotation axis and angle_deg), volume, area and global bounding box, and raises if the placement did not stick.',
  execute_code: `Run JavaScript against the kernel with the session's solids: getObject(id) returns a copy, listObjects() lists them; a solid \`result\` is added to the session and returned as obj_id. ${SANDBOX_DOC}`,
  import_step:
    'Import a STEP file from the workspace; every solid becomes a part named after its label, with parts[].color ([r,g,b] 0-1 or null) from the file.',
  create_assembly:
    'Group solids (part_ids) and/or new parts (SPEC "Assembly part" records) into an assembly (assembly_N).',
  add_assembly_joint:
    'Add a joint (name, type, base, follower parts of the assembly, anchor, axis, limits) to an assembly.',
};

/** An actor refusal as the kit's errors: unknown session and kernel refusals are tool errors, bad arguments invalid. */
function mapError(err: unknown): Error {
  if (!(err instanceof ActorError)) return err as Error;
  const data = (err.data as Record<string, unknown>) ?? {};
  if (err.type === 'NOT_FOUND') return new ToolError(err.message, { code: 'unknown_session', ...data });
  if (err.type === 'VALIDATION_FAILED') return new InvalidArgumentsError(err.message, data);
  if (err.type === 'SERVICE_UNAVAILABLE')
    return new ToolUnavailableError(`the CAD session actor is not reachable: ${err.message}`, data);
  return new ToolError(err.message, data);
}

/** Calls the session actor; when the call's deadline or a cancel fires, the actor kills the session's running command. */
async function sessionCall<T>(tc: ToolContext, sessionId: string, run: () => Promise<T>): Promise<T> {
  const onAbort = () =>
    void call(tc.ctx, A.cancel, {
      session_id: sessionId,
      reason: String((tc.signal.reason as Error)?.message ?? 'aborted'),
    }).catch(() => undefined);
  tc.signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await run();
  } catch (err) {
    throw mapError(err);
  } finally {
    tc.signal.removeEventListener('abort', onAbort);
  }
}

/** A recorded-operation tool: its schema plus session_id; the actor validates again and records it in the history. */
function opTool(op: Exclude<SessionOpName, 'import_step'>) {
  return defineTool({
    name: op,
    description: OP_DOCS[op],
    input: (SessionOpArgs[op] as z.ZodObject).extend(SessionId),
    handler: async (a: Record<string, unknown> & { session_id: string }, tc) => {
      const { session_id, ...args } = a;
      const r = await sessionCall(tc, session_id, () =>
        call(tc.ctx, A.command, { session_id, op, args }, NO_BUS_TIMEOUT),
      );
      return { session_id, ...r.result, feature_count: r.feature_count };
    },
  });
}

/** The 27 cadkernel session tools (TOOLS.md), served by the cadsessions actor. */
export function sessionTools(deps: CadToolDeps) {
  const ops = (Object.keys(SessionOpArgs) as SessionOpName[]).filter(
    (o): o is Exclude<SessionOpName, 'import_step'> => o !== 'import_step',
  );
  const query = (name: 'describe_model' | 'measure' | 'list_joints', description: string, input: z.ZodObject) =>
    defineTool({
      name,
      description,
      input: input.extend(SessionId),
      handler: async (a: Record<string, unknown> & { session_id: string }, tc) => {
        const { session_id, ...args } = a;
        const r = await sessionCall(tc, session_id, () =>
          call(tc.ctx, A.query, { session_id, name, args }, NO_BUS_TIMEOUT),
        );
        return { session_id, ...r.result };
      },
    });
  return [
    defineTool({
      name: 'open_session',
      description:
        'Open a CAD session (a scratch document on the OpenCascade kernel whose feature history is kept); returns session_id.',
      input: z.object({ name: z.string().max(300).optional(), project_id: z.string().nullable().optional() }),
      handler: async (a, tc) => {
        const session_id = crypto.randomUUID();
        const s = await sessionCall(tc, session_id, () =>
          call(tc.ctx, A.open, { session_id, name: a.name, project_id: a.project_id ?? tc.caller.project_id ?? null }),
        );
        return { ...s };
      },
    }),
    defineTool({
      name: 'close_session',
      description: 'Close a CAD session; its history and exports stay stored.',
      input: z.object(SessionId),
      handler: async (a, tc) => ({ ...(await sessionCall(tc, a.session_id, () => call(tc.ctx, A.close, a))) }),
    }),
    defineTool({
      name: 'describe_session',
      description:
        'The session: status, feature history (seq, op) and its objects with properties in the global frame.',
      input: z.object(SessionId),
      handler: async (a, tc) => ({
        ...(await sessionCall(tc, a.session_id, () => call(tc.ctx, A.describe, a, NO_BUS_TIMEOUT))),
      }),
    }),
    ...ops.map(opTool),
    defineTool({
      name: 'import_step',
      description: OP_DOCS.import_step,
      input: z.object({ ...SessionId, file_path: z.string().min(1), name: z.string().optional() }),
      handler: async (a, tc) => {
        await deps.workspace.resolveForRead(a.file_path, 'file_path');
        const args = a.name ? { name: a.name } : {};
        const r = await sessionCall(tc, a.session_id, () =>
          call(
            tc.ctx,
            A.command,
            { session_id: a.session_id, op: 'import_step', args, file_path: a.file_path },
            NO_BUS_TIMEOUT,
          ),
        );
        return { session_id: a.session_id, ...r.result, feature_count: r.feature_count };
      },
    }),
    query(
      'measure',
      'Measure a solid (or every solid) in the global frame: volume, area, bounding box, centre of mass, placement; with other_id also the minimum distance between the two.',
      SessionQueryInputs.measure,
    ),
    query(
      'describe_model',
      'Every object of the session (solids, bodies, sketches, assemblies) with properties and bounding boxes in the global frame.',
      SessionQueryInputs.describe_model,
    ),
    query('list_joints', 'Joints of one assembly (assembly_id) or of all assemblies.', SessionQueryInputs.list_joints),
    defineTool({
      name: 'export_model',
      description:
        'Export a solid, an assembly or the whole session as STEP: step_base64, volume_mm3, surface_area_mm2, bounding_box, and stored_properties measured from the written bytes; placements are baked when the file would carry them as axes. ' +
        'Colours: part_materials (part label to material), then color ([r,g,b] 0-1 or 0-255) or material (color wins), then the colour recorded at import; an unknown material leaves the part uncoloured. ' +
        'The export is stashed: twin.commit_geometry {session_id, obj_id} commits exactly these bytes.',
      input: ExportModelArgs.extend({ ...SessionId, output_path: z.string().optional(), overwrite: OverwriteArg }),
      handler: async (a, tc) => {
        const { session_id, output_path, overwrite, ...args } = a;
        if (output_path !== undefined) await deps.workspace.resolveOutput(output_path, 'output_path', overwrite);
        const r = await sessionCall(tc, session_id, () => call(tc.ctx, A.export, { session_id, args }, NO_BUS_TIMEOUT));
        let cad_file: string | undefined;
        if (output_path !== undefined) {
          cad_file = deps.workspace.relative(
            await deps.workspace.writeFile(output_path, Buffer.from(r.step_base64, 'base64'), 'output_path'),
          );
          tc.outputFiles.push(cad_file);
        }
        return {
          session_id,
          ...r.result,
          obj_id: r.obj_id,
          step_base64: r.step_base64,
          ...(cad_file ? { cad_file } : {}),
        };
      },
    }),
  ];
}

/** Query inputs (without session_id). */
const SessionQueryInputs = {
  measure: z.object({ object_id: z.string().optional(), other_id: z.string().optional() }),
  describe_model: z.object({}),
  list_joints: z.object({ assembly_id: z.string().optional() }),
};
