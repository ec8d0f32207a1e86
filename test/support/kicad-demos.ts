import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * KiCad's demo projects, per KiCad major version, as the EDA tests read them:
 * - 9: the machine's own (Debian bookworm-backports `kicad-demos` 9.0.x, /usr/share/kicad/demos);
 * - 6: Debian bookworm's `kicad-demos` 6.0.11, fetched into test/fixtures/kicad6/demos by `npm run fixtures:kicad6`
 *   (test/fixtures/kicad6/fetch.sh; .ci/run runs it before the tests).
 * A folder counts only when its files are of that version (the machine's demos were KiCad 6's until the KiCad 9
 * install): its StickHub schematic's `(version N)` is read. Absent demos are `undefined` locally (the suites that need
 * them skip) and a thrown error under CI=true, as the other engines' tests do.
 */
export type KicadMajor = 6 | 9;

export const KICAD6_DEMOS = fileURLToPath(new URL('../fixtures/kicad6/demos', import.meta.url));
export const SYSTEM_DEMOS = '/usr/share/kicad/demos';

/** The file versions (`(version N)` of a .kicad_sch) each major writes: 6.0 wrote 20211123, 9.0 writes 20250114. */
const SCHEMATIC_VERSIONS: Record<KicadMajor, [number, number]> = {
  6: [20200310, 20220101],
  9: [20241004, 20259999],
};

/** The `(version N)` of a schematic's head, or 0. */
export function schematicVersion(file: string): number {
  try {
    const head = fs.readFileSync(file, 'utf8').slice(0, 400);
    return Number(/\(version\s+(\d+)\)/.exec(head)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function located(major: KicadMajor): string | undefined {
  const dir = major === 6 ? KICAD6_DEMOS : SYSTEM_DEMOS;
  const v = schematicVersion(path.join(dir, 'stickhub', 'StickHub.kicad_sch'));
  const [lo, hi] = SCHEMATIC_VERSIONS[major];
  return v >= lo && v <= hi ? dir : undefined;
}

/** The demos folder of KiCad `major`, or undefined when absent (locally); under CI=true absence throws. */
export function kicadDemos(major: KicadMajor): string | undefined {
  const dir = located(major);
  if (!dir && process.env.CI === 'true')
    throw new Error(
      major === 6
        ? `CI=true and KiCad 6's demos are not in ${KICAD6_DEMOS}: run npm run fixtures:kicad6 (Debian bookworm kicad-demos 6.0.11)`
        : `CI=true and KiCad 9's demos are not in ${SYSTEM_DEMOS}: install kicad-demos from bookworm-backports`,
    );
  return dir;
}

/** Every demo project's root schematics (a `.kicad_sch` beside a `.kicad_pro` of the same stem), relative to `dir`. */
export function demoProjects(dir: string): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(r);
      else if (e.name.endsWith('.kicad_pro')) {
        const sch = r.replace(/\.kicad_pro$/, '.kicad_sch');
        if (fs.existsSync(path.join(dir, sch))) out.push(sch);
      }
    }
  };
  visit('');
  return out.sort();
}
