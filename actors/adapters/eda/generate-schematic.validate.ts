import { InvalidArgumentsError } from '../kit/tool.ts';
import type { PinSpec } from './generate-schematic.symbols.ts';

export interface ComponentSpec {
  reference: string;
  value: string;
  footprint?: string;
  lib_id?: string;
  fields?: Record<string, string>;
  pins: PinSpec[];
}

export interface SchematicSpec {
  title?: string;
  components: ComponentSpec[];
  connections: { net: string; pins: string[] }[];
  no_connect?: string[];
  /** Add a PWR_FLAG to each power net that no power_out pin drives (default true). */
  power_flags?: boolean;
}

export const pinKey = (reference: string, number: string) => `${reference}.${number}`;

const REFERENCE = /^[A-Za-z_]+[0-9]+$/;
/** `library:name`, without the characters KiCad refuses in a library id. */
const LIB_ID = /^[^:\s"\\/<>|*?]+:[^:\s"\\/<>|*?]+$/;
const MANDATORY_FIELDS = new Set(['reference', 'value', 'footprint', 'datasheet']);
const CONTROL = /[\u0000-\u001f]/;

export interface CheckedSpec {
  /** `R1.2` -> net name. */
  netOf: Map<string, string>;
  noConnect: Set<string>;
}

/**
 * The rules the JSON Schema cannot say: annotated, unique references; unique pin numbers per component; field names
 * other than KiCad's four mandatory ones; net names without control characters, each net listed once and not empty;
 * every pin reference (`R1.2`) naming a component's pin, and in at most one net or the no-connect list. Every problem is
 * reported (validation_errors), the first in the message.
 */
export function checkSpec(spec: SchematicSpec): CheckedSpec {
  const issues: { path: string; message: string }[] = [];
  const bad = (path: string, message: string) => issues.push({ path, message });
  const pins = new Set<string>();
  const refs = new Set<string>();
  spec.components.forEach((c, i) => {
    const at = `components.${i}`;
    if (!REFERENCE.test(c.reference))
      bad(`${at}.reference`, `reference ${JSON.stringify(c.reference)} is not annotated letters+number (e.g. R1, U3)`);
    if (refs.has(c.reference)) bad(`${at}.reference`, `duplicate reference ${c.reference}`);
    refs.add(c.reference);
    if (c.lib_id !== undefined && !LIB_ID.test(c.lib_id))
      bad(`${at}.lib_id`, `lib_id ${JSON.stringify(c.lib_id)} of ${c.reference} is not library:name`);
    if (!c.pins.length) bad(`${at}.pins`, `${c.reference} has no pins`);
    const numbers = new Set<string>();
    c.pins.forEach((p, j) => {
      if (!p.number || /\s/.test(p.number) || p.number.includes('.'))
        bad(
          `${at}.pins.${j}.number`,
          `pin number ${JSON.stringify(p.number)} of ${c.reference} is empty or has a space or dot`,
        );
      if (numbers.has(p.number)) bad(`${at}.pins.${j}.number`, `${c.reference} has pin ${p.number} twice`);
      numbers.add(p.number);
      pins.add(pinKey(c.reference, p.number));
      if (p.name !== undefined && CONTROL.test(p.name))
        bad(`${at}.pins.${j}.name`, `pin name of ${pinKey(c.reference, p.number)} has a control character`);
    });
    for (const k of Object.keys(c.fields ?? {})) {
      if (MANDATORY_FIELDS.has(k.toLowerCase()) || !k.trim())
        bad(`${at}.fields`, `field ${JSON.stringify(k)} of ${c.reference} is empty or one of KiCad's mandatory fields`);
    }
  });

  const netOf = new Map<string, string>();
  const nets = new Set<string>();
  const claim = (ref: string, owner: string, path: string) => {
    if (!pins.has(ref)) {
      const comp = ref.slice(0, Math.max(0, ref.indexOf('.')));
      bad(
        path,
        refs.has(comp)
          ? `${owner}: ${ref} is not a pin of ${comp}`
          : `${owner}: ${ref} names no component pin (expected REF.PIN, e.g. R1.2)`,
      );
      return false;
    }
    const prior = netOf.get(ref);
    if (prior !== undefined) {
      bad(path, `${ref} is in net ${prior} and ${owner}`);
      return false;
    }
    return true;
  };
  spec.connections.forEach((c, i) => {
    const at = `connections.${i}`;
    if (!c.net.trim() || CONTROL.test(c.net))
      bad(`${at}.net`, `net name ${JSON.stringify(c.net)} is blank or has a control character`);
    if (nets.has(c.net)) bad(`${at}.net`, `net ${c.net} is listed twice (list all its pins once)`);
    nets.add(c.net);
    if (!c.pins.length) bad(`${at}.pins`, `net ${c.net} is empty (no pins)`);
    c.pins.forEach((ref, j) => {
      if (claim(ref, `net ${c.net}`, `${at}.pins.${j}`)) netOf.set(ref, c.net);
    });
  });
  const noConnect = new Set<string>();
  (spec.no_connect ?? []).forEach((ref, j) => {
    if (noConnect.has(ref)) bad(`no_connect.${j}`, `${ref} is listed twice in no_connect`);
    else if (claim(ref, 'no_connect', `no_connect.${j}`)) noConnect.add(ref);
  });
  if (issues.length) {
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem(s))` : '';
    throw new InvalidArgumentsError(`${issues[0]!.message}${more}`, { validation_errors: issues });
  }
  return { netOf, noConnect };
}
