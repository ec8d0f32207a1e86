import { InvalidArgumentsError } from '../tool.ts';

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
 * (`file=`, `input_file=`, `state_file=`) are refused: they would read any path outside the workspace.
 */

/** A dot card that reads a file: `.include`, `.inc`, `.incl`, `.includex`, `.lib`, `.libx`, `.library`...: ngspice matches them by prefix. */
export const isIncludeCard = (word: string) => /^\.(inc|lib)/i.test(word);

/** Every analysis card ngspice runs on its own (netlist.ts keeps the requested one and comments out the rest). */
export const ANALYSIS_CARDS = new Set([
  '.op',
  '.dc',
  '.ac',
  '.tran',
  '.noise',
  '.tf',
  '.pz',
  '.sens',
  '.disto',
  '.pss',
  '.sp',
]);

/** Dot cards allowed besides the include family (ngspice manual, chapters 2, 11 and 15). */
const DOT_CARDS = new Set([
  '.title',
  '.end',
  '.model',
  '.subckt',
  '.ends',
  '.param',
  '.func',
  '.global',
  '.option',
  '.options',
  '.temp',
  '.ic',
  '.nodeset',
  '.endl',
  '.if',
  '.elseif',
  '.else',
  '.endif',
  '.save',
  '.print',
  '.plot',
  '.probe',
  '.meas',
  '.measure',
  '.four',
  '.width',
  ...ANALYSIS_CARDS,
]);

/** Simulator options of `.options` (ngspice manual, chapter 11.1). */
const OPTIONS = new Set([
  'abstol',
  'reltol',
  'vntol',
  'chgtol',
  'trtol',
  'gmin',
  'gminsteps',
  'srcsteps',
  'itl1',
  'itl2',
  'itl3',
  'itl4',
  'itl5',
  'itl6',
  'pivrel',
  'pivtol',
  'rshunt',
  'cshunt',
  'temp',
  'tnom',
  'method',
  'maxord',
  'xmu',
  'ramptime',
  'noopiter',
  'noopac',
  'noopalter',
  'maxopalter',
  'maxeviter',
  'keepopinfo',
  'klu',
  'sparse',
  'interp',
  'autostop',
  'acct',
  'noacct',
  'norefvalue',
  'noinit',
  'list',
  'nomod',
  'nopage',
  'node',
  'opts',
  'seed',
  'seedinfo',
  'warn',
  'maxwarns',
  'savecurrents',
  'scale',
  'defad',
  'defas',
  'defl',
  'defw',
  'badmos3',
  'bypass',
  'trytocompact',
  'indverbosity',
  'convstep',
  'convabsstep',
  'gminfactor',
  'post',
]);

/** Functions an expression may call (ngspice manual, chapters 2.8 and 5.1). */
const FUNCTIONS = new Set([
  'abs',
  'sqrt',
  'exp',
  'ln',
  'log',
  'log10',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'atan2',
  'sinh',
  'cosh',
  'tanh',
  'asinh',
  'acosh',
  'atanh',
  'pow',
  'pwr',
  'pwrs',
  'min',
  'max',
  'sgn',
  'sign',
  'int',
  'nint',
  'floor',
  'ceil',
  'fmod',
  'hypot',
  'limit',
  'ternary_fcn',
  'gauss',
  'agauss',
  'unif',
  'aunif',
  'limit',
  'u',
  'u2',
  'uramp',
  'ddt',
  'v',
  'i',
  'table',
  'tbl',
  'pwl',
  'db',
  'mag',
  'ph',
  're',
  'im',
  'real',
  'imag',
  'if',
  'par',
  'temper',
  'hertz',
]);

/** Front-end commands that could be mistaken for an element line (a switch `shell`, a source `source`...). */
const COMMANDS = new Set([
  'shell',
  'source',
  'exec',
  'cd',
  'codemodel',
  'pre_osdi',
  'osdi',
  'load',
  'write',
  'wrdata',
  'wrs2p',
  'set',
  'setcs',
  'unset',
  'rusage',
  'edit',
  'run',
  'quit',
  'exit',
]);

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
 * functions it defines and the expressions it uses; throws InvalidArgumentsError naming the first refused line.
 */
export function checkStatements(text: string, where: string, title: boolean): CheckedFile {
  if (text.includes('\0')) throw new InvalidArgumentsError(`${where} contains a NUL byte`);
  const lines = text.split(/\r?\n|\r/);
  const out: CheckedFile = { includes: [], funcs: [], expressions: [] };
  let card = '';
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k];
    const trimmed = line.trim();
    const word = trimmed.split(/\s+/)[0].toLowerCase();
    const no = k + 1;
    if (/^\*\s*ng_script/i.test(trimmed))
      throw refuse(where, no, line, '*ng_script makes ngspice run the file as a control script');
    if (/^\.(control|endc)/i.test(word)) {
      const hint =
        'give dot analyses instead (analysis_type with params, or a .op/.dc/.ac/.tran card); a netlist is data, not a script';
      throw new InvalidArgumentsError(`${where} has a .control block (line ${no}): ${hint}`, {
        line: no,
        statement: trimmed.slice(0, 200),
      });
    }
    if (isIncludeCard(word)) {
      const ref = includeRef(trimmed, k, where);
      if (ref) out.includes.push(ref);
      card = word;
      continue;
    }
    if (title && k === 0) continue;
    if (!trimmed || /^(\*|;|\$|\/\/)/.test(trimmed)) continue;
    if (trimmed.startsWith('+')) {
      if (!card) throw refuse(where, no, line, 'a continuation line follows no statement');
    } else if (word.startsWith('.')) {
      if (!DOT_CARDS.has(word)) throw refuse(where, no, line, `${word} is not an allowed statement`);
      card = word;
    } else if (/^[a-z]/.test(word)) {
      if (COMMANDS.has(word)) throw refuse(where, no, line, `${word} is an ngspice command, not a circuit element`);
      card = word;
    } else {
      throw refuse(where, no, line, 'not a comment, an element, a continuation or an allowed dot card');
    }
    const body = trimmed.startsWith('+') ? trimmed.slice(1) : trimmed;
    if (/(^|[\s(,])[a-z_]*file\s*=/i.test(body))
      throw refuse(where, no, line, 'a file= parameter would make a code model read a file; it is refused');
    if (card === '.option' || card === '.options')
      checkOptions(trimmed.startsWith('+') ? body : body.replace(/^\S+/, ''), where, no, line);
    if (card === '.func' || card === '.param') {
      const defined = /^\.(?:func|param)\s+([a-z_]\w*)\s*\(/i.exec(body); // `.param f(x) = ...` defines a function too
      if (defined) out.funcs.push(defined[1].toLowerCase());
      out.expressions.push({ where, line: no, text: body.replace(/^\.\w+/, '') });
    } else {
      for (const m of body.matchAll(/\{[^}]*\}|'[^']*'/g)) out.expressions.push({ where, line: no, text: m[0] });
    }
  }
  return out;
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
