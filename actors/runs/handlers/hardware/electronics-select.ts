import { PARTS, SUPPORT, type Part, type PartFunction } from './parts.data.ts';

/** Functions the parts table serves, as a request names them. */
const SERVED: { fn: PartFunction; pattern: RegExp }[] = [
  { fn: 'microcontroller', pattern: /\b(micro-?controller|MCU)s?\b/i },
  { fn: 'temperature', pattern: /\btemperature\b/i },
  { fn: 'humidity', pattern: /\bhumidity\b/i },
  { fn: 'usb_power', pattern: /\bUSB\b/i },
];

/** Functions a request may name that the table has no part for: named so the failure says which. */
const UNSERVED: { name: string; pattern: RegExp }[] = [
  { name: 'CO2 sensing', pattern: /\b(CO2|carbon dioxide)\b/i },
  { name: 'pressure sensing', pattern: /\bpressure\b/i },
  { name: 'gas / VOC sensing', pattern: /\b(VOC|gas)\b/i },
  { name: 'particulate sensing', pattern: /\b(PM2\.5|PM10|particulate|dust)\b/i },
  { name: 'light sensing', pattern: /\b(ambient light|lux|light sensor)\b/i },
  { name: 'motion sensing', pattern: /\b(motion|PIR|accelerometer|gyroscope|IMU)\b/i },
  { name: 'Wi-Fi', pattern: /\bwi-?fi\b/i },
  { name: 'Bluetooth', pattern: /\b(bluetooth|BLE)\b/i },
  { name: 'LoRa', pattern: /\bLoRa(WAN)?\b/i },
  { name: 'cellular', pattern: /\b(LTE|GSM|NB-IoT|cellular)\b/i },
  { name: 'GNSS', pattern: /\b(GPS|GNSS)\b/i },
  { name: 'display', pattern: /\b(display|LCD|OLED|e-?paper)\b/i },
  { name: 'battery power', pattern: /\bbatter(y|ies)\b/i },
  { name: 'motor drive', pattern: /\bmotors?\b/i },
  { name: 'Ethernet', pattern: /\bethernet\b/i },
  { name: 'audio', pattern: /\b(speaker|microphone|buzzer)\b/i },
];

/** Words before "sensor" that name the device rather than a measured quantity. */
const GENERIC = new Set([
  'a',
  'an',
  'the',
  'and',
  'environmental',
  'digital',
  'indoor',
  'room',
  'wall-mounted',
  'smart',
]);

/** One part placed on the board: its reference, the part, and why it is there. */
export interface Placed {
  ref: string;
  part: Part;
  /** Support passives: the two nets it joins. */
  nets?: [string, string];
  why: string;
}

export type Selection =
  | { ok: true; rail_v: number; functions: PartFunction[]; placed: Placed[]; assumptions: string[] }
  | { ok: false; unserved: string[] };

/** The supply rail the request states for its logic ("a 3.3 V microcontroller"), else null. */
export function statedRail(text: string): number | null {
  const m = /(\d+(?:\.\d+)?)\s*V\s+(?:[\w-]+\s+){0,2}(?:micro-?controller|MCU|logic)/i.exec(text);
  return m ? Number(m[1]) : null;
}

/** The functions a request names: those the table serves, and those it cannot (by name). */
export function requestedFunctions(text: string): { served: PartFunction[]; unserved: string[] } {
  const served = SERVED.filter((s) => s.pattern.test(text)).map((s) => s.fn);
  const unserved = new Set(UNSERVED.filter((u) => u.pattern.test(text)).map((u) => u.name));
  for (const m of text.matchAll(/\b([\w.-]+)\s+sensors?\b/gi)) {
    const word = m[1]!.toLowerCase();
    if (GENERIC.has(word) || SERVED.some((s) => s.pattern.test(word)) || UNSERVED.some((u) => u.pattern.test(word)))
      continue;
    unserved.add(`${word} sensing`);
  }
  return { served, unserved: [...unserved] };
}

const cheapest = (parts: Part[]) => [...parts].sort((a, b) => a.price_eur - b.price_eur)[0];
const fits = (p: Part, rail: number) => !p.supply_v || (p.supply_v[0] <= rail && rail <= p.supply_v[1]);

/**
 * Chooses parts for the functions the request names: an MCU and the sensors that cover the measured quantities at the
 * rail (fewest parts, then cheapest), the USB connector and a regulator from USB's 5 V to the rail, the ISP header of
 * the MCU, and each active part's support passives. Anything the table cannot serve is answered by name, never
 * approximated by another part.
 */
export function selectParts(text: string): Selection {
  const { served, unserved } = requestedFunctions(text);
  const stated = statedRail(text);
  const rail = stated ?? 3.3;
  const missing = [...unserved];
  if (!served.includes('microcontroller')) missing.push('a microcontroller (the request names none)');
  if (!served.includes('usb_power')) missing.push('a power source this table serves (USB)');
  const all = Object.values(PARTS);
  const mcu = cheapest(all.filter((p) => p.functions.includes('microcontroller') && fits(p, rail)));
  if (!mcu) missing.push(`a microcontroller for a ${rail} V rail`);
  const regulator = cheapest(
    all.filter((p) => p.regulator && p.regulator.output_v === rail && p.regulator.vin_max_v >= 5.25),
  );
  if (!regulator) missing.push(`a regulator from USB 5 V to ${rail} V`);
  const measured = served.filter((f) => f === 'temperature' || f === 'humidity');
  const sensors: Part[] = [];
  let open = measured;
  while (open.length) {
    const pick = all
      .filter((p) => fits(p, rail) && open.some((f) => p.functions.includes(f)))
      .sort(
        (a, b) =>
          open.filter((f) => b.functions.includes(f)).length - open.filter((f) => a.functions.includes(f)).length ||
          a.price_eur - b.price_eur,
      )[0];
    if (!pick) break;
    sensors.push(pick);
    open = open.filter((f) => !pick.functions.includes(f));
  }
  missing.push(...open.map((f) => `${f} sensing at ${rail} V`));
  if (missing.length) return { ok: false, unserved: missing };

  const placed: Placed[] = [];
  const counters: Record<string, number> = {};
  const ref = (prefix: string) => `${prefix}${(counters[prefix] = (counters[prefix] ?? 0) + 1)}`;
  const actives = [mcu!, ...sensors, regulator!];
  for (const p of actives) placed.push({ ref: ref('U'), part: p, why: p.functions.join(', ') });
  const connectors = all.filter((p) => p.functions.includes('usb_power') || p.functions.includes('programming'));
  for (const p of connectors) placed.push({ ref: ref('J'), part: p, why: p.functions.join(', ') });
  for (const p of actives)
    for (const s of SUPPORT[p.key] ?? []) {
      const part = PARTS[s.part]!;
      placed.push({ ref: ref(part.lib_id === 'Device:R' ? 'R' : 'C'), part, nets: s.nets, why: `${s.why} (${p.mpn})` });
    }
  return {
    ok: true,
    rail_v: rail,
    functions: served,
    placed,
    assumptions: stated ? [] : [`no logic voltage stated: ${rail} V assumed`],
  };
}
