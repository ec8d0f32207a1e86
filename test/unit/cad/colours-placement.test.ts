import { describe, expect, it } from 'vitest';
import { materialColor, normalizeColor, partColor } from '../../../workers/cad/session/export.ts';
import {
  IDENTITY,
  apply,
  compose,
  describePlacement,
  rotationAbout,
  translation,
} from '../../../workers/cad/session/placement.ts';

const part = (importColor: [number, number, number] | null = null) => ({ id: 'part_1', name: 'plate', importColor });

describe('export_model colour precedence (SPEC rule 7)', () => {
  it('takes part_materials first, then color over material, then the import colour', () => {
    const steel = materialColor('steel')!;
    expect(
      partColor(part([0, 1, 0]), { part_materials: { plate: 'Steel' }, color: [1, 0, 0], material: 'brass' }),
    ).toEqual({ color: steel, source: 'part_materials:Steel' });
    expect(partColor(part([0, 1, 0]), { color: [1, 0, 0], material: 'brass' })).toEqual({
      color: [1, 0, 0],
      source: 'color',
    });
    expect(partColor(part([0, 1, 0]), { material: 'brass' })).toMatchObject({ source: 'material:brass' });
    expect(partColor(part([0, 1, 0]), {})).toEqual({ color: [0, 1, 0], source: 'import' });
    expect(partColor(part(), {})).toEqual({ color: null, source: 'none' });
    expect(partColor(part([0, 1, 0]), { part_materials: { other: 'steel' } })).toMatchObject({ source: 'import' });
    expect(partColor(part(), { part_materials: { part_1: 'copper' } }).color).toEqual(materialColor('copper'));
  });

  it('leaves a part uncoloured for an unknown material, even over an import colour', () => {
    expect(partColor(part([0, 1, 0]), { material: 'unobtainium' })).toEqual({
      color: null,
      source: 'unknown_material:unobtainium',
    });
    expect(partColor(part([0, 1, 0]), { part_materials: { plate: 'mystery' }, color: [1, 0, 0] })).toEqual({
      color: null,
      source: 'unknown_material:mystery',
    });
  });

  it('reads colours in 0-1 or 0-255 and material names loosely', () => {
    expect(normalizeColor([255, 0, 51])).toEqual([1, 0, 0.2]);
    expect(normalizeColor([0.5, 0.25, 1])).toEqual([0.5, 0.25, 1]);
    expect(materialColor('Aluminum 6061')).toEqual(materialColor('aluminium_6061'));
    expect(materialColor('stainless-steel')).toBeDefined();
  });
});

describe('placements', () => {
  it('composes rotations about a centre and translations, and reports axis and angle', () => {
    const p = compose(translation([10, 0, 0]), rotationAbout([0, 0, 1], 90, [1, 0, 0]));
    expect(apply(p, [2, 0, 0]).map((v) => +v.toFixed(9))).toEqual([11, 1, 0]);
    expect(describePlacement(p)).toEqual({ position: [11, -1, 0], rotation: { axis: [0, 0, 1], angle_deg: 90 } });
    expect(describePlacement(IDENTITY)).toEqual({ position: [0, 0, 0], rotation: { axis: [0, 0, 1], angle_deg: 0 } });
    expect(describePlacement(rotationAbout([1, 0, 0], 180, [0, 0, 0])).rotation).toEqual({
      axis: [1, 0, 0],
      angle_deg: 180,
    });
    expect(describePlacement(rotationAbout([0, 1, 0], -30, [0, 0, 0])).rotation).toEqual({
      axis: [0, -1, 0],
      angle_deg: 30,
    });
  });
});
