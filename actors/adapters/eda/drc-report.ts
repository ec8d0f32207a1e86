/**
 * Reads the text report of KiCad's `WriteDRCReport` (millimetres; auto_route's check of the board it wrote through
 * pcbnew): sections opened by `** Found N <what> **`, each item `[<key>]: <message>`, then `    <rule>; <severity>`
 * (KiCad 9; KiCad 6 wrote `; Severity: <severity>`), then up to two `    @(<x> mm, <y> mm): <item>` lines
 * (RC_ITEM::ShowReport). A report that does not read this way is an error, never a guess.
 */
export interface DrcItem {
  description: string;
  position_mm: { x: number; y: number };
}
export interface DrcViolation {
  type: string;
  severity: string;
  description: string;
  rule: string;
  items: DrcItem[];
}
export interface DrcReport {
  violations: DrcViolation[];
  unconnected: DrcViolation[];
  footprint_errors: DrcViolation[];
}

export class DrcReportError extends Error {
  override name = 'DrcReportError';
}

const SECTION = /^\*\* Found (\d+) (DRC violations|unconnected pads|Footprint errors) \*\*$/;
const HEAD = /^\[([^\]]+)\]: (.*)$/;
const RULE = /^ {4}(.*); (?:Severity: )?(error|warning|exclusion|ignore|info)$/;
const ITEM = /^ {4}@\((-?[\d.]+) mm, (-?[\d.]+) mm\): (.*)$/;

export function parseDrcReport(text: string): DrcReport {
  const out: DrcReport = { violations: [], unconnected: [], footprint_errors: [] };
  const declared = new Map<keyof DrcReport, number>();
  let target: DrcViolation[] | undefined;
  let current: DrcViolation | undefined;
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    const fail = (why: string) => new DrcReportError(`DRC report line ${i + 1}: ${why}: ${JSON.stringify(line)}`);
    if (line.startsWith('** ')) {
      current = undefined;
      const m = SECTION.exec(line);
      target = undefined;
      if (!m) return; // the title, creation date and end lines
      const key =
        m[2] === 'DRC violations' ? 'violations' : m[2] === 'unconnected pads' ? 'unconnected' : 'footprint_errors';
      declared.set(key, Number(m[1]));
      target = out[key];
      return;
    }
    if (line.trim() === '') return;
    const head = HEAD.exec(line);
    if (head) {
      if (!target) throw fail('an item outside a section');
      current = { type: head[1]!, severity: '', description: head[2]!, rule: '', items: [] };
      target.push(current);
      return;
    }
    if (!current) throw fail('a line outside an item');
    const rule = RULE.exec(line);
    if (rule && !current.severity) {
      current.rule = rule[1]!.replace(/^Rule: /, '');
      current.severity = rule[2]!;
      return;
    }
    const item = ITEM.exec(line);
    if (item) {
      current.items.push({ description: item[3]!, position_mm: { x: Number(item[1]), y: Number(item[2]) } });
      return;
    }
    throw fail('an unexpected line');
  });
  for (const [key, n] of declared) {
    if (out[key].length !== n)
      throw new DrcReportError(`DRC report: "${key}" declares ${n} items but lists ${out[key].length}`);
  }
  if (!declared.has('violations') || !declared.has('unconnected'))
    throw new DrcReportError('DRC report: no "** Found N DRC violations **" or "unconnected pads" section');
  return out;
}
