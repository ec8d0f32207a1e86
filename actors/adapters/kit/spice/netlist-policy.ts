import { InvalidArgumentsError } from '../tool.ts';
import { joinStatements, netlistLines, type Statement } from './netlist-statements.ts';
import { COMMANDS, DOT_CARDS, FILE_MODELS, FILE_PARAM, FUNCTIONS, OPTIONS } from './netlist-vocabulary.ts';

export { ANALYSIS_CARDS } from './netlist-vocabulary.ts';

/**
 * What a netlist may say: ngspice input is data, never a script. Every line must be one of an allow-list of statements
 * (a comment, a `+` continuation, an element, or a dot card of `DOT_CARDS` or the include family); anything else, above
 * all `*ng_script` (ngspice runs such a file as a control script), `.control`/`.endc` and front-end commands such as
 * `shell`, is refused naming its line. Line 1 of a top-level netlist is its title, but ngspice still reads an include
 * there and runs `*ng_script`, so both are checked. Options are allow-listed by name too: ngspice copies `.options` into
 * its front-end variables (`.options filetype=binary` changes the raw file).
 *
 * Expressions (`{...}`, `'...'`, `.param`, `.func`): ngspice's expression functions are arithmetic only, but the names
 * called are still checked against `FUNCTIONS` plus the functions the netlist defines with `.func`, so a new ngspice
 * built-in that reaches outside cannot slip in unseen. Model parameters that make XSPICE code models read a file
 * (`file`, `input_file`, `state_file`..., with or without `=`) and the code models that read files are refused: they
 * would read any path outside the workspace, and a missing one would answer otherwise than a present one.
 */

/** A dot card that reads a file: `.include`, `.inc`, `.incl`, `.includex`, `.lib`, `.libx`, `.library`...: ngspice matches them by prefix. */
export const isIncludeCard = (word: string) => /^\.(inc|lib)/i.test(word);

/** An include card found in a file: its line (0-based), the card, the file it names and what follows the file. */
export interface IncludeRef {
  index: number;
  card: string;
  file: string;
  rest: string;
}

/** An expression met in a file, kept for the check once every `.func` of the deck is known. */
export interface Expression {
  where: string;
  line: number;
  text: string;
}

/** What a file of the deck holds once its statements passed the allow-list. */
export interface CheckedFile {
  includes: IncludeRef[];
  funcs: string[];
  expressions: Expression[];
}

const refuse = (where: string, line: number, text: string, why: string) =>
  new InvalidArgumentsError(
    `${where}, line ${line}: ${why} (${JSON.stringify(text.trim().slice(0, 80))}); a netlist is data, not a script`,
    { line, statement: text.trim().slice(0, 200) },
  );

/**
 * Checks every statement of `text` (`title`: line 1 is a top-level netlist's title) and returns its includes, the
 * functions it defines and the expressions it uses; throws InvalidArgumentsError naming the first refused line. What
 * ngspice acts on while it reads lines (`*ng_script`, `.control`, include cards) is checked per line; everything else
 * per statement, its continuation lines joined first as ngspice joins them (netlist-statements.ts).
 */
export function checkStatements(text: string, where: string, title: boolean): CheckedFile {
  if (text.includes('\0')) throw new InvalidArgumentsError(`${where} contains a NUL byte`);
  const lines = netlistLines(text);
  const out: CheckedFile = { includes: [], funcs: [], expressions: [] };
  for (let k = 0; k < lines.length; k++) {
    const trimmed = lines[k]!.trim();
    const word = trimmed.split(/\s+/)[0]!.toLowerCase();
    if (/^\*\s*ng_script/i.test(trimmed))
      throw refuse(where, k + 1, trimmed, '*ng_script makes ngspice run the file as a control script');
    if (/^\.(control|endc)/i.test(word)) {
      const hint =
        'give dot analyses instead (analysis_type with params, or a .op/.dc/.ac/.tran card); a netlist is data, not a script';
      throw new InvalidArgumentsError(`${where} has a .control block (line ${k + 1}): ${hint}`, {
        line: k + 1,
        statement: trimmed.slice(0, 200),
      });
    }
    if (isIncludeCard(word)) {
      const ref = includeRef(trimmed, k, where);
      if (ref) out.includes.push(ref);
    }
  }
  for (const st of joinStatements(lines, title ? 1 : 0)) checkStatement(st, where, out);
  return out;
}

/** One joined statement against the allow-list; what it defines and uses goes to `out`. */
function checkStatement(st: Statement, where: string, out: CheckedFile): void {
  const { text } = st;
  const no = st.index + 1;
  const word = text.split(/\s+/)[0]!.toLowerCase();
  if (st.orphan) throw refuse(where, no, text, 'a continuation line follows no statement');
  if (isIncludeCard(word)) {
    // ngspice reads the file in place of the card first, then joins: the `+` line would continue the file's last line.
    if (st.continued.length)
      throw refuse(where, st.continued[0]! + 1, text, 'a continuation line cannot follow an include card');
    return;
  }
  if (word.startsWith('.')) {
    if (!DOT_CARDS.has(word)) throw refuse(where, no, text, `${word} is not an allowed statement`);
  } else if (/^[a-z]/.test(word)) {
    if (COMMANDS.has(word)) throw refuse(where, no, text, `${word} is an ngspice command, not a circuit element`);
  } else {
    throw refuse(where, no, text, 'not a comment, an element, a continuation or an allowed dot card');
  }
  const param = text.match(/\w+/g)?.find((w) => FILE_PARAM.test(w));
  if (param)
    throw refuse(where, no, text, `a file= parameter (${param}) would make a code model read a file; it is refused`);
  const type = /^\.model\s+\S+?\s+(\w+)/i.exec(text)?.[1]?.toLowerCase();
  if (type && FILE_MODELS.has(type))
    throw refuse(where, no, text, `the code model ${type} reads a file named by its parameters; it is refused`);
  if (word === '.option' || word === '.options') checkOptions(text.replace(/^\S+/, ''), where, no, text);
  if (word === '.func' || word === '.param') {
    const defined = /^\.(?:func|param)\s+([a-z_]\w*)\s*\(/i.exec(text); // `.param f(x) = ...` defines a function too
    if (defined) out.funcs.push(defined[1]!.toLowerCase());
    out.expressions.push({ where, line: no, text: text.replace(/^\.\w+/, '') });
  } else {
    for (const m of text.matchAll(/\{[^}]*\}|'[^']*'/g)) out.expressions.push({ where, line: no, text: m[0] });
  }
}

/** `.lib <name>` alone opens a library section; any other include card names a file (quoted or not) first. */
function includeRef(trimmed: string, index: number, where: string): IncludeRef | undefined {
  const m = /^(\S+)\s+("[^"]*"|'[^']*'|\S+)(.*)$/.exec(trimmed);
  if (!m) throw refuse(where, index + 1, trimmed, `${trimmed.split(/\s+/)[0]} without a file name`);
  const [, card, quoted, rest] = m;
  const file = quoted.replace(/^(["'])(.*)\1$/, '$2');
  if (/^\.lib/i.test(card) && !rest.trim() && !/^["']/.test(quoted)) {
    if (/^[\w-]+$/.test(file)) return undefined; // a section header, ended by .endl
    throw refuse(where, index + 1, trimmed, 'a .lib file needs a section (.lib <file> <section>)');
  }
  if (!file || /["'\0]/.test(file) || file.startsWith('~'))
    throw refuse(where, index + 1, trimmed, 'the file name is empty, starts with ~ or holds a quote');
  return { index, card, file, rest };
}

function checkOptions(text: string, where: string, line: number, raw: string): void {
  for (const tok of text
    .replace(/\s*=\s*/g, '=')
    .trim()
    .split(/\s+/)
    .filter(Boolean)) {
    const [name, value] = tok.toLowerCase().split('=', 2);
    if (!OPTIONS.has(name)) throw refuse(where, line, raw, `option ${name} is not an allowed simulator option`);
    if (value !== undefined && !/^[\w.+-]+$/.test(value))
      throw refuse(where, line, raw, `option ${name} has an odd value`);
  }
}

/** Refuses an expression calling a function that is neither arithmetic (`FUNCTIONS`) nor defined by a `.func` of the deck. */
export function checkExpressions(expressions: Expression[], funcs: Iterable<string>): void {
  const known = new Set([...FUNCTIONS, ...funcs]);
  for (const e of expressions) {
    for (const m of e.text.matchAll(/([a-z_][\w.]*)\s*\(/gi)) {
      const name = m[1].toLowerCase();
      if (!known.has(name))
        throw refuse(
          e.where,
          e.line,
          e.text,
          `${name}() is not an arithmetic function of ngspice nor one the netlist defines with .func`,
        );
    }
  }
}
