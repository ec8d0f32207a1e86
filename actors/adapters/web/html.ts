/**
 * HTML to readable text with regular expressions (no parser dependency): drops comments, scripts, styles and other
 * non-content elements (also when a truncated page leaves them unclosed), turns blocks into blank lines and list items, rows and `<br>` into line breaks,
 * removes the remaining tags (quoted attributes may contain `>`), decodes entities last (so `&lt;b&gt;` stays text)
 * and collapses whitespace. Good enough for an agent to read a page; not a renderer.
 */

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  deg: '°',
  plusmn: '±',
  times: '×',
  divide: '÷',
  micro: 'µ',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
  shy: '',
  ensp: ' ',
  emsp: ' ',
  thinsp: ' ',
  zwnj: '',
  zwj: '',
  le: '≤',
  ge: '≥',
  ne: '≠',
  asymp: '≈',
  infin: '∞',
  minus: '−',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  sup2: '²',
  sup3: '³',
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  theta: 'θ',
  lambda: 'λ',
  mu: 'μ',
  pi: 'π',
  sigma: 'σ',
  tau: 'τ',
  phi: 'φ',
  omega: 'ω',
  Delta: 'Δ',
  Omega: 'Ω',
  Sigma: 'Σ',
  rarr: '→',
  larr: '←',
  harr: '↔',
  uarr: '↑',
  darr: '↓',
};

/** Decodes named (common set) and numeric character references; unknown or invalid ones stay as written. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});?/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
      return String.fromCodePoint(code);
    }
    return NAMED[ref] ?? whole;
  });
}

/**
 * Elements whose content is never page text; an unclosed one (cut page) runs to the end. Attribute runs in the tag
 * patterns below are bounded so a stray `<` cannot make a scan quadratic.
 */
const DROPPED = /<(script|style|noscript|template|svg|math|iframe|object|canvas)\b[\s\S]*?(?:<\/\1\s*>|$)/gi;
const COMMENT = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![^>]*>|<\?[\s\S]*?(?:\?>|$)/g;
const LINE = /<(?:br|li|tr|dt|dd)\b(?:"[^"]*"|'[^']*'|[^'">]){0,1000}>/gi;
const LINE_END = /<\/(?:li|tr|dt|dd)\s*>/gi;
const BLOCK =
  /<\/?(?:p|div|hr|h[1-6]|ul|ol|dl|table|thead|tbody|tfoot|section|article|aside|header|footer|nav|main|blockquote|pre|figure|figcaption|form|fieldset|address|details|summary|caption)\b(?:"[^"]*"|'[^']*'|[^'">]){0,1000}>/gi;
const CELL = /<\/?(?:td|th)\b(?:"[^"]*"|'[^']*'|[^'">]){0,1000}>/gi;
const TAG = /<\/?[a-zA-Z][^\s/>]*(?:"[^"]*"|'[^']*'|[^'">]){0,1000}>/g;

/** The page title, decoded, or null. */
export function htmlTitle(html: string): string | null {
  const m = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  if (!m) return null;
  const title = decodeEntities(m[1].replace(TAG, '')).replace(/\s+/g, ' ').trim();
  return title || null;
}

/** Readable text of an HTML document or fragment. */
export function htmlToText(html: string): string {
  const text = html
    .replace(COMMENT, ' ')
    .replace(DROPPED, ' ')
    .replace(LINE, '\n')
    .replace(LINE_END, '')
    .replace(BLOCK, '\n\n')
    .replace(CELL, ' \t ')
    .replace(TAG, '')
    .replace(/<[a-zA-Z][^>]*$/, ''); // a tag cut off at the end of a truncated page
  return decodeEntities(text)
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
