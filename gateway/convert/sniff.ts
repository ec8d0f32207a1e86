import type { CadFormat } from '../../workers/convert/convert.schemas.ts';

/** The format an upload's name claims: `.step`/`.stp` STEP, `.iges`/`.igs` IGES (SPEC "Conversion result"). */
export function formatOfName(name: string): CadFormat | undefined {
  if (/\.(step|stp)$/i.test(name)) return 'step';
  if (/\.(iges|igs)$/i.test(name)) return 'iges';
  return undefined;
}

/** STEP (ISO 10303-21) starts with `ISO-10303-21;`; IGES with a Start record, column 73 `S`, sequence 1. */
export function formatOfContent(bytes: Uint8Array): CadFormat | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (/^\s*ISO-10303-21\s*;/.test(head)) return 'step';
  const first = head.split(/\r?\n/, 1)[0];
  if (first.length >= 73 && first[72] === 'S' && /^\s*0*1?\s*$/.test(first.slice(73, 80))) return 'iges';
  return undefined;
}

const LABEL: Record<CadFormat, string> = { step: 'STEP', iges: 'IGES' };

/**
 * The format of an upload, or the problem to answer 422 with: a name that is not STEP/IGES, or content that is not what
 * the name claims (no ISO-10303-21 header, no IGES Start section).
 */
export function detectFormat(name: string, bytes: Uint8Array): { format: CadFormat } | { problem: string } {
  const claimed = formatOfName(name);
  if (!claimed)
    return { problem: `${JSON.stringify(name)} is not a STEP or IGES file (expected .step, .stp, .iges or .igs)` };
  const actual = formatOfContent(bytes);
  if (actual === claimed) return { format: claimed };
  const why = claimed === 'step' ? 'no ISO-10303-21 header' : 'no IGES Start section (column 73 "S")';
  return {
    problem: `${JSON.stringify(name)} is not ${claimed === 'step' ? 'a' : 'an'} ${LABEL[claimed]} file (${why}${actual ? `; it looks like ${LABEL[actual]}` : ''})`,
  };
}
