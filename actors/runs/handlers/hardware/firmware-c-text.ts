/**
 * Schematic text (part values, references, footprints, pin names and numbers, nets) written into generated C source
 * (issue 27, finding 10): it is data, never code. A C string literal escapes everything that is not plain printable
 * ASCII, and `?` (a trigraph `??/` is a backslash under -std=c11); comment text never closes or opens a comment, never
 * forms a trigraph and never ends in a backslash (a line splice); a pad number is a decimal number or nothing.
 */

const SIMPLE: Record<string, string> = { '"': '\\"', '\\': '\\\\', '?': '\\?', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` as a C string literal, quotes included: printable ASCII as is, the rest as escapes (UTF-8 bytes in octal). */
export function cString(text: string): string {
  let out = '';
  for (const ch of text) {
    const simple = SIMPLE[ch];
    if (simple) out += simple;
    else if (ch >= ' ' && ch <= '~') out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `\\${b.toString(8).padStart(3, '0')}`;
  }
  return `"${out}"`;
}

/** Text that reads the same inside a C comment: plain printable ASCII kept as is. */
const PLAIN_COMMENT = /^[\x20-\x7e]*$/;

/**
 * `text` for a C comment (`/* ... *\/` on one line): kept as is when it is plain printable ASCII with no comment
 * delimiter, trigraph, quote or backslash; otherwise quoted as a C string literal (so it ends in `"`, never in a
 * backslash) with `*\/`, `/*` and `??` broken apart.
 */
export function cComment(text: string): string {
  if (PLAIN_COMMENT.test(text) && !/\*\/|\/\*|\?\?|["\\]/.test(text)) return text;
  return cString(text).replaceAll('*/', '*\\/').replaceAll('/*', '/\\*');
}

/** A pad number for a `#define`: decimal digits only (KiCad allows any text: `A1`, or worse), else undefined. */
export const cPadNumber = (pad: string): string | undefined => (/^\d{1,6}$/.test(pad) ? pad : undefined);
