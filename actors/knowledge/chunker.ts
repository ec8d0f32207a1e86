/**
 * Splits a text into chunks of about `target` characters on paragraph, then sentence, then line, then word
 * boundaries. The chunks partition the text exactly (nothing trimmed, nothing overlapping), so joining them in
 * order gives the text back: `knowledge.getSource` re-assembles a source that way. Pure and synchronous.
 */

/** Chunk sizes in characters: a cut is looked for between `min` and `max`, as close to `target` as possible. */
export interface ChunkSizes {
  target: number;
  min: number;
  max: number;
}

/** About 1,500 characters a chunk (a few paragraphs: big enough for context, small enough for a precise citation). */
export const DEFAULT_CHUNK_SIZES: ChunkSizes = { target: 1500, min: 1000, max: 1900 };

/** Boundary kinds, best first; a cut falls right after the match (whitespace stays with the preceding chunk). */
const BOUNDARIES: RegExp[] = [
  /\n[ \t\r]*\n\s*/g, // paragraph: a blank line
  /[.!?。](?:["'”’)\]]*)\s+/g, // sentence end
  /\n\s*/g, // line break
  /\s+/g, // word
];

/** Best cut offset (relative to the window) of the first boundary kind with a candidate in [min, max]. */
function bestCut(window: string, sizes: ChunkSizes): number | undefined {
  for (const re of BOUNDARIES) {
    re.lastIndex = 0;
    let best: number | undefined;
    for (let m = re.exec(window); m; m = re.exec(window)) {
      const cut = m.index + m[0].length;
      if (
        cut >= sizes.min &&
        cut <= sizes.max &&
        (best === undefined || Math.abs(cut - sizes.target) < Math.abs(best - sizes.target))
      )
        best = cut;
      if (m[0].length === 0) re.lastIndex++;
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

/** Never cut between the two halves of a surrogate pair. */
function safeCut(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

/** Splits `text` into consecutive chunks whose concatenation is `text`; an empty text gives no chunks. */
export function chunkText(text: string, sizes: ChunkSizes = DEFAULT_CHUNK_SIZES): string[] {
  const chunks: string[] = [];
  let start = 0;
  while (text.length - start > sizes.max) {
    const window = text.slice(start, start + sizes.max);
    const cut = bestCut(window, sizes) ?? safeCut(text, start + sizes.target) - start;
    chunks.push(text.slice(start, start + cut));
    start += cut;
  }
  if (start < text.length) chunks.push(text.slice(start));
  return chunks;
}
