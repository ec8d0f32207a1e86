import { atom, child, children, type SList } from './sexpr.ts';

/**
 * What differs between the schematic file versions the reader takes (KiCad 6 to 9; docs/eda.md has the table): each
 * function reads one construct the way every version wrote it.
 */

/** Why a KiCad 5 (or older) `.sch` is refused and how to convert it (decision 0136). */
export function legacyMessage(formatVersion: string | undefined): string {
  const made = formatVersion === '4' ? 'KiCad 5' : formatVersion ? 'KiCad 4 or older' : 'KiCad 5 or older';
  return (
    `a legacy schematic (EESchema Schematic File Version ${formatVersion ?? '?'}, written by ${made}): this reader ` +
    'reads KiCad 6 to 9 (.kicad_sch). Convert it by opening the project in KiCad 6 or later (the schematic editor ' +
    'imports the .sch with its -cache.lib symbol library) and saving, which writes a .kicad_sch; kicad-cli has no ' +
    'schematic upgrade command'
  );
}

/** Up to version 20250318 (past every version read here) a lone `~` is KiCad's empty text. */
export const tilde = (v: string | undefined) => (v === undefined || v === '~' ? '' : v);

/**
 * A label's text as a net name compares: KiCad 7+ files may write a slash typed in a label as `{slash}` (KiCad's net
 * name escape), and KiCad joins `VPP{slash}MCLR` with `VPP/MCLR`; read both as the slash.
 */
export const netText = (t: string) => t.replaceAll('{slash}', '/');

/**
 * A field's text with its references to the symbol's own fields resolved, as KiCad shows it: `${SIM.PARAMS}` (KiCad 7+
 * simulation demos write it as the Value) is the symbol's `Sim.Params` field; KiCad matches the names ignoring case.
 * A reference to anything else (project text variables, other symbols) stays as written.
 */
export function expandFields(text: string, fields: Record<string, string>): string {
  if (!text.includes('${')) return text;
  const upper = new Map(Object.entries(fields).map(([k, v]) => [k.toUpperCase(), v]));
  return text.replace(/\$\{([^{}]+)\}/g, (all, name: string) => {
    const v = upper.get(name.toUpperCase());
    return v === undefined || v.includes('${') ? all : v;
  });
}

/**
 * A sheet symbol's name and file. KiCad 6 writes them as the properties of id 0 and 1, named `Sheet name` and
 * `Sheet file` (translated in some files: `Nom feuille`, `Fichier de feuille`); from 20220929 ids are gone and from
 * KiCad 7 the names are `Sheetname` and `Sheetfile`. By id, then by either name, then by place (KiCad writes the
 * two first).
 */
export function sheetFields(s: SList): { name?: string; file?: string } {
  const props = children(s, 'property').filter((p) => typeof p[1] === 'string' && typeof p[2] === 'string');
  const value = (id: string, names: string[], index: number) =>
    (props.find((p) => atom(p, 'id') === id) ??
      props.find((p) => names.includes(p[1] as string)) ??
      (props.some((p) => child(p, 'id')) ? undefined : props[index]))?.[2] as string | undefined;
  return {
    name: value('0', ['Sheetname', 'Sheet name'], 0) || undefined,
    file: value('1', ['Sheetfile', 'Sheet file'], 1) || undefined,
  };
}
