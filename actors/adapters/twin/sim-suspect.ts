/**
 * Why a simulation result is suspect (issue 28 point 5, decision 0073), from what its record states, no I/O: its
 * load and fixture sets overlap (a load on a fixed face or node set is reacted at once and proves nothing), or a peak
 * it reports is zero (a loaded model with no stress or no displacement did not see its load). Empty when sound.
 */
type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The keys that name a face or node set in a fixture or load record (markers use `label`). */
const SET_KEYS = ['label', 'face', 'faces', 'surface', 'node_set', 'set', 'named_face'];
/** The peaks a result reports; zero in any of them is suspect. */
const PEAKS = ['max_von_mises_mpa', 'max_displacement_mm', 'max_stress_mpa'];

function names(v: unknown): string[] {
  if (typeof v === 'string' && v.trim()) return [v.trim()];
  if (Array.isArray(v)) return v.flatMap(names);
  return [];
}
const setsOf = (recs: unknown) =>
  Array.isArray(recs) ? recs.filter(isRecord).flatMap((r) => SET_KEYS.flatMap((k) => names(r[k]))) : [];

export function suspectReasons(p: { summary: Rec; fixtures: unknown; loads: unknown; load_case_spec?: Rec }): string[] {
  const spec = p.load_case_spec ?? {};
  const fixed = new Set([...setsOf(p.fixtures), ...names(spec.fixed_node_set), ...names(spec.fixture)]);
  const loaded = [...new Set([...setsOf(p.loads), ...names(spec.load_node_set), ...names(spec.load_face)])];
  const both = loaded.filter((s) => fixed.has(s));
  const out: string[] = [];
  if (both.length) out.push(`load and fixture sets overlap: ${both.join(', ')} is both loaded and fixed`);
  for (const k of PEAKS) if (p.summary[k] === 0) out.push(`peak ${k} is 0: the model carried no load`);
  return out;
}
