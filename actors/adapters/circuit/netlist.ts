import path from 'node:path';
import { InvalidArgumentsError } from '../kit/tool.ts';
import { ANALYSIS_CARDS, checkExpressions, checkStatements, type Expression } from '../kit/spice/netlist-policy.ts';
import type { IncludeResolver, ResolvedInclude } from '../kit/spice/netlist-includes.ts';
import { joinStatements, type Statement } from '../kit/spice/netlist-statements.ts';
export type { IncludeResolver, ResolvedInclude } from '../kit/spice/netlist-includes.ts';

/** The four analyses of `circuit.run_simulation` (TOOLS.md). */
export type AnalysisType = 'op' | 'dc' | 'ac' | 'transient';

/** A SPICE number: a JS number, or text such as `5u`, `100k`, `1meg`, `1e-3`. */
export type SpiceValue = number | string;

/**
 * `params` of `circuit.run_simulation`, mapped to one analysis card (ngspice manual, chapter 11):
 * - `op`: none → `.op`
 * - `dc`: `source`, `start`, `stop`, `step` → `.dc <source> <start> <stop> <step>`
 * - `ac`: `variation` (dec | oct | lin, default dec), `points` (per decade/octave, or in total for lin; default 10), `fstart`, `fstop`
 *   → `.ac <variation> <points> <fstart> <fstop>`
 * - `transient`: `tstep`, `tstop`, optional `tstart`, `tmax`, `uic` → `.tran <tstep> <tstop> [<tstart> [<tmax>]] [uic]`
 */
export interface AnalysisParams {
  source?: string;
  start?: SpiceValue;
  stop?: SpiceValue;
  step?: SpiceValue;
  variation?: 'dec' | 'oct' | 'lin';
  points?: number;
  fstart?: SpiceValue;
  fstop?: SpiceValue;
  tstep?: SpiceValue;
  tstop?: SpiceValue;
  tstart?: SpiceValue;
  tmax?: SpiceValue;
  uic?: boolean;
}

const KEYS: Record<AnalysisType, { required: (keyof AnalysisParams)[]; optional: (keyof AnalysisParams)[] }> = {
  op: { required: [], optional: [] },
  dc: { required: ['source', 'start', 'stop', 'step'], optional: [] },
  ac: { required: ['fstart', 'fstop'], optional: ['variation', 'points'] },
  transient: { required: ['tstep', 'tstop'], optional: ['tstart', 'tmax', 'uic'] },
};

const CARD: Record<AnalysisType, string> = { op: '.op', dc: '.dc', ac: '.ac', transient: '.tran' };

const fmt = (v: SpiceValue) => (typeof v === 'number' ? String(v) : v.trim());

/** The analysis card built from `params`, or undefined when `params` has no key of this analysis (use the netlist's card). */
export function analysisCard(type: AnalysisType, params: AnalysisParams = {}): string | undefined {
  const { required, optional } = KEYS[type];
  const allowed = new Set([...required, ...optional]);
  const given = (Object.keys(params) as (keyof AnalysisParams)[]).filter((k) => params[k] !== undefined);
  const foreign = given.filter((k) => !allowed.has(k));
  if (foreign.length) {
    const accepted = allowed.size ? [...allowed].join(', ') : 'none';
    throw new InvalidArgumentsError(
      `params ${foreign.join(', ')} do not apply to a ${type} analysis (accepted: ${accepted})`,
      { params: foreign },
    );
  }
  if (type === 'op') return '.op';
  if (given.length === 0) return undefined;
  const missing = required.filter((k) => params[k] === undefined);
  if (missing.length)
    throw new InvalidArgumentsError(`a ${type} analysis needs params ${missing.join(', ')}`, { missing });
  const p = params as Required<AnalysisParams>;
  if (type === 'dc') return `.dc ${p.source} ${fmt(p.start)} ${fmt(p.stop)} ${fmt(p.step)}`;
  if (type === 'ac') return `.ac ${params.variation ?? 'dec'} ${params.points ?? 10} ${fmt(p.fstart)} ${fmt(p.fstop)}`;
  const tail = [params.tstart, params.tmax].filter((v) => v !== undefined).map((v) => fmt(v!));
  if (params.tmax !== undefined && params.tstart === undefined) tail.unshift('0');
  return ['.tran', fmt(p.tstep), fmt(p.tstop), ...tail, ...(params.uic ? ['uic'] : [])].join(' ');
}

/** A netlist ready for ngspice, the card that selects the analysis, and the included files it references. */
export interface PreparedNetlist {
  text: string;
  card: string;
  includes: string[];
}

/** An include as the resolver hands it back: the path ngspice reads, and what the file (and those it includes) defines and uses. */

const firstWord = (line: string) => line.trim().split(/\s+/)[0]?.toLowerCase() ?? '';

/**
 * Prepares a netlist: checks every statement against the allow-list (netlist-policy.ts), keeps only the requested
 * analysis (the `params` card replaces the netlist's; without params the netlist's last card of that type is kept; `op`
 * defaults to `.op`), comments out every other analysis card, and rewrites every include card's file to the path the
 * resolver answers (which refuses escapes). Line 1 is the title.
 */
export async function prepareNetlist(
  source: string,
  type: AnalysisType,
  params: AnalysisParams | undefined,
  resolve: IncludeResolver,
): Promise<PreparedNetlist> {
  const checked = checkStatements(source, 'the netlist', true);
  const fromParams = analysisCard(type, params);
  const lines = source.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const includes: string[] = [];
  const funcs = [...checked.funcs];
  const expressions = [...checked.expressions];
  for (const ref of checked.includes) {
    const got = await resolve(ref.file);
    const r = typeof got === 'string' ? { path: got, funcs: [], expressions: [] } : got;
    includes.push(r.path);
    funcs.push(...r.funcs);
    expressions.push(...r.expressions);
    lines[ref.index] = `${ref.card} "${r.path}"${ref.rest}`;
  }
  checkExpressions(expressions, funcs);
  // Analysis cards are whole statements: a card left out goes with its continuation lines, which ngspice would
  // otherwise join to the statement before it (over comment lines too).
  const own: Statement[] = [];
  const out = (st: Statement, why: string) => {
    lines[st.index] = `* [${why}] ${lines[st.index]}`;
    for (const k of st.continued) lines[k] = `* ${lines[k]}`;
  };
  for (const st of joinStatements(lines, 1)) {
    const word = firstWord(st.text);
    if (!ANALYSIS_CARDS.has(word)) continue;
    if (word === CARD[type]) own.push(st);
    else out(st, 'not run');
  }
  // Keep one card of the requested type: the params card, else the netlist's last one.
  const keep = fromParams && type !== 'op' ? undefined : own.at(-1);
  for (const st of own) if (st !== keep) out(st, 'replaced');
  let card = keep !== undefined ? keep.text : fromParams;
  if (!card) {
    throw new InvalidArgumentsError(
      `the netlist has no ${CARD[type]} card: give params (${KEYS[type].required.join(', ')}) for the ${type} analysis`,
      { missing: KEYS[type].required },
    );
  }
  if (keep === undefined) {
    const end = lines.findIndex((l, k) => k > 0 && /^\.end\s*$/i.test(l.trim()));
    if (end >= 0) lines.splice(end, 0, card);
    else lines.push(card, '.end');
  }
  card = card.replace(/\s+/g, ' ');
  return { text: lines.join('\n') + '\n', card, includes };
}

/** Resolves `file` against `baseDir` (absolute); the caller still checks the result lies inside the workspace. */
export const againstDir = (baseDir: string, file: string) => path.resolve(baseDir, file);
