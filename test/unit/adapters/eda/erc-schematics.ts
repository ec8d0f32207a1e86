/** Hand-written KiCad schematics for the ERC tests (erc.test.ts, erc-project.test.ts). */
import { connectivity } from '../../../../workers/eda/connectivity.ts';
import { runErc } from '../../../../workers/eda/erc.ts';
import type { ErcSettings } from '../../../../workers/eda/erc-settings.ts';
import { loadSchematic } from '../../../../workers/eda/schematic.ts';

// One-pin parts of each electrical type (pin at the symbol's origin), a resistor (pins 3.81 mm above and below its
// origin), a two-unit part (one passive pin per unit), and the power library's GND (hidden power_in) and PWR_FLAG.
const onePin = (name: string, type: string, extra = '') =>
  `(symbol "t:${name}" ${extra} (in_bom yes) (on_board yes) (property "Reference" "U" (id 0) (at 0 0 0))
     (symbol "${name}_0_1" (pin ${type} line (at 0 0 0) (length 2.54) (name "P") (number "1"))))`;
const LIB = `(lib_symbols
  ${onePin('OUT', 'output')} ${onePin('IN', 'input')} ${onePin('UNS', 'unspecified')}
  (symbol "t:R" (in_bom yes) (on_board yes) (property "Reference" "R" (id 0) (at 0 0 0))
    (symbol "R_1_1" (pin passive line (at 0 3.81 270) (length 1.27) (name "~") (number "1"))
                    (pin passive line (at 0 -3.81 90) (length 1.27) (name "~") (number "2"))))
  (symbol "t:DUAL" (in_bom yes) (on_board yes) (property "Reference" "U" (id 0) (at 0 0 0))
    (symbol "DUAL_1_1" (pin passive line (at 0 0 0) (length 2.54) (name "A") (number "1")))
    (symbol "DUAL_2_1" (pin passive line (at 0 0 0) (length 2.54) (name "B") (number "2"))))
  (symbol "power:GND" (power) (in_bom yes) (on_board yes) (property "Reference" "#PWR" (id 0) (at 0 0 0))
    (symbol "GND_0_1" (pin power_in line (at 0 0 270) (length 0) hide (name "GND") (number "1"))))
  (symbol "power:PWR_FLAG" (power) (in_bom yes) (on_board yes) (property "Reference" "#FLG" (id 0) (at 0 0 0))
    (symbol "PWR_FLAG_0_0" (pin power_out line (at 0 0 90) (length 0) (name "pwr") (number "1")))))`;

let n = 0;
export const uuid = () => `00000000-0000-0000-0000-${String(++n).padStart(12, '0')}`;
export const sym = (lib: string, ref: string, x: number, y: number, value = lib, unit = 1) =>
  `(symbol (lib_id "${lib.includes(':') ? lib : `t:${lib}`}") (at ${x} ${y} 0) (unit ${unit}) (in_bom yes) (on_board yes) (uuid ${uuid()})
     (property "Reference" "${ref}" (id 0) (at 0 0 0)) (property "Value" "${value}" (id 1) (at 0 0 0)))`;
export const wire = (x1: number, y1: number, x2: number, y2: number) =>
  `(wire (pts (xy ${x1} ${y1}) (xy ${x2} ${y2})))`;
export const nc = (x: number, y: number) => `(no_connect (at ${x} ${y}) (uuid ${uuid()}))`;
export const label = (kind: 'label' | 'global_label' | 'hierarchical_label', text: string, x: number, y: number) =>
  `(${kind} "${text}"${kind === 'label' ? '' : ' (shape input)'} (at ${x} ${y} 0) (uuid ${uuid()}))`;
export const file = (...items: string[]) =>
  `(kicad_sch (version 20211123) (generator eeschema) (uuid ${uuid()}) (paper "A4")\n${LIB}\n${items.join('\n')}\n)`;

/**
 * A clean circuit: U1's output drives R1 pin 1 (with the local label A on a wire), R1 pin 2 sits on GND with a
 * PWR_FLAG; the global label SIG is used twice, each on a pin.
 */
export const CLEAN = [
  sym('R', 'R1', 50, 50),
  sym('OUT', 'U1', 50, 46.19),
  wire(50, 46.19, 40, 46.19),
  label('label', 'A', 40, 46.19),
  sym('power:GND', '#PWR01', 50, 53.81, 'GND'),
  sym('power:PWR_FLAG', '#FLG01', 50, 53.81, 'PWR_FLAG'),
  sym('IN', 'U2', 80, 50),
  label('global_label', 'SIG', 80, 50),
  sym('OUT', 'U3', 90, 50),
  label('global_label', 'SIG', 90, 50),
];

export async function erc(files: Record<string, string>, settings?: ErcSettings) {
  const sch = await loadSchematic('top.kicad_sch', async (f) => {
    const text = files[f];
    if (text === undefined) throw new Error(`no ${f}`);
    return text;
  });
  return runErc(sch, connectivity(sch), settings);
}
export const check = (...extra: string[]) => erc({ 'top.kicad_sch': file(...CLEAN, ...extra) });
export const checkWith = (settings: ErcSettings, ...extra: string[]) =>
  erc({ 'top.kicad_sch': file(...CLEAN, ...extra) }, settings);
