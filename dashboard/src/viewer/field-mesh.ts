/**
 * The field's 3D objects: the surface mesh (one BufferGeometry over the payload's typed arrays, coloured per vertex
 * by the chosen scalar, displaced by scale x displacement), fixture boxes, load arrows and the peak marker. Changing
 * the scale or the quantity rewrites the existing buffers in place; nothing is allocated per vertex.
 */
import {
  ArrowHelper,
  Box3,
  Box3Helper,
  BufferAttribute,
  BufferGeometry,
  Color,
  DoubleSide,
  Group,
  Mesh,
  MeshBasicMaterial,
  MeshLambertMaterial,
  SphereGeometry,
  Vector3,
} from 'three';
import { colours } from './colormap.ts';
import { partSize, type FieldData, type ScalarField } from './field-data.ts';

export const FIXTURE_COLOUR = 0x2563eb;
export const LOAD_COLOUR = 0xea580c;
export const PEAK_COLOUR = 0xd946ef;

export interface FieldObjects {
  group: Group;
  /** Moves the vertices to position + scale x displacement (and the markers that sit on the surface). */
  setScale(scale: number): void;
  /** Colours the surface by one of the field's scalars and moves the peak marker to its peak. */
  setQuantity(field: ScalarField): void;
}

export function buildFieldObjects(f: FieldData): FieldObjects {
  const n = f.vertexCount;
  const deformed = new Float32Array(f.positions);
  const geometry = new BufferGeometry();
  const position = new BufferAttribute(deformed, 3);
  const colour = new BufferAttribute(new Float32Array(n * 3), 3);
  geometry.setAttribute('position', position);
  geometry.setAttribute('color', colour);
  geometry.setIndex(new BufferAttribute(f.indices, 1));
  geometry.computeVertexNormals();
  const surface = new Mesh(
    geometry,
    new MeshLambertMaterial({ vertexColors: true, side: DoubleSide, polygonOffset: true, polygonOffsetFactor: 1 }),
  );
  surface.name = 'field-surface';
  const group = new Group();
  group.add(surface);

  const size = partSize(f);
  /** Load arrows ride on the deformed surface: each follows the vertex nearest its point. */
  const loads: { arrow: ArrowHelper; tail: Vector3; vertex: number }[] = [];
  for (const m of f.markers) {
    if (m.kind === 'fixture') {
      const box = new Box3(new Vector3(...m.bbox.min), new Vector3(...m.bbox.max)).expandByScalar(size * 0.01);
      const helper = new Box3Helper(box, new Color(FIXTURE_COLOUR));
      helper.name = `fixture ${m.label}`;
      group.add(helper);
    } else {
      const dir = new Vector3(...m.vector);
      if (dir.lengthSq() === 0) continue;
      dir.normalize();
      const length = size * 0.18;
      const tail = new Vector3(...m.position).addScaledVector(dir, -length);
      const arrow = new ArrowHelper(dir, tail, length, LOAD_COLOUR, length * 0.3, length * 0.15);
      arrow.name = `load ${m.label}`;
      group.add(arrow);
      loads.push({ arrow, tail, vertex: nearestVertex(f.positions, m.position) });
    }
  }

  const peak = new Mesh(
    new SphereGeometry(size * 0.012, 16, 12),
    new MeshBasicMaterial({ color: PEAK_COLOUR, depthTest: false, transparent: true, opacity: 0.9 }),
  );
  peak.renderOrder = 10; // drawn last without a depth test: visible even behind the part
  peak.name = 'peak';
  group.add(peak);

  let scale = 0;
  let peakAt = { base: new Vector3(), vertex: -1 };
  /** p moved by scale x the displacement of vertex v (unmoved without displacement). */
  const displaced = (p: Vector3, v: number) => {
    if (v >= 0 && f.displacement.length) {
      const i = v * 3;
      p.x += scale * f.displacement[i];
      p.y += scale * f.displacement[i + 1];
      p.z += scale * f.displacement[i + 2];
    }
    return p;
  };
  const placePeak = () => peak.position.copy(displaced(peakAt.base.clone(), peakAt.vertex));

  return {
    group,
    setScale(s) {
      scale = s;
      const base = f.positions;
      const d = f.displacement;
      if (d.length === base.length) {
        for (let i = 0; i < base.length; i++) deformed[i] = base[i] + s * d[i];
        position.needsUpdate = true;
        geometry.computeVertexNormals();
        geometry.computeBoundingSphere();
        geometry.computeBoundingBox();
      }
      for (const l of loads) l.arrow.position.copy(displaced(l.tail.clone(), l.vertex));
      placePeak();
    },
    setQuantity(field) {
      colours(field.values, field.min, field.max, colour.array as Float32Array);
      colour.needsUpdate = true;
      peakAt = { base: new Vector3(...field.peak.position), vertex: nearestVertex(f.positions, field.peak.position) };
      placePeak();
    },
  };
}

/** The vertex nearest a point (the peak comes from the full field; the surface may be simplified). */
function nearestVertex(pos: Float32Array, p: [number, number, number]): number {
  let best = -1;
  let bestD = Infinity;
  for (let i = 0; i < pos.length; i += 3) {
    const d = (pos[i] - p[0]) ** 2 + (pos[i + 1] - p[1]) ** 2 + (pos[i + 2] - p[2]) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i / 3;
    }
  }
  return best;
}
