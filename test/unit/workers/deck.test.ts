import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareDeck } from '../../../workers/simfield/deck.ts';
import { deckMaterial, MATERIALS } from '../../../actors/adapters/solver/materials.ts';
import { SIM_FIXTURES } from '../../support/sim-fixtures.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deck-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const base = {
  meshPath: `${SIM_FIXTURES}/beam_coarse.inp`,
  deckPath: path.join(dir, 'job.inp'),
  material: deckMaterial(MATERIALS.aluminium_6061),
  fixedSet: 'fixed',
  loadSet: 'load',
  forceN: [0, 0, -1000] as [number, number, number],
  numModes: 4,
  sinkTempC: 20,
  powerW: 5,
  maxNodes: 95_000,
};
const deck = (over: Partial<typeof base> & { analysis: 'static_stress' | 'modal' | 'thermal' }) => {
  const r = prepareDeck({ ...base, ...over });
  return { r, text: r.ok ? fs.readFileSync(over.deckPath ?? base.deckPath, 'utf8') : '' };
};

describe('CalculiX deck from a mesh plus load case', () => {
  it('static: the force split equally over the load set, sets matched without case, numbers ccx can read', () => {
    const { r, text } = deck({ analysis: 'static_stress' });
    expect(r).toMatchObject({
      ok: true,
      nodes: 955,
      elements: 430,
      element_types: { C3D10: 430 },
      sets: { FIXED: { nodes: 23 }, LOAD: { nodes: 23 } },
    });
    expect(text).toContain('*BOUNDARY\nFIXED, 1, 3\n*CLOAD\nLOAD, 3, -43.4782608696\n');
    expect(text).not.toMatch(/LOAD, [12],/);
    expect(text).toContain('*ELASTIC\n68900, 0.33\n*DENSITY\n2.7e-9\n');
    expect(text).toContain('*SOLID SECTION, ELSET=EALL, MATERIAL=ALUMINIUM_6061');
    expect(
      text
        .split('\n')
        .filter((l) => !l.startsWith('*'))
        .every((l) => l.length <= 132 && l.split(',').every((f) => f.trim().length <= 20)),
    ).toBe(true);
    expect(text).not.toContain(
      '*STEP\n*STATIC\n*BOUNDARY\nFIXED, 1, 3\n*CLOAD\nLOAD, 3, -43.47826087\n*NODE FILE\nU, RF',
    ); // the fixture's own step is not copied
  });

  it('modal and thermal: *FREQUENCY with the mode count; heat as a uniform flux on the 8 faces of the source set', () => {
    expect(deck({ analysis: 'modal' }).text).toContain(
      '*STEP\n*FREQUENCY\n4\n*BOUNDARY\nFIXED, 1, 3\n*NODE FILE\nU\n*END STEP',
    );
    const { r, text } = deck({ analysis: 'thermal' });
    expect(r).toMatchObject({
      heat: { faces: 8, area_mm2: expect.closeTo(200, 9), flux_mw_mm2: expect.closeTo(25, 9) },
    });
    expect(text).toContain('*HEAT TRANSFER, STEADY STATE\n*BOUNDARY\nFIXED, 11, 11, 20\n*DFLUX\n');
    expect(text.match(/^\d+, S[1-4], 25$/gm)).toHaveLength(8);
  });

  it('strips gmsh surface elements, and refuses unknown sets and meshes over the node limit', () => {
    const raw = `*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 0, 1, 0\n4, 0, 0, 1\n*ELEMENT, type=CPS3, ELSET=Surface1\n10, 1, 2, 3\n*ELEMENT, type=C3D4, ELSET=Volume1\n1, 1, 2, 3, 4\n*NSET,NSET=Face1\n1, 2, 3\n*NSET,NSET=Tip\n4\n`;
    fs.writeFileSync(path.join(dir, 'raw.inp'), raw);
    const { r, text } = deck({
      analysis: 'static_stress',
      meshPath: path.join(dir, 'raw.inp'),
      fixedSet: 'Face1',
      loadSet: 'TIP',
    });
    expect(r).toMatchObject({
      ok: true,
      stripped: { CPS3: 1 },
      warnings: expect.arrayContaining(['left out of the deck (not volume elements): 1 CPS3']),
    });
    expect(text).not.toContain('CPS3');
    expect(text).toContain('*ELEMENT, TYPE=C3D4, ELSET=VOLUME1\n1, 1, 2, 3, 4\n');
    expect(prepareDeck({ ...base, analysis: 'static_stress', fixedSet: 'CLAMP' })).toMatchObject({
      ok: false,
      kind: 'invalid_arguments',
      message: expect.stringContaining('fixed_node_set CLAMP is not a node set of the mesh; the mesh has FIXED, LOAD'),
    });
    expect(prepareDeck({ ...base, analysis: 'static_stress', maxNodes: 500 })).toMatchObject({
      ok: false,
      kind: 'tool_error',
      message: expect.stringContaining('the mesh has 955 nodes'),
    });
  });
});
