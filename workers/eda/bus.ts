/** One member of a bus: `index` matches members across differently named buses (vector index, or the group member's name). */
export interface BusMember {
  index: string;
  name: string;
}

const VECTOR = /^(.*)\[(\d+)\.\.(\d+)\]$/;
const MAX_MEMBERS = 4096;

/**
 * The members of a bus label (KiCad 6 to 9): a vector `D[0..7]` (members D0..D7, index 0..7) or a group `USB{DP DM}`
 * (members USB.DP, USB.DM; an unnamed group `{A B}` has members A, B). A group member may itself be a vector. Null when
 * the text names no bus.
 */
export function busMembers(text: string, aliases?: ReadonlyMap<string, string[]>): BusMember[] | null {
  const v = VECTOR.exec(text);
  if (v) {
    const [, prefix, a, b] = v;
    const lo = Math.min(Number(a), Number(b));
    const hi = Math.max(Number(a), Number(b));
    if (hi - lo >= MAX_MEMBERS) return null;
    const out: BusMember[] = [];
    for (let i = lo; i <= hi; i++) out.push({ index: String(i), name: `${prefix}${i}` });
    return out;
  }
  const g = splitGroup(text);
  if (g) {
    const { name, parts } = g;
    const out: BusMember[] = [];
    for (const part of parts) {
      const full = (m: string) => (name ? `${name}.${m}` : m);
      // A bus alias (`(bus_alias "PCIE" (members ...))`, used as `{PCIE}`) stands for its members.
      const alias = aliases?.get(part);
      if (alias) {
        for (const a of alias)
          for (const m of busMembers(a) ?? [{ index: a, name: a }]) out.push({ index: m.name, name: full(m.name) });
        continue;
      }
      const inner = busMembers(part);
      if (inner) for (const m of inner) out.push({ index: m.name, name: full(m.name) });
      else out.push({ index: part, name: full(part) });
    }
    return out;
  }
  return null;
}

/**
 * A group's name and members: `NAME{A B}` or `NAME{A, B}`. Members may carry KiCad's text markup (`~{RESET}` overbar,
 * `^{..}`, `_{..}`, written by KiCad 7+ files: `SWD_TRG{~{RESET}, SWDIO}`), whose braces are not the group's; as KiCad
 * 9.0's NET_SETTINGS::ParseBusGroup, a member is named without its markup (SWD_TRG.RESET), so that a label written
 * with it (SWD_TRG.~{RESET}) is not that member (decision 0161). Null when the text is no group.
 */
function splitGroup(text: string): { name: string; parts: string[] } | null {
  const isMarkup = (i: number) => i > 0 && '~^_'.includes(text[i - 1]!);
  let depth = 0;
  let open = -1;
  for (let i = 0; i < text.length && open < 0; i++) {
    if (text[i] === '{') {
      if (isMarkup(i)) depth++;
      else if (depth === 0) open = i;
      else return null;
    } else if (text[i] === '}') depth--;
  }
  if (open < 0 || !text.endsWith('}')) return null;
  const parts: string[] = [];
  let cur = '';
  depth = 0;
  for (let i = open + 1; i < text.length - 1; i++) {
    const c = text[i]!;
    // KiCad 9.0 keeps a member's text without its markup: `~{RESET}` is the member RESET.
    if (c === '{') {
      if (!isMarkup(i)) return null;
      depth++;
      cur = cur.slice(0, -1);
      continue;
    } else if (c === '}') {
      if (--depth < 0) return null;
      continue;
    }
    if (depth === 0 && (c === ' ' || c === ',' || c === '\t')) {
      if (cur) parts.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur) parts.push(cur);
  return depth === 0 && parts.length ? { name: text.slice(0, open), parts } : null;
}
