import { checkStatements, isIncludeCard } from '../kit/spice/netlist-policy.ts';
import { parseSchematicText } from '../../../workers/eda/schematic.ts';
import { children } from '../../../workers/eda/sexpr.ts';

/** A text item placed on a sheet (`(text "..." (at ...))`), with the file it sits in. */
export interface SheetText {
  file: string;
  text: string;
}

/** Something of the schematic left out of the SPICE netlist, and why. */
export interface SpiceSkip {
  item: string;
  reason: string;
}

/** An include card of a directive (`.include file`, `.lib file section`): the file it names, resolved by the caller. */
export interface IncludeDirective {
  card: string;
  file: string;
  rest: string;
  item: string;
}

export interface SheetDirectives {
  /** The last `.title` directive's text. */
  title?: string;
  /** Accepted statements in sheet order; a statement with its `+` continuation lines is one entry. */
  statements: string[];
  includes: IncludeDirective[];
  skipped: SpiceSkip[];
}

/** The top-level text items of one schematic file (the texts inside library symbols are not sheet text). */
export function sheetTexts(file: string, source: string): SheetText[] {
  return children(parseSchematicText(file, source), 'text')
    .map((t) => t[1])
    .filter((t): t is string => typeof t === 'string')
    .map((text) => ({ file, text }));
}

const INCLUDE = /^(\S+)\s+("[^"]*"|'[^']*'|\S+)(.*)$/;

/**
 * The simulation directives of the sheets, KiCad 6's way: a text item whose first character is `.` is a block of
 * directives, one per line (`+` lines continue the one before, comment lines are kept as they are). `.title` names the
 * netlist, `.end` is the exporter's own last line, include cards are returned for the caller to resolve. Every other
 * statement must pass `circuit.run_simulation`'s allow-list (netlist-policy.ts); a refused one (a `.control` block
 * and its commands, an unknown dot card or option, a `file=` parameter) is skipped with the policy's reason.
 */
export function sheetDirectives(texts: SheetText[]): SheetDirectives {
  const out: SheetDirectives = { statements: [], includes: [], skipped: [] };
  for (const { file, text } of texts) {
    if (!text.trimStart().startsWith('.')) continue;
    const where = `text directive in ${file}`;
    const lines = text
      .split(/\r?\n|\r/)
      .map((l) => l.trim())
      .filter(Boolean);
    const blocks: string[][] = [];
    for (const line of lines) {
      if (line.startsWith('+') && blocks.length) blocks.at(-1)!.push(line);
      else blocks.push([line]);
    }
    let control = false;
    for (const block of blocks) {
      const head = block[0]!;
      const word = head.split(/\s+/)[0]!.toLowerCase();
      const item = block.join('\n');
      if (control || /^\.control/.test(word)) {
        control = !/^\.endc/.test(word);
        out.skipped.push({
          item,
          reason: `${where}: a .control block is an ngspice script; the circuit tool runs none`,
        });
        continue;
      }
      if (word === '.title') {
        out.title = head.slice(word.length).trim();
        continue;
      }
      if (word === '.end') {
        out.skipped.push({ item, reason: `${where}: the exporter writes .end itself, last` });
        continue;
      }
      if (isIncludeCard(word)) {
        const m = INCLUDE.exec(head);
        const file = m?.[2]!.replace(/^(["'])(.*)\1$/, '$2');
        // `.lib name` without a file opens a library section in an included file; on a sheet it is a stray header.
        const section = /^\.lib/.test(word) && !m?.[3]!.trim() && !/^["']/.test(m?.[2] ?? '');
        if (!m || !file || section) {
          out.skipped.push({ item, reason: `${where}: ${word} names no library file` });
          continue;
        }
        out.includes.push({ card: m[1]!, file, rest: m[3]!, item });
        continue;
      }
      try {
        checkStatements(item, where, false);
        out.statements.push(item);
      } catch (err) {
        out.skipped.push({ item, reason: (err as Error).message });
      }
    }
  }
  return out;
}
