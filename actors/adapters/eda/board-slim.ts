/**
 * The text of a board as the native check reads it (board-stage.ts): the board without the blocks whose bulk the check
 * never reads, the zones' computed fills (`(filled_polygon ...)`: KiCad recomputes them, the reader takes a zone's net
 * and layers only) and the files KiCad 9 embeds (`(embedded_files ...)`: fonts, 3D models, datasheets as base64). On
 * KiCad 9's vme-wren (69.6 MB) they are 25.6 MB and 15.5 MB, and the whole text ran the reader's 512 MB thread out of
 * memory (decision 0150). KiCad itself always gets the board's own bytes.
 *
 * A linear scan that skips quoted strings (a `)` inside a string closes nothing); a block that does not close (a
 * truncated file) is left as it is, so the reader reports the file as it would have.
 */
const BULK = ['(filled_polygon', '(embedded_files'];
const OPEN = 40; // (
const CLOSE = 41; // )
const QUOTE = 34; // "
const BACKSLASH = 92;

/** The index just past the block opened at `start`, or -1 when it does not close. */
function blockEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (c === OPEN) depth++;
    else if (c === CLOSE && --depth === 0) return i + 1;
  }
  return -1;
}

/** The start of each head's next block at or after a position (a head followed by a space, tab, newline or `)`). */
function bulkFinder(text: string): (from: number) => number {
  // Each head's next place is remembered: looking again from every block for a head that comes once, at the end
  // (embedded_files), would scan the rest of the file per block.
  const next = BULK.map(() => -2);
  const find = (head: string, from: number) => {
    let at = text.indexOf(head, from);
    while (at >= 0 && !/[\s)]/.test(text[at + head.length] ?? '')) at = text.indexOf(head, at + 1);
    return at;
  };
  return (from) => {
    let best = -1;
    BULK.forEach((head, i) => {
      if (next[i] !== -1 && next[i]! < from) next[i] = find(head, from);
      if (next[i]! >= 0 && (best < 0 || next[i]! < best)) best = next[i]!;
    });
    return best;
  };
}

/** How many line ends `text` has between `from` and `to`. */
function lineEnds(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * `text` without its filled_polygon and embedded_files blocks, each an empty list of the same head holding the block's
 * line ends, so that every line after it keeps its number (a refusal names the line of the board's own file).
 */
export function slimBoardText(text: string): string {
  const parts: string[] = [];
  let from = 0;
  const nextBulk = bulkFinder(text);
  for (let at = nextBulk(0); at >= 0; at = nextBulk(from)) {
    const end = blockEnd(text, at);
    if (end < 0) break;
    const head = BULK.find((h) => text.startsWith(h, at))!;
    parts.push(text.slice(from, at), `${head}${'\n'.repeat(lineEnds(text, at, end))})`);
    from = end;
  }
  if (from === 0) return text;
  parts.push(text.slice(from));
  return parts.join('');
}
