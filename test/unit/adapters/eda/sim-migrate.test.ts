import { describe, expect, it } from 'vitest';
import { bomLines } from '../../../../workers/eda/bom.ts';
import { loadSchematic } from '../../../../workers/eda/schematic.ts';

/**
 * KiCad 9 migrates a KiCad 6 simulation source on load (SIM_MODEL::MigrateSimModel, decision 0162): a V or I source
 * whose Spice_Model is a lone DC value shows that value as its Value (k6 v_i_sources: V2 and I2, Value VDC/IDC, model
 * `dc 2.345`, are 2.345 in kicad-cli's BOM); any other model, a library model, or a symbol already carrying KiCad 7's
 * Sim.* fields keeps its Value.
 */
function sheet(symbols: { ref: string; value: string; fields: Record<string, string> }[]): string {
  const placed = symbols.map(
    (s, i) =>
      `(symbol (lib_id "S:V") (at ${i * 20} 0 0) (unit 1) (in_bom yes) (on_board yes) (uuid "u${i}")
        (property "Reference" "${s.ref}" (id 0) (at 0 0 0)) (property "Value" "${s.value}" (id 1) (at 0 0 0))
        ${Object.entries(s.fields)
          .map(([k, v], j) => `(property "${k}" "${v}" (id ${j + 4}) (at 0 0 0))`)
          .join(' ')})`,
  );
  return `(kicad_sch (version 20211123) (generator eeschema) (uuid "r00t")
  (lib_symbols (symbol "S:V" (symbol "V_1_1" (pin passive line (at 0 0 0) (length 0) (name "~") (number "1")))))
  ${placed.join('\n  ')}
  (symbol_instances ${symbols.map((s, i) => `(path "/u${i}" (reference "${s.ref}") (unit 1))`).join(' ')}))`;
}

const values = async (symbols: Parameters<typeof sheet>[0]) => {
  const sch = await loadSchematic('a/root.kicad_sch', async () => sheet(symbols));
  return Object.fromEntries(bomLines(sch).flatMap((l) => l.references.map((r) => [r, l.value])));
};

describe('KiCad 6 simulation sources as KiCad 9 reads them', () => {
  it('a V or I source with a lone DC model shows the DC value', async () => {
    expect(
      await values([
        { ref: 'V2', value: 'VDC', fields: { Spice_Primitive: 'V', Spice_Model: 'dc 2.345' } },
        { ref: 'I2', value: 'IDC', fields: { Spice_Primitive: 'I', Spice_Model: 'DC(1Meg)' } },
      ]),
    ).toEqual({ V2: '2.345', I2: '1M' });
  });

  it('other models, library models, other primitives and migrated symbols keep their Value', async () => {
    expect(
      await values([
        { ref: 'V1', value: 'VAM', fields: { Spice_Primitive: 'V', Spice_Model: 'am(0.5 1 10meg 50meg 20n)' } },
        { ref: 'V3', value: 'VDC', fields: { Spice_Primitive: 'V', Spice_Model: 'dc 1 ac 1' } },
        { ref: 'V4', value: 'X', fields: { Spice_Primitive: 'V', Spice_Model: 'dc 5', Spice_Lib_File: 'v.lib' } },
        { ref: 'R1', value: '10k', fields: { Spice_Primitive: 'R', Spice_Model: 'dc 5' } },
        { ref: 'V5', value: 'VDC', fields: { Spice_Primitive: 'V', Spice_Model: 'dc 5', 'Sim.Device': 'V' } },
        { ref: 'V6', value: 'dc 5', fields: { Spice_Primitive: 'V' } },
      ]),
    ).toEqual({ V1: 'VAM', V3: 'VDC', V4: 'X', R1: '10k', V5: 'VDC', V6: 'dc 5' });
  });

  it('a DC model in the Value of a part whose reference is not the source letter is migrated', async () => {
    expect(await values([{ ref: 'PS1', value: 'dc 12', fields: { Spice_Primitive: 'V' } }])).toEqual({ PS1: '12' });
  });
});
