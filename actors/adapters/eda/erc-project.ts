import fs from 'node:fs/promises';
import { InvalidArgumentsError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import type { ErcSettings } from '../../../workers/eda/erc-settings.ts';
import { KICAD9_SEVERITY } from '../../../workers/eda/erc.types.ts';

/** Largest project file read (KiCad's demos' are 10-60 kB). */
export const MAX_PROJECT_BYTES = 4 * 1024 * 1024;

/** A project's ERC settings as run_erc applies them, and what of the file it set aside (KiCad's own fallbacks). */
export interface ProjectErc {
  /** Workspace path of the .kicad_pro read, or null (none beside the schematic, or not asked for). */
  file: string | null;
  settings?: ErcSettings;
  /** Entries KiCad would not apply, each named with what is used instead. */
  notes: string[];
}

const PIN_VERDICT = ['ok', 'warning'] as const;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The `erc` object of a .kicad_pro read as KiCad 9 reads it (ERC_SETTINGS' JSON parameters, decision 0155):
 * - `rule_severities`: per rule name, "warning" and "ignore" as written, any other string is an error (KiCad's
 *   SeverityFromString); a value that is not a string keeps the default;
 * - `pin_map`: 12 rows of 12 integers, 0 ok, 1 warning, any other integer an error; another shape keeps KiCad's
 *   default matrix whole;
 * - `erc_exclusions`: strings `rule|x|y|...` (or `[string, comment]`), x and y the marker's position in schematic
 *   units; a marker of that rule at that point is left out. Others are set aside.
 * Text that is not JSON, or JSON that is not an object, is refused: its author's rules cannot be known.
 */
export function parseProjectErc(text: string, file: string): ProjectErc {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InvalidArgumentsError(
      `project file ${file} is not JSON (${(err as Error).message}): fix it, or pass use_project: false to check with KiCad 9's default rules`,
      { project_file: file },
    );
  }
  if (!isObject(json))
    throw new InvalidArgumentsError(`project file ${file} is not a JSON object`, { project_file: file });
  const notes: string[] = [];
  const erc = json.erc;
  if (erc === undefined) return { file, settings: { severities: {}, exclusions: [] }, notes };
  if (!isObject(erc))
    return { file, settings: { severities: {}, exclusions: [] }, notes: ['erc is not an object: defaults used'] };

  const severities: ErcSettings['severities'] = {};
  const rs = erc.rule_severities;
  if (isObject(rs)) {
    for (const rule of Object.keys(KICAD9_SEVERITY)) {
      if (!Object.hasOwn(rs, rule)) continue;
      const value = rs[rule];
      if (typeof value !== 'string') notes.push(`rule_severities.${rule} is not a string: default kept`);
      else severities[rule] = value === 'warning' || value === 'ignore' ? value : 'error';
    }
  } else if (rs !== undefined) notes.push('rule_severities is not an object: defaults used');

  let pin_map: ErcSettings['pin_map'];
  const pm = erc.pin_map;
  const square = (x: unknown): x is unknown[][] =>
    Array.isArray(x) && x.length === 12 && x.every((r) => Array.isArray(r) && r.length === 12);
  if (square(pm) && pm.every((r) => r.every((c) => Number.isInteger(c))))
    pin_map = pm.map((r) => r.map((c) => PIN_VERDICT[c as number] ?? 'error'));
  else if (pm !== undefined) notes.push("pin_map is not 12 rows of 12 integers: KiCad's default matrix used");

  const exclusions: ErcSettings['exclusions'] = [];
  const ex = erc.erc_exclusions;
  if (Array.isArray(ex))
    for (const e of ex) {
      const s = typeof e === 'string' ? e : Array.isArray(e) && typeof e[0] === 'string' ? e[0] : undefined;
      const [rule, x, y] = s?.split('|') ?? [];
      if (rule && x && y && Number.isFinite(Number(x)) && Number.isFinite(Number(y)))
        exclusions.push({ rule, x: Number(x), y: Number(y) });
      else notes.push(`erc_exclusions entry ${JSON.stringify(e).slice(0, 80)} is not rule|x|y: set aside`);
    }
  else if (ex !== undefined) notes.push('erc_exclusions is not a list: no exclusions');
  return { file, settings: { severities, ...(pin_map ? { pin_map } : {}), exclusions }, notes };
}

/**
 * The project file of a root schematic (the .kicad_pro of the same name in its folder, as KiCad opens it), read
 * through the workspace's confinement; none there is KiCad 9's defaults. Over MAX_PROJECT_BYTES is refused.
 */
export async function readProjectErc(ws: Workspace, schematicPath: string): Promise<ProjectErc> {
  // Not a .kicad_sch: no project to look for; the schematic reader refuses the path (a KiCad 5 .sch named as such).
  if (!schematicPath.endsWith('.kicad_sch')) return { file: null, notes: [] };
  // The schematic's own path is confined first, so a path leaving the workspace is refused naming schematic_path.
  await ws.resolveForRead(schematicPath, 'schematic_path');
  const file = schematicPath.replace(/\.kicad_sch$/, '.kicad_pro');
  const abs = await ws.resolveForRead(file, 'project file');
  const st = await fs.stat(abs).catch(() => undefined);
  if (!st) return { file: null, notes: [] };
  if (st.size > MAX_PROJECT_BYTES)
    throw new InvalidArgumentsError(`project file ${file} is ${st.size} bytes, over ${MAX_PROJECT_BYTES}`, {
      project_file: file,
    });
  const text = (await ws.read(file, 'project file')).toString('utf8');
  return parseProjectErc(text, file);
}
