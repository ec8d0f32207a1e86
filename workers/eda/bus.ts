/** One member of a bus: `index` matches members across differently named buses (vector index, or the group member's name). */
export interface BusMember {
  index: string;
  name: string;
}

const VECTOR = /^(.*)\[(\d+)\.\.(\d+)\]$/;
const GROUP = /^([^{}]*)\{([^{}]+)\}$/;
const MAX_MEMBERS = 4096;

/**
 * The members of a bus label (KiCad 6): a vector `D[0..7]` (members D0..D7, index 0..7) or a group `USB{DP DM}`
 * (members USB.DP, USB.DM; an unnamed group `{A B}` has members A, B). A group member may itself be a vector. Null when
 * the text names no bus.
 */
export function busMembers(text: string): BusMember[] | null {
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
  const g = GROUP.exec(text);
  if (g) {
    const [, name, body] = g;
    const out: BusMember[] = [];
    for (const part of body!.split(/[\s,]+/).filter(Boolean)) {
      const inner = busMembers(part);
      const full = (m: string) => (name ? `${name}.${m}` : m);
      if (inner) for (const m of inner) out.push({ index: m.name, name: full(m.name) });
      else out.push({ index: part, name: full(part) });
    }
    return out;
  }
  return null;
}
