import type { PhaseExecutor, PhaseInput } from '../../executor.ts';
import { phase, PhaseStop, priorOf, use } from '../tools.ts';
import type { FirmwareMcu, FirmwareTargetBuild } from '../../../../contracts/firmware.ts';
import { buildFirmware, fileDigests } from './firmware-build.ts';
import { mcuPinMap, type MappedPart, type PinMap } from './firmware-pinmap.ts';
import { firmwareSources, MEASURE_PERIOD_S } from './firmware-scaffold.ts';

/** The build choice, said the same way in the decision and in FIRMWARE.md. */
export const BUILDS =
  'firmware built twice in the sandbox from the same sources: on the host with Debian gcc (C11, -Wall -Wextra -Werror -O2), where hal_host.c stands in for the board, and for the microcontroller with avr-gcc (the same flags, -Os), where hal_avr.c drives TWI and the USART; the drivers reach the hardware only through hal.h';

/** The cross-build target of an MCU part value (`ATmega328P-AU` -> `atmega328p`), or none the firmware actor knows. */
export function mcuTarget(value: string): FirmwareMcu | undefined {
  return /^atmega328p(?![a-z0-9])/i.test(value) ? 'atmega328p' : undefined;
}

/** One sentence on the target build: its flash and RAM against the part's, or why it did not run. */
function targetLine(mcu: string, t: FirmwareTargetBuild | null): string {
  if (!t) return `No target build: the firmware actor knows no cross toolchain for ${mcu}.`;
  if (!t.available) return `Target build not run (${t.reason}); flash and RAM fit not verified.`;
  const pct = (a: number | null, b: number) =>
    a === null ? '?' : `${a} of ${b} bytes (${Math.round((a / b) * 100)} %)`;
  return `${t.mcu}: flash ${pct(t.flash_bytes, t.flash_max_bytes)}, static RAM ${pct(t.ram_bytes, t.ram_max_bytes)}, image ${t.hex?.path ?? 'none'}.`;
}

/** The schematic the electronics phase delivered (its latest) and its workspace path. */
async function schematicOf(input: PhaseInput): Promise<{ ref: string | undefined; path: string }> {
  const sch = priorOf(input, 'schematic').at(-1);
  if (!sch) throw new PhaseStop('data', 'no schematic was delivered by the electronics phase: the pin map reads it');
  const node = await use<{ properties: Record<string, unknown> }>(input, 'twin.get_node', { node_id: sch.node_id });
  const p = node.properties.schematic_path;
  if (typeof p !== 'string') throw new PhaseStop('data', `schematic ${sch.ref ?? sch.node_id} names no schematic_path`);
  return { ref: sch.ref, path: p };
}

const pinLine = (m: PinMap, use: string) =>
  m.pins
    .filter((p) => p.use === use)
    .map((p) => `${p.name} (pad ${p.number})`)
    .join(', ');

/**
 * firmware (hardware_v1): the MCU's pin map from the electronics schematic (`eda.get_pin_mapping`) recorded as the
 * `pinmap`; a C scaffold generated from it (hal.h, the SHT3x driver, the main loop, pins.h, the host HAL; templates in
 * firmware-templates/) built by the firmware actor with gcc, recorded as the `firmware_source` with each file's sha256
 * and the build result; and the host-build choice as the design decision. A build that fails stops the phase (design).
 */
export const firmwarePhase: PhaseExecutor = (input) =>
  phase(async () => {
    const sch = await schematicOf(input);
    const mapping = await use<{ parts: MappedPart[] }>(input, 'eda.get_pin_mapping', { schematic_path: sch.path });
    const pm = mcuPinMap(mapping.parts);
    if (!pm.ok) throw new PhaseStop('data', `the pin map of ${sch.path}: ${pm.reason}`);
    const map = pm.map;
    const used = map.pins.filter((p) => !['unused', 'power', 'ground'].includes(p.use));
    const pin = await use(input, 'twin.record_document', {
      document_type: 'pinmap',
      name: `${map.mcu.reference} ${map.mcu.value} pin map`,
      content: `Pin map of ${map.mcu.reference} ${map.mcu.value} from ${sch.path}: ${map.pins.length} pins, ${used.length} used by the firmware; ${map.sensor.reference} ${map.sensor.value} at I2C 0x${map.sensor.i2c_address.toString(16)}`,
      properties: {
        schematic_path: sch.path,
        schematic_ref: sch.ref ?? null,
        mcu: map.mcu,
        sensor: map.sensor,
        pins: map.pins,
      },
    });

    const files = firmwareSources(map);
    const target = mcuTarget(map.mcu.value);
    const build = await buildFirmware(input, files, target);
    const digests = fileDigests(files);
    const fw = await use(input, 'twin.record_document', {
      document_type: 'firmware_source',
      name: `${map.mcu.value} sensor firmware`,
      content: `C11 scaffold generated from pin map ${pin.item_ref}: hal.h (I2C, delay, log), SHT3x driver, main loop every ${MEASURE_PERIOD_S} s, pins.h, host and AVR HALs; built with ${build.compiler} (${build.flags.join(' ')}): ${build.error_count} errors, ${build.warning_count} warnings; ${targetLine(map.mcu.value, build.target)}`,
      properties: {
        build_dir: build.build_dir,
        pinmap_ref: pin.item_ref,
        files: digests,
        build: {
          passed: build.passed,
          compiler: build.compiler,
          flags: build.flags,
          target: 'host',
          sandboxed: build.sandboxed,
          errors: build.error_count,
          warnings: build.warning_count,
          objects: build.objects,
          binary: build.binary,
        },
        target_build: build.target
          ? {
              mcu: build.target.mcu,
              available: build.target.available,
              reason: build.target.reason,
              passed: build.target.passed,
              compiler: build.target.compiler,
              flags: build.target.flags,
              flash_bytes: build.target.flash_bytes,
              flash_max_bytes: build.target.flash_max_bytes,
              ram_bytes: build.target.ram_bytes,
              ram_max_bytes: build.target.ram_max_bytes,
              hex: build.target.hex,
            }
          : null,
      },
    });
    const d = await use(input, 'twin.record_decision', {
      title: 'Firmware: drivers behind a hardware-access interface, built on the host and for the microcontroller',
      decision: [
        `${BUILDS}.`,
        `Pin map ${pin.item_ref}: I2C SDA ${pinLine(map, 'i2c_sda')}, SCL ${pinLine(map, 'i2c_scl')} to ${map.sensor.reference} ${map.sensor.value} at 0x${map.sensor.i2c_address.toString(16)}; ISP ${['isp_mosi', 'isp_miso', 'isp_sck', 'reset'].map((u) => pinLine(map, u)).join(', ')}.`,
        `SHT3x single-shot measurement 0x2400 every ${MEASURE_PERIOD_S} s, CRC-8 (0x31, init 0xFF) checked on every word.`,
        `Build ${build.build_dir}: passed, ${build.error_count} errors, ${build.warning_count} warnings, ${build.objects.length} objects, program ${build.binary?.bytes ?? 0} bytes (host).`,
        targetLine(map.mcu.value, build.target),
      ].join(' '),
      rationale: [
        'gcc is on every machine of this kind (Debian package gcc) and checks the drivers with every warning an error',
        'avr-gcc (Debian gcc-avr, avr-libc) builds for the ATmega328P at the 8 MHz the bring-up fuses (0xE2) set, and its flash and RAM use is checked against the part (32 KB, 2 KB)',
        'SHT3x-DIS datasheet: command 0x2400, 15.5 ms max measurement, CRC-8 0x31/0xFF, T = -45 + 175*raw/65535, RH = 100*raw/65535',
      ].join('; '),
      alternatives: [
        'a host build only (no flash or RAM figure for the part)',
        'gcc-arm-none-eabi (another MCU family)',
      ],
      depends_on: [pin.item_key, fw.item_key].filter(Boolean),
    });
    return {
      summary: `pin map ${pin.item_ref} (${used.length} of ${map.pins.length} pins used), firmware ${fw.item_ref} (${files.length} files) built with ${build.compiler}: 0 errors, ${build.warning_count} warnings; ${targetLine(map.mcu.value, build.target)}`,
      deliverables: [
        { type: 'pinmap', node_id: pin.node_id, ref: pin.item_ref },
        { type: 'firmware_source', node_id: fw.node_id, ref: fw.item_ref },
        { type: 'design_decision', node_id: d.node_id },
      ],
    };
  });
