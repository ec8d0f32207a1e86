import type { PhaseInput } from '../../executor.ts';
import { PhaseStop, use } from '../tools.ts';

/** A rectangular part to model: length along x, width along y, height along z (mm), and its material when known. */
export interface BoxPart {
  name: string;
  length: number;
  width: number;
  height: number;
  material?: { name: string; density_kg_m3: number };
}

/**
 * Makes the part with the CAD tools (a parametric box), checks the kernel calls it valid, and commits it as a draft
 * cad_model with its measured properties (the design phases of mech_v1 and hardware_v1 share this).
 */
export async function commitBox(input: PhaseInput, part: BoxPart) {
  const { name, length, width, height, material } = part;
  const solid = await use(input, 'cadscript.create_parametric', {
    shape_type: 'box',
    parameters: { length, width, height },
  });
  if (!solid.is_valid) throw new PhaseStop('tool', 'the kernel reports the solid invalid');
  const massKg: number | null = material ? solid.volume_mm3 * 1e-9 * material.density_kg_m3 : null;
  const cad = await use(input, 'twin.commit_geometry', {
    name,
    file_path: solid.cad_file,
    material: material?.name,
    properties: {
      dimensions_mm: [length, width, height],
      bounding_box: solid.bounding_box,
      volume_mm3: solid.volume_mm3,
      surface_area_mm2: solid.surface_area_mm2,
      mass_kg: massKg,
    },
    change_reason: input.notes.join(' ') || undefined,
  });
  return { cad, solid, massKg };
}
