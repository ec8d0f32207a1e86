import { Document, NodeIO, type Material, type Mesh, type Node } from '@gltf-transform/core';
import type { ConversionMaterial, MeshCounts, PartNode } from './convert.schemas.ts';
import type { OcctMesh, OcctNode } from './occt.ts';

/** Colour of parts and faces the file leaves uncoloured (a neutral grey). */
const DEFAULT_COLOR: [number, number, number] = [0.8, 0.8, 0.8];

const hex = (c: readonly number[]) =>
  `#${c
    .map((v) =>
      Math.round(Math.min(1, Math.max(0, v)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** Triangle index lists of one mesh grouped by colour: face colour, else part colour, else the default. */
function trianglesByColor(m: OcctMesh): Map<string, { color: number[]; indices: ArrayLike<number> }> {
  const idx = m.index.array;
  const triangles = idx.length / 3;
  const partColor = m.color ?? DEFAULT_COLOR;
  // Most parts have no face colours: one group holding the whole index list, no per-triangle work.
  if (!(m.brep_faces ?? []).some((f) => f.color))
    return new Map([[hex(partColor), { color: [...partColor], indices: idx }]]);
  const colorOf = new Array<readonly number[]>(triangles).fill(partColor);
  for (const f of m.brep_faces ?? [])
    if (f.color) for (let t = f.first; t <= f.last && t < triangles; t++) colorOf[t] = f.color;
  const groups = new Map<string, { color: number[]; indices: number[] }>();
  for (let t = 0; t < triangles; t++) {
    const key = hex(colorOf[t]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { color: [...colorOf[t]], indices: [] }));
    g.indices.push(idx[3 * t], idx[3 * t + 1], idx[3 * t + 2]);
  }
  return groups;
}

/**
 * Builds the GLB (cad-kernel.md "STEP/IGES → GLB"): one glTF mesh per part, one primitive per distinct face/part colour
 * sharing the part's vertex accessors, one material per colour, the node tree from the file's tree, and the root scaled by
 * 0.001 (mm → m). Returns the bytes and the metadata of the conversion result (part tree, stats, materials).
 */
export async function buildGlb(
  root: OcctNode,
  meshes: OcctMesh[],
): Promise<{ glb: Uint8Array; parts: PartNode; materials: ConversionMaterial[]; counts: MeshCounts }> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const materials = new Map<string, { material: Material; parts: number; triangles: number }>();
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  let vertices = 0;
  let triangles = 0;

  const gltfMeshes: Mesh[] = meshes.map((m, k) => {
    const pos = Float32Array.from(m.attributes.position.array);
    for (let i = 0; i < pos.length; i += 3) {
      for (let a = 0; a < 3; a++) {
        if (pos[i + a] < min[a]) min[a] = pos[i + a];
        if (pos[i + a] > max[a]) max[a] = pos[i + a];
      }
    }
    const count = pos.length / 3;
    vertices += count;
    const position = doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buffer);
    const normal = m.attributes.normal
      ? doc.createAccessor().setType('VEC3').setArray(Float32Array.from(m.attributes.normal.array)).setBuffer(buffer)
      : null;
    const mesh = doc.createMesh(m.name || `part ${k + 1}`);
    for (const [key, g] of trianglesByColor(m)) {
      let mat = materials.get(key);
      if (!mat) {
        const material = doc
          .createMaterial(key)
          .setBaseColorFactor([g.color[0], g.color[1], g.color[2], 1])
          .setMetallicFactor(0)
          .setRoughnessFactor(0.6)
          .setDoubleSided(true);
        materials.set(key, (mat = { material, parts: 0, triangles: 0 }));
      }
      mat.parts++;
      mat.triangles += g.indices.length / 3;
      triangles += g.indices.length / 3;
      const indices = doc
        .createAccessor()
        .setType('SCALAR')
        .setArray(count <= 0xffff ? Uint16Array.from(g.indices) : Uint32Array.from(g.indices))
        .setBuffer(buffer);
      const prim = doc
        .createPrimitive()
        .setAttribute('POSITION', position)
        .setIndices(indices)
        .setMaterial(mat.material);
      if (normal) prim.setAttribute('NORMAL', normal);
      mesh.addPrimitive(prim);
    }
    return mesh;
  });

  let nodeCount = 0;
  const toNode = (n: OcctNode, fallback: string): { node: Node; part: PartNode } => {
    nodeCount++;
    const name = n.name || fallback;
    const node = doc.createNode(name);
    const part: PartNode = { name, meshes: [...n.meshes], children: [] };
    if (n.meshes.length === 1) node.setMesh(gltfMeshes[n.meshes[0]]);
    else for (const k of n.meshes) node.addChild(doc.createNode(gltfMeshes[k].getName()).setMesh(gltfMeshes[k]));
    n.children.forEach((c, i) => {
      const child = toNode(c, `${name}.${i + 1}`);
      node.addChild(child.node);
      part.children.push(child.part);
    });
    return { node, part };
  };
  const top = toNode(root, 'model');
  top.node.setScale([0.001, 0.001, 0.001]);
  doc.createScene('model').addChild(top.node);

  const glb = await new NodeIO().writeBinary(doc);
  const empty = vertices === 0;
  return {
    glb,
    parts: top.part,
    materials: [...materials.entries()].map(([name, m]) => ({
      name,
      color: m.material.getBaseColorFactor().slice(0, 3),
      parts: m.parts,
      triangles: m.triangles,
    })),
    counts: {
      parts: meshes.length,
      nodes: nodeCount,
      meshes: gltfMeshes.length,
      materials: materials.size,
      vertices,
      triangles,
      bbox_min_mm: empty ? [0, 0, 0] : min,
      bbox_max_mm: empty ? [0, 0, 0] : max,
      glb_bytes: glb.byteLength,
    },
  };
}
