import { GateFindingKindSchema, type GateFinding, type GateFindingKind } from '../../contracts/approvals.ts';

/** Wording that names a finding kind when a line carries no kind of its own (first match wins). */
const BY_WORDING: [RegExp, GateFindingKind][] = [
  [
    /\bmissing\b.*\bdeliverable|\bdeliverable\b.*\b(missing|not recorded|absent)|\bno \w+ (was )?recorded\b/i,
    'missing_deliverable',
  ],
  [/\bungrounded\b|\bno (successful )?tool call\b|\bnot grounded\b/i, 'ungrounded'],
  [/\bconstraint\b|\bviolat|\bexceeds?\b.*\blimit\b|\blimit\b.*\bexceeded\b/i, 'constraint_violation'],
  [/\bsimulation\b|\banalysis\b|\bsafety factor\b|\bstress\b|\bfea\b/i, 'analysis'],
  [/\bgeometry\b|\bcad\b|\bstep file\b|\bbounding box\b|\bmesh\b/i, 'geometry'],
];

/** The text of one finding as gate reasons carry it: `- <kind> (<severity>): <message>`. */
export function findingLine(f: GateFinding): string {
  return `- ${f.kind} (${f.severity}): ${f.message}`;
}

/** A gate's reason text: whether it is ready, then one line per finding (the form parseFindings reads back). */
export function gateReason(gateName: string, phase: string, ready: boolean, findings: GateFinding[]): string {
  const head = `Gate "${gateName}" of phase ${phase} is ${ready ? 'ready for a decision' : 'not ready'}`;
  return findings.length ? `${head}:\n${findings.map(findingLine).join('\n')}` : head;
}

/**
 * Findings parsed out of an approval reason (SPEC "Gate finding": used when the live workflow state cannot be
 * queried). A `- kind (severity): message` line keeps its kind; a `kind|message` line (the runs actor's not-ready key)
 * too; any other line is classified by its wording, and what is not recognised is `other` with its full message.
 */
export function parseFindings(reason: string | null | undefined): GateFinding[] {
  if (!reason) return [];
  const out: GateFinding[] = [];
  for (const raw of reason.split('\n')) {
    const line = raw.trim();
    if (!line || /^Gate ".*" of phase \S+ is (ready|not ready)/.test(line)) continue;
    const listed = /^-\s*([a-z_]+)\s*\(([^)]*)\):\s*(.*)$/.exec(line);
    if (listed && GateFindingKindSchema.safeParse(listed[1]).success) {
      out.push({ kind: listed[1] as GateFindingKind, severity: listed[2] || 'error', message: listed[3] });
      continue;
    }
    const keyed = /^([a-z_]+)\|(.*)$/.exec(line);
    if (keyed && GateFindingKindSchema.safeParse(keyed[1]).success) {
      out.push({ kind: keyed[1] as GateFindingKind, severity: 'error', message: keyed[2] });
      continue;
    }
    const text = line.replace(/^[-*]\s*/, '');
    out.push({ kind: BY_WORDING.find(([re]) => re.test(text))?.[1] ?? 'other', severity: 'error', message: text });
  }
  return out;
}
