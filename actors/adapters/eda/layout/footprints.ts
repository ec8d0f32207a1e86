import fs from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentsError } from '../../kit/tool.ts';
import type { NetlistComponent } from './netlist.ts';

/**
 * KiCad 9's footprint libraries (Debian `kicad-footprints` from bookworm-backports): one `<library>.pretty` folder
 * per library, one `<name>.kicad_mod` per footprint. KICAD9_FOOTPRINT_DIR (KiCad's own variable) names another root.
 */
let libraryRoot = process.env.KICAD9_FOOTPRINT_DIR || '/usr/share/kicad/footprints';
export const FOOTPRINT_ROOT = () => libraryRoot;

/** Points the layout at another library root (tests). */
export function setFootprintRoot(root: string): void {
  libraryRoot = root;
}

export const FOOTPRINTS_MISSING = () =>
  `KiCad 9's footprint libraries are not installed at ${libraryRoot} (Debian package kicad-footprints from the suite bookworm-backports; KICAD9_FOOTPRINT_DIR names another folder)`;

/** A footprint of the libraries: the symbol that asks for it, its library and its name. */
export interface LibraryFootprint {
  ref: string;
  lib: string;
  name: string;
}

/**
 * A library nickname or footprint name as KiCad's libraries spell them: letters, digits and `_ . , + -`, never a
 * path (no `/`, `\`, `..`, leading dot). Anything else is refused before a file is looked for.
 */
const SAFE_PART = /^(?!\.)[A-Za-z0-9_.,+-]{1,200}$/;

/**
 * Each component's footprint resolved in the libraries, or INVALID_ARGUMENTS naming every symbol whose footprint is
 * missing, malformed (not `library:name`, or a path such as `../../etc:x`) or not in the libraries. The check is
 * native and exact (the file `<root>/<library>.pretty/<name>.kicad_mod` must exist, inside the root once symlinks are
 * resolved); the pcbnew script checks the same again before loading.
 */
export async function resolveFootprints(
  components: NetlistComponent[],
  schematicPath: string,
): Promise<LibraryFootprint[]> {
  const root = await fs.realpath(libraryRoot).catch(() => null);
  if (!root) throw new InvalidArgumentsError(FOOTPRINTS_MISSING(), { library_root: libraryRoot });
  const problems: { path: string; message: string }[] = [];
  const out: LibraryFootprint[] = [];
  for (const c of components) {
    const where = `${c.ref} (${JSON.stringify(c.footprint)})`;
    const m = /^([^:]*):(.*)$/.exec(c.footprint);
    if (!c.footprint) {
      problems.push({ path: c.ref, message: `${c.ref} has no Footprint property` });
      continue;
    }
    if (!m || !SAFE_PART.test(m[1]!) || !SAFE_PART.test(m[2]!) || m[1]!.includes('..') || m[2]!.includes('..')) {
      problems.push({ path: c.ref, message: `${where} is not a library footprint name (library:footprint)` });
      continue;
    }
    const [, lib, name] = m as unknown as [string, string, string];
    const file = path.join(root, `${lib}.pretty`, `${name}.kicad_mod`);
    const real = await fs.realpath(file).catch(() => null);
    if (!real || path.relative(root, real).startsWith('..')) {
      problems.push({ path: c.ref, message: `${where} is not in KiCad's footprint libraries` });
      continue;
    }
    out.push({ ref: c.ref, lib, name });
  }
  if (problems.length)
    throw new InvalidArgumentsError(
      `schematic_path ${JSON.stringify(schematicPath)}: ${problems.map((p) => p.message).join('; ')}`,
      { schematic_path: schematicPath, validation_errors: problems },
    );
  return out;
}
