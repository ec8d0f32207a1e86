/**
 * A netlist's statements as ngspice reads them (measured on ngspice 39, issue 27 finding 6): a line whose first
 * non-blank character is `+` continues the statement before it, with blank and comment lines between skipped, and is
 * joined to it by one space (`fi` then `+le=` reads `fi le=`). A trailing backslash joins nothing (`R1 a 0 \` is an
 * error there). Inline comments (`;`, `$ `, `//`) are not stripped here: a check that sees them sees more than
 * ngspice does, never less. The allow-list checks these joined statements, never a line on its own.
 */

/** One statement: its first line, and the `+` lines joined into it. */
export interface Statement {
  /** 0-based index of its first line. */
  index: number;
  /** The statement as ngspice reads it: its lines trimmed, each `+` dropped, joined by one space. */
  text: string;
  /** 0-based indexes of the continuation lines joined into it. */
  continued: number[];
  /** It starts with a `+` line that follows no statement of this file (ngspice would join it to another file's). */
  orphan: boolean;
}

/** A blank line or a whole-line comment (`*`, `;`, `$`, `//`): ngspice skips it, between continuations too. */
export const isCommentLine = (trimmed: string) => !trimmed || /^(\*|;|\$|\/\/)/.test(trimmed);

/** The lines of a netlist file, split as every check and rewrite of it splits them. */
export const netlistLines = (text: string) => text.split(/\r?\n|\r/);

/** The statements of `lines` from line `from` on (1 skips a top-level netlist's title), continuations joined. */
export function joinStatements(lines: readonly string[], from = 0): Statement[] {
  const out: Statement[] = [];
  for (let k = from; k < lines.length; k++) {
    const trimmed = lines[k]!.trim();
    if (isCommentLine(trimmed)) continue;
    const last = out.at(-1);
    if (trimmed.startsWith('+') && last) {
      last.text = `${last.text} ${trimmed.slice(1).trim()}`.trimEnd();
      last.continued.push(k);
      continue;
    }
    out.push({ index: k, text: trimmed, continued: [], orphan: trimmed.startsWith('+') });
  }
  return out;
}
