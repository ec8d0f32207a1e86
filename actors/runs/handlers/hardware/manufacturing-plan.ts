import { I2C_SENSORS, ISP_NETS, ISP_TARGETS, RAIL_CHECKS, SUPPLY_LIMIT_MA } from './manufacturing-plan.data.ts';

/** One step of the bring-up plan: what to do, where to measure, the expected value and the pass criterion. */
export interface TestStep {
  id: string;
  stage: 'power' | 'programming' | 'i2c' | 'sensor';
  title: string;
  procedure: string;
  measure_at: string;
  expected: string;
  pass: string;
  limits?: { min?: number; max?: number; unit: string };
}

/** What the plan is generated from: the board's nets and BOM, the stated power budget, the firmware's outputs. */
export interface PlanInput {
  /** The schematic's nets (`pins` as `REF.PIN`), as the electronics phase records them. */
  nets: { name: string; pins: string[] }[];
  lines: { designators: string; references?: string[]; mpn?: string; value: string }[];
  /** The worst-case power budget the electronics decision stated. */
  power: { usb_ma: number; rail_v: number };
  /** The firmware phase's pin map when it delivered one: signal name to MCU pin/port. */
  pinmap?: { ref: string; signals: { signal: string; pin: string }[]; i2c_address?: number };
  /** The firmware phase's source record and, when it built for the part, its image (HEX path, flash bytes). */
  firmware?: { ref: string; image?: { hex: string; flash_bytes: number } };
}

/** What the programming step writes: the target build's HEX image when there is one, else what to build. */
function firmwareImage(fw: PlanInput['firmware'], part: string): string {
  if (!fw) return 'a bring-up image that polls each I2C sensor once a second';
  if (!fw.image) return `the firmware built from ${fw.ref} (no target image was built: build it for the part first)`;
  return `the firmware built from ${fw.ref}: ${fw.image.hex} (${fw.image.flash_bytes} bytes of flash; avrdude -p ${part} -U flash:w:${fw.image.hex}:i)`;
}

/** The plan's steps in bring-up order, and what could not be planned (each an open item of the release). */
export interface BringUpPlan {
  steps: TestStep[];
  open_items: string[];
}

const bare = (net: string) => net.replace(/^\//, '');
const refOf = (pin: string) => pin.slice(0, pin.lastIndexOf('.'));
const refsOf = (l: PlanInput['lines'][number]) =>
  l.references?.length ? l.references : l.designators.split(/\s+/).filter(Boolean);

/** Easiest place to probe a net: a connector pin, then a passive's pad, then anything (sorted, so deterministic). */
function probe(nets: PlanInput['nets'], name: string): string | null {
  const pins = [...(nets.find((n) => bare(n.name) === name)?.pins ?? [])].sort();
  const rank = (p: string) => (/^J/.test(p) ? 0 : /^[RC]\d/.test(p) ? 1 : 2);
  return pins.sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

const netOfPin = (nets: PlanInput['nets'], pin: string) => {
  const n = nets.find((x) => x.pins.includes(pin));
  return n ? bare(n.name) : null;
};

/**
 * The bring-up test plan of a board, from its schematic and BOM (templates in manufacturing-plan.data.ts): power-on
 * rails and current against the stated budget, ISP first contact and fuses, then per I2C sensor its presence at the
 * address its address pin selects and one reading in range. Deterministic: the same nets and lines give the same plan.
 * What cannot be planned (a net missing, an address pin on an unknown net, no firmware) is an open item, not a guess.
 */
export function bringUpPlan(p: PlanInput): BringUpPlan {
  const steps: TestStep[] = [];
  const open: string[] = [];
  const gnd = probe(p.nets, 'GND');
  const add = (s: Omit<TestStep, 'id'>, prefix: string) =>
    steps.push({ id: `${prefix}${steps.filter((x) => x.id.startsWith(prefix)).length + 1}`, ...s });

  for (const r of RAIL_CHECKS) {
    const at = probe(p.nets, r.net);
    if (!at || !gnd) {
      open.push(`no ${r.net} net in the schematic: the ${r.label} check has nowhere to measure`);
      continue;
    }
    add(
      {
        stage: 'power',
        title: `${r.label} (${r.net}) at first power-on`,
        procedure: `Power from a 5 V bench supply limited to ${SUPPLY_LIMIT_MA} mA; DC voltmeter between ${at} and ${gnd} (GND).`,
        measure_at: `${at} to ${gnd}`,
        expected: `${r.nominal_v} V`,
        pass: `${r.min_v} V <= V <= ${r.max_v} V (${r.basis})`,
        limits: { min: r.min_v, max: r.max_v, unit: 'V' },
      },
      'P',
    );
  }
  const vbus = probe(p.nets, '+5V');
  add(
    {
      stage: 'power',
      title: 'Supply current from VBUS',
      procedure: `Read the bench supply's current (or an ammeter in series with VBUS${vbus ? ` at ${vbus}` : ''}) with the board idle.`,
      measure_at: vbus ? `series with VBUS (${vbus})` : 'series with VBUS',
      expected: `<= ${p.power.usb_ma} mA`,
      pass: `I <= ${p.power.usb_ma} mA (worst-case USB draw of the electronics power budget); over it: power off, look for a short`,
      limits: { max: p.power.usb_ma, unit: 'mA' },
    },
    'P',
  );

  const targets = p.lines.flatMap((l) =>
    ISP_TARGETS.filter((t) => l.mpn?.toUpperCase() === t.mpn).map((t) => ({ t, ref: refsOf(l)[0]! })),
  );
  const header = ISP_NETS.map((n) => probe(p.nets, n)).filter((x): x is string => !!x && /^J/.test(x));
  if (!targets.length) open.push('no microcontroller the plan knows how to program (ISP_TARGETS)');
  else if (header.length < ISP_NETS.length)
    open.push(`the ISP nets ${ISP_NETS.join(', ')} do not all reach a connector: no programming step`);
  for (const { t, ref } of targets) {
    if (header.length < ISP_NETS.length) break;
    const hdr = refOf(header[0]!);
    add(
      {
        stage: 'programming',
        title: `ISP first contact with ${ref} (${t.mpn})`,
        procedure: `ISP programmer on ${hdr} (${ISP_NETS.map((n, i) => `${n} ${header[i]}`).join(', ')}); avrdude -p ${t.avrdude_part} -B ${t.first_bitclock_us} reads the signature.`,
        measure_at: hdr,
        expected: `signature ${t.signature}`,
        pass: `avrdude reads ${t.signature} (${t.basis})`,
      },
      'F',
    );
    add(
      {
        stage: 'programming',
        title: `Fuses and image of ${ref}`,
        procedure: `Write low fuse ${t.low_fuse}, read it back, then write ${firmwareImage(p.firmware, t.avrdude_part)} and verify.`,
        measure_at: hdr,
        expected: `low fuse ${t.low_fuse}; flash verify OK`,
        pass: `read-back low fuse = ${t.low_fuse} and avrdude verifies the flash without error`,
      },
      'F',
    );
  }
  if (!p.firmware)
    open.push('no firmware_source delivered: the I2C steps need a bring-up image that polls the sensors');

  for (const l of p.lines) {
    const s = I2C_SENSORS.find((x) => l.mpn?.toUpperCase().startsWith(x.mpn_prefix));
    if (!s) continue;
    for (const ref of refsOf(l)) {
      const addrNet = netOfPin(p.nets, `${ref}.${s.pins.addr}`);
      const address = addrNet ? s.address_by_net[addrNet] : undefined;
      if (address === undefined) {
        open.push(
          `${ref} ${s.name}: address pin ${ref}.${s.pins.addr} on ${addrNet ?? 'no net'}, address undetermined`,
        );
        continue;
      }
      const sda = netOfPin(p.nets, `${ref}.${s.pins.sda}`);
      const scl = netOfPin(p.nets, `${ref}.${s.pins.scl}`);
      const at = `SDA ${(sda && probe(p.nets, sda)) ?? `${ref}.${s.pins.sda}`}, SCL ${(scl && probe(p.nets, scl)) ?? `${ref}.${s.pins.scl}`}`;
      const mcu = (p.pinmap?.signals ?? []).filter((x) => /\b(SDA|SCL)\b/i.test(x.signal));
      const via = mcu.length
        ? ` (MCU side per ${p.pinmap!.ref}: ${mcu.map((x) => `${x.signal} ${x.pin}`).join(', ')})`
        : '';
      const hex = `0x${address.toString(16).toUpperCase()}`;
      const stated = p.pinmap?.i2c_address;
      if (stated !== undefined && stated !== address)
        open.push(
          `${p.pinmap!.ref} addresses 0x${stated.toString(16).toUpperCase()} but ${ref}'s ADDR strap selects ${hex}`,
        );
      add(
        {
          stage: 'i2c',
          title: `${s.name} ${ref} present at ${hex}`,
          procedure: `Logic analyser with an I2C decoder on ${at}${via}; the image addresses ${hex} (address pin ${ref}.${s.pins.addr} on ${addrNet}).`,
          measure_at: at,
          expected: `ACK at ${hex}`,
          pass: `the address byte ${hex} is acknowledged (${s.address_basis})`,
        },
        'I',
      );
      for (const r of s.readings)
        add(
          {
            stage: 'sensor',
            title: `${s.name} ${ref} ${r.quantity} reading`,
            procedure: `Decode one measurement (${s.command}) on ${at}; ${r.conversion}.`,
            measure_at: at,
            expected: `${r.min}-${r.max} ${r.unit} on the bench`,
            pass: `CRC of the word valid and ${r.min} ${r.unit} <= value <= ${r.max} ${r.unit} (${s.basis})`,
            limits: { min: r.min, max: r.max, unit: r.unit },
          },
          'S',
        );
    }
  }
  return { steps, open_items: open };
}
