import type { AnyShape, Shape3D } from 'replicad';
import type { AssemblyJoint } from '../../../contracts/cad.ts';
import type { Profile } from '../../../contracts/cad-session.ts';
import { KernelArgumentError } from '../errors.ts';
import { propertiesOf } from '../measure.ts';
import { IDENTITY, describePlacement, type Placement, type Vec3 } from './placement.ts';

/** A sketch kept as data: replicad sketches are consumed by the feature that uses them, so each use rebuilds it. */
export interface SketchData {
  plane: 'XY' | 'XZ' | 'YZ';
  offset: number;
  profile: Profile;
  holes: Profile[];
}

/** One object of a session document: a solid (or an empty body), a sketch, or an assembly of solids. */
export interface DocObject {
  id: string;
  kind: 'solid' | 'body' | 'sketch' | 'assembly';
  name: string;
  shape?: Shape3D;
  sketch?: SketchData;
  /** Assembly members (object ids) and joints. */
  parts?: string[];
  joints?: AssemblyJoint[];
  /** Where the object should be, and its centre of mass at the identity placement (to verify transforms). */
  placement: Placement;
  localCom?: Vec3;
  /** Colour recorded when the object came from a STEP import ([r,g,b] 0-1), else null. */
  importColor: [number, number, number] | null;
}

/**
 * The in-memory document of one session inside its kernel thread. `seq` is how many features of the history it
 * has applied; object ids (`part_N`, `sketch_N`, `body_N`, `assembly_N`) come from per-kind counters, so replaying
 * the same history always yields the same ids.
 */
export class SessionDoc {
  seq = 0;
  readonly objects = new Map<string, DocObject>();
  private readonly counters: Record<string, number> = {};

  /** The next id of a prefix (`part`, `sketch`, `body`, `assembly`). */
  nextId(prefix: string): string {
    this.counters[prefix] = (this.counters[prefix] ?? 0) + 1;
    return `${prefix}_${this.counters[prefix]}`;
  }

  /** Adds an object; a solid's local centre of mass is taken from its current geometry. */
  add(
    o: Omit<DocObject, 'placement' | 'importColor'> & Partial<Pick<DocObject, 'placement' | 'importColor'>>,
  ): DocObject {
    const obj: DocObject = { placement: IDENTITY, importColor: null, ...o };
    if (obj.shape && !obj.localCom) obj.localCom = propertiesOf(obj.shape).center_of_mass;
    this.objects.set(obj.id, obj);
    return obj;
  }

  /** An object by id, or invalid arguments naming the id and the kinds expected. */
  get(id: string, kinds: DocObject['kind'][]): DocObject {
    const o = this.objects.get(id);
    if (!o)
      throw new KernelArgumentError(
        `no object ${id} in this session; objects: ${[...this.objects.keys()].join(', ') || 'none'}`,
        { object_id: id },
      );
    if (!kinds.includes(o.kind))
      throw new KernelArgumentError(`${id} is a ${o.kind}, expected a ${kinds.join(' or ')}`, { object_id: id });
    return o;
  }

  /** A solid object with geometry. */
  solid(id: string): DocObject & { shape: Shape3D } {
    const o = this.get(id, ['solid', 'body']);
    if (!o.shape)
      throw new KernelArgumentError(`${id} is an empty body; pad a sketch into it first`, { object_id: id });
    return o as DocObject & { shape: Shape3D };
  }

  /** Replaces an object's geometry (the old shape is freed). */
  setShape(o: DocObject, shape: Shape3D): void {
    if (o.shape && o.shape !== shape) o.shape.delete();
    o.shape = shape;
    if (o.kind === 'body') o.kind = 'solid';
  }

  /** Removes an object and frees its shape. */
  remove(id: string): void {
    const o = this.objects.get(id);
    o?.shape?.delete();
    this.objects.delete(id);
  }

  /** Frees every shape (the document is dropped). */
  dispose(): void {
    for (const o of this.objects.values()) o.shape?.delete();
    this.objects.clear();
  }

  /** An object as the tools report it: id, kind, name, and for solids the properties and placement. */
  describe(o: DocObject): Record<string, unknown> {
    const base = { obj_id: o.id, kind: o.kind, name: o.name };
    if (o.kind === 'sketch')
      return { ...base, plane: o.sketch!.plane, offset: o.sketch!.offset, profile: o.sketch!.profile.type };
    if (o.kind === 'assembly') return { ...base, parts: o.parts, joint_count: o.joints?.length ?? 0 };
    if (!o.shape) return { ...base, empty: true };
    return {
      ...base,
      ...propertiesOf(o.shape as AnyShape),
      placement: describePlacement(o.placement),
      import_color: o.importColor,
    };
  }
}
