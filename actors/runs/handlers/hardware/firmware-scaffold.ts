import fs from 'node:fs';
import { cComment, cPadNumber, cString } from './firmware-c-text.ts';
import type { McuPin, PinMap } from './firmware-pinmap.ts';

/** Seconds between two measurements: 16 ms of measuring in 10 s keeps the SHT3x far below the 10 % duty its datasheet allows against self-heating. */
export const MEASURE_PERIOD_S = 10;

/** The hand-written sources kept as templates beside this file (firmware-templates/, see FIRMWARE.md there). */
const TEMPLATES = ['hal.h', 'hal_avr.c', 'hal_host.c', 'main.c', 'sht31.c', 'sht31.h'] as const;
const TEMPLATE_DIR = new URL('./firmware-templates/', import.meta.url);

/** One generated source file. */
export interface SourceFile {
  path: string;
  content: string;
}

/** Uses that get a `PIN_<USE>_*` definition in pins.h; power, ground and unused pins are listed in its table only. */
const DEFINED: ReadonlySet<McuPin['use']> = new Set([
  'i2c_sda',
  'i2c_scl',
  'isp_mosi',
  'isp_miso',
  'isp_sck',
  'reset',
  'analog_reference',
  'gpio',
]);

const macro = (p: McuPin) =>
  `PIN_${(p.use === 'gpio' ? `gpio_${(p.net ?? '').replace(/[^A-Za-z0-9]/g, '_')}` : p.use).toUpperCase().replace(/__+/g, '_')}`;

/**
 * pins.h from a pin map (deterministic: same map, same bytes): the whole table as a comment, then for each pin the
 * firmware uses its pad number and, for a port pin, the port letter and bit (`PIN_I2C_SDA_PAD 27`, `_PORT 'C'`,
 * `_BIT 4`), the board name and the sensor's I2C address. The schematic's text goes in escaped (firmware-c-text.ts):
 * a C string literal for the board name, comment-safe text in comments, a pad that is not a number gets no `_PAD`.
 */
export function pinsHeader(map: PinMap): string {
  const c = cComment;
  const rows = map.pins.map(
    (p) =>
      ` *   ${c(p.number).padStart(3)}  ${c(p.name).padEnd(14)} ${c(p.net ?? '-').padEnd(8)} ${p.use.padEnd(16)} ${c(p.note)}`,
  );
  const defs = map.pins
    .filter((p) => DEFINED.has(p.use))
    .flatMap((p) => {
      const m = macro(p);
      const port = p.port ? [`#define ${m}_PORT '${p.port[1]}'`, `#define ${m}_BIT ${p.port[2]}`] : [];
      const pad = cPadNumber(p.number);
      const padDef = pad ? `#define ${m}_PAD ${pad}` : `/* no ${m}_PAD: pad ${c(p.number)} is not a number */`;
      return [`/* ${c(p.name)}, net ${c(p.net ?? '-')}: ${c(p.note)} */`, padDef, ...port, ''];
    });
  return [
    '/*',
    ` * Pin definitions of ${c(map.mcu.reference)} ${c(map.mcu.value)} (${c(map.mcu.footprint)}), generated from the board's`,
    ' * pin map (eda.get_pin_mapping on the electronics schematic). Do not edit: the firmware phase writes it again.',
    ' *',
    ' *   pad  name           net      use              note',
    ...rows,
    ' */',
    '#ifndef PINS_H',
    '#define PINS_H',
    '',
    `#define BOARD_NAME ${cString(map.mcu.value)}`,
    '',
    `/* ${c(map.sensor.reference)} ${c(map.sensor.value)}: ${c(map.sensor.address_basis)} */`,
    `#define SHT31_I2C_ADDR 0x${map.sensor.i2c_address.toString(16).toUpperCase().padStart(2, '0')}u`,
    '',
    ...defs,
    '#endif /* PINS_H */',
    '',
  ].join('\n');
}

let templates: Map<string, string> | undefined;

/** The template sources, read once. */
function template(name: string): string {
  templates ??= new Map(TEMPLATES.map((t) => [t, fs.readFileSync(new URL(t, TEMPLATE_DIR), 'utf8')]));
  return templates.get(name)!;
}

/**
 * The firmware scaffold of a pin map, sorted by path: the hardware-access interface (hal.h) and its host
 * implementation (hal_host.c), the SHT3x driver, the main loop measuring every `periodS` seconds, and pins.h
 * (sorted by code unit, not by locale, so every machine generates the same list).
 */
export function firmwareSources(map: PinMap, periodS: number = MEASURE_PERIOD_S): SourceFile[] {
  const files: SourceFile[] = TEMPLATES.map((t) => ({
    path: t,
    content: template(t).replaceAll('{{MEASURE_PERIOD_S}}', String(Math.round(periodS))),
  }));
  files.push({ path: 'pins.h', content: pinsHeader(map) });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
