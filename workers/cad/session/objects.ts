import * as replicad from 'replicad';
import type { Shape3D } from 'replicad';
import { KernelArgumentError, KernelError } from '../errors.ts';
import { as3d, readShape } from '../formats.ts';
import { boundingBox, propertiesOf, volumeOf } from '../measure.ts';
import { capResult, checkedResult, isShape, runScript, toPlain } from '../sandbox.ts';
import { buildAssemblyPart } from '../stateless.ts';
import { matchLabels, stepLabels } from '../step-info.ts';
import type { SessionDoc } from './doc.ts';
import type { OpArgs } from './features.ts';
import {
  apply,
  compose,
  describePlacement,
  rotationAbout,
  translation,
  type Placement,
  type Vec3,
} from './placement.ts';

/** Points that pin a solid's placement: its centre of mass and the centroids of up to four faces (off any axis). */
function probes(shape: Shape3D): Vec3[] {
  const pts: Vec3[] = [propertiesOf(shape).center_of_mass];
  for (const f of shape.faces.slice(0, 4)) {
    const p = replicad.measureShapeSurfaceProperties(f);
    pts.push(p.centerOfMass as Vec3);
    p.delete();
    f.delete();
  }
  return pts;
}

/**
 * transform_object (SPEC rule 8): rotates (about `center`, default the centre of mass), translates, and moves to an
 * absolute `position`; then verifies that the geometry really moved as recorded (centre of mass and face centroids
 * against the expected placement, volume unchanged) and raises rather than report success when it did not.
 */
export function transformObject(doc: SessionDoc, a: OpArgs<'transform_object'>) {
  const o = doc.solid(a.object_id);
  if (!a.translate && !a.rotate && !a.position) throw new KernelArgumentError('give translate, rotate or position');
  const before = probes(o.shape);
  const v0 = volumeOf(o.shape);
  let delta: Placement = translation([0, 0, 0]);
  let moved = o.shape.clone();
  if (a.rotate) {
    const center = a.rotate.center ?? before[0];
    delta = compose(rotationAbout(a.rotate.axis, a.rotate.angle_deg, center), delta);
    moved = moved.rotate(a.rotate.angle_deg, center, a.rotate.axis);
  }
  if (a.translate) {
    delta = compose(translation(a.translate), delta);
    moved = moved.translate(a.translate);
  }
  if (a.position) {
    const at = compose(delta, o.placement).t;
    const extra: Vec3 = [a.position[0] - at[0], a.position[1] - at[1], a.position[2] - at[2]];
    delta = compose(translation(extra), delta);
    moved = moved.translate(extra);
  }
  const after = probes(moved);
  const size = Math.hypot(...boundingBox(o.shape).size) + 1;
  const deviation = Math.max(...before.map((p, i) => Math.hypot(...apply(delta, p).map((c, k) => c - after[i][k]))));
  if (!(deviation <= 1e-6 * size) || Math.abs(volumeOf(moved) - v0) > 1e-6 * v0) {
    moved.delete();
    throw new KernelError(
      `the placement of ${a.object_id} did not stick: the geometry is ${deviation.toFixed(6)} mm from the requested placement`,
      { object_id: a.object_id, deviation_mm: deviation },
    );
  }
  doc.setShape(o, moved);
  o.placement = compose(delta, o.placement);
  return { ...doc.describe(o), verified: true, deviation_mm: deviation };
}

/** import_step (SPEC rule 8): every solid becomes a part named after its STEP label, with parts[].color from the file. */
export async function importStep(doc: SessionDoc, a: OpArgs<'import_step'>, bytes: Uint8Array) {
  const shape = await readShape(bytes, 'step', a.file_name);
  const solids: Shape3D[] = shape.solids.length ? shape.solids : [as3d(shape, a.file_name)];
  const labels = matchLabels(solids, await stepLabels(bytes));
  const parts = solids.map((s, i) => {
    const id = doc.nextId('part');
    const name = solids.length === 1 && a.name ? a.name : (labels[i]?.name ?? `${a.name ?? 'part'}_${i + 1}`);
    const o = doc.add({ id, kind: 'solid', name, shape: s, importColor: labels[i]?.color ?? null });
    return { ...doc.describe(o), color: o.importColor };
  });
  if (!solids.includes(shape as Shape3D)) shape.delete();
  return { file_name: a.file_name, part_count: parts.length, parts };
}

/** execute_code (SPEC rule 8): the script sees the session's solids through getObject(id) (copies) and listObjects(). */
export async function executeCode(doc: SessionDoc, a: OpArgs<'execute_code'>) {
  const extra = {
    getObject: (id: string) => doc.solid(String(id)).shape.clone(),
    listObjects: () => [...doc.objects.values()].map((o) => ({ obj_id: o.id, kind: o.kind, name: o.name })),
  };
  const run = await runScript(a.code, { timeoutMs: (a.cpu_seconds ?? 300) * 1000, params: a.params, extra });
  checkedResult(run.value);
  let objId: string | undefined;
  if (isShape(run.value) && replicad.isShape3D(run.value)) {
    objId = doc.nextId('part');
    doc.add({ id: objId, kind: 'solid', name: a.name ?? objId, shape: run.value.clone() });
  }
  return {
    ...capResult(toPlain(run.value)),
    logs: run.logs,
    ...(objId ? { obj_id: objId } : {}),
    mutated: objId !== undefined,
  };
}

/** create_assembly (SPEC "Assembly part"): groups existing solids and/or builds new parts into an assembly object. */
export function createAssembly(doc: SessionDoc, a: OpArgs<'create_assembly'>) {
  const ids = a.part_ids.map((id) => doc.solid(id).id);
  for (const p of a.parts) {
    const id = doc.nextId('part');
    doc.add({ id, kind: 'solid', name: p.name, shape: buildAssemblyPart({ ...p, holes: p.holes as never }) });
    ids.push(id);
  }
  if (!ids.length) throw new KernelArgumentError('an assembly needs part_ids or parts');
  if (new Set(ids).size !== ids.length) throw new KernelArgumentError('a part appears twice in the assembly');
  const id = doc.nextId('assembly');
  doc.add({ id, kind: 'assembly', name: a.name, parts: ids, joints: [] });
  return { obj_id: id, name: a.name, part_count: ids.length, parts: ids.map((p) => doc.describe(doc.objects.get(p)!)) };
}

/** add_assembly_joint (SPEC "Assembly joint"): base and follower are members of the assembly (by obj_id or name). */
export function addJoint(doc: SessionDoc, a: OpArgs<'add_assembly_joint'>) {
  const asm = doc.get(a.assembly_id, ['assembly']);
  const member = (ref: string, role: string) => {
    const hit = asm.parts!.find((id) => id === ref || doc.objects.get(id)?.name === ref);
    if (!hit)
      throw new KernelArgumentError(
        `${role} ${ref} is not a part of ${a.assembly_id}; parts: ${asm.parts!.join(', ')}`,
        { [role]: ref },
      );
    return hit;
  };
  const [base, follower] = [member(a.base, 'base'), member(a.follower, 'follower')];
  if (base === follower) throw new KernelArgumentError('a joint needs two different parts');
  if (asm.joints!.some((j) => j.name === a.name))
    throw new KernelArgumentError(`${a.assembly_id} already has a joint named ${a.name}`);
  const { assembly_id: _id, ...joint } = a;
  asm.joints!.push({ ...joint, base, follower });
  return { assembly_id: asm.id, joint: { ...joint, base, follower }, joint_count: asm.joints!.length };
}

/** list_joints: joints of one assembly or of all. */
export function listJoints(doc: SessionDoc, a: { assembly_id?: string }) {
  const asms = a.assembly_id
    ? [doc.get(a.assembly_id, ['assembly'])]
    : [...doc.objects.values()].filter((o) => o.kind === 'assembly');
  return { joints: asms.flatMap((asm) => asm.joints!.map((j) => ({ assembly_id: asm.id, ...j }))) };
}

/** Placement of an object as reported by describe tools. */
export const placementOf = (p: Placement) => describePlacement(p);
