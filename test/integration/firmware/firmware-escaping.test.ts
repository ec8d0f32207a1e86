import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { FirmwareActions } from '../../../contracts/actions/firmware.actions.ts';
import { mcuPinMap, type MappedPart } from '../../../actors/runs/handlers/hardware/firmware-pinmap.ts';
import { firmwareSources } from '../../../actors/runs/handlers/hardware/firmware-scaffold.ts';
import { useTestNode } from '../../support/node.ts';

/**
 * Issue 27, finding 10: the firmware phase wrote schematic text (part values, references, footprints, pin names and
 * numbers, nets, as eda.get_pin_mapping answers them) into pins.h unescaped, so a value `X"\n#include "/etc/hostname"`
 * made gcc read a host file and quote it in its diagnostics. Here every text field of the pin mapping carries quotes,
 * backslashes, newlines, `*​/`, `/*`, trigraphs and a trailing backslash; the generated scaffold goes through
 * firmware.build on a real node (gcc and avr-gcc in the sandbox, -std=c11 -Wall -Wextra -Werror): it must build clean, and the
 * program must print the board name exactly as the schematic says it, as data.
 */
const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'firmware-escaping-')));
const t = useTestNode({ roles: 'firmware', env: { SERVICE_WORKSPACE: workspace } });
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

const INCLUDE = '#include "/etc/hostname"';
const VALUE = `X"\n${INCLUDE}`; // the finding's own value
const hostile = (tag: string) =>
  [`${tag}"\n${INCLUDE}\n"`, `*/ ${INCLUDE} /*`, `\\`, `??/`, `a\\\r\n#error ${tag}`, '\t\u0001é'].join(' ');

const PARTS: MappedPart[] = [
  {
    reference: `U1 ${hostile('ref')}`,
    value: VALUE,
    footprint: `${hostile('fp')} ends with a backslash \\`,
    lib_id: 'MCU_Microchip_ATmega:ATmega328P-AU',
    pins: [
      { number: '27', name: `SDA/PC4/${hostile('sda')}`, net: '/SDA' },
      { number: '28', name: 'SCL/PC5', net: '/SCL' },
      { number: `9\n${INCLUDE}`, name: `PB1 ${hostile('gpio')}`, net: `/LED ${hostile('net')}` },
      { number: '29', name: '~{RESET}/PC6', net: '/RESET' },
    ],
  },
  {
    reference: `U2 ${hostile('sensor-ref')}`,
    value: `SHT31 ${hostile('sensor')}`,
    footprint: 'Sensor_Humidity:SHT31',
    lib_id: 'Sensor_Humidity:SHT31-DIS',
    pins: [
      { number: '1', name: 'SDA', net: '/SDA' },
      { number: '2', name: 'ADDR', net: 'GND' },
      { number: '4', name: 'SCL', net: '/SCL' },
    ],
  },
];

describe('generated firmware sources escape the schematic text they carry (finding 10)', () => {
  it('builds clean with gcc, reads no host file, and prints the hostile board name as data', async () => {
    const pm = mcuPinMap(PARTS);
    if (!pm.ok) throw new Error(pm.reason);
    const hostname = fs.readFileSync('/etc/hostname', 'utf8').trim();
    const out = await call(t.node.broker, FirmwareActions.build, {
      run_id: 'run-hostile-text',
      files: firmwareSources(pm.map),
      target: 'atmega328p',
    });
    // Before the fix gcc read /etc/hostname and quoted it: diagnostics of that file, naming the machine's host name.
    expect(out.diagnostics.filter((d) => d.file.startsWith('/'))).toEqual([]);
    expect(out.diagnostics.map((d) => d.message).filter((m) => m.includes(`'${hostname}'`))).toEqual([]);
    expect(out, JSON.stringify(out.diagnostics)).toMatchObject({ passed: true, error_count: 0, warning_count: 0 });
    // The same sources for the part with avr-gcc.
    expect(out.target).toMatchObject({ available: true, passed: true, diagnostics: [] });
    const log = execFileSync(path.join(workspace, out.binary!.path), { encoding: 'utf8' });
    expect(log).toContain(`board ${VALUE}: SHT31 at 0x44 on SDA pad 27, SCL pad 28`);
  });
});
