import type { ApprovalItem, ApprovalListResponse, GateDecisionEntry } from '../../contracts/approvals.ts';

/** Cuts a cell to `width` characters, marking the cut with an ellipsis. */
function cell(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** Lays out rows as aligned columns under a header (the last column is not padded). */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** What a person can do with an item now: its offered decisions, or why not. */
const decideCell = (i: ApprovalItem) => (i.decidable ? (i.allowed_decisions ?? []).join(',') : '-');

/** The queue as a readable table, with the count of items left out for having no project. */
export function formatList(r: ApprovalListResponse, filtered: boolean): string {
  if (!r.items.length)
    return `no approvals${filtered && r.unscoped_count ? ` (${r.unscoped_count} left out: no project)` : ''}`;
  const rows = r.items.map((i) => [i.id, i.kind, i.status, i.project_id ?? '-', decideCell(i), cell(i.title, 60)]);
  const foot = `${r.items.length} item${r.items.length === 1 ? '' : 's'}${filtered && r.unscoped_count ? `; ${r.unscoped_count} left out because they have no project` : ''}`;
  return `${table(['ID', 'KIND', 'STATUS', 'PROJECT', 'DECIDE', 'TITLE'], rows)}\n${foot}`;
}

/** The gate instance of a gate item, in words. */
const gateOf = (i: ApprovalItem) => `${String(i.detail?.phase)} attempt ${String(i.detail?.attempt)}`;

/** One item in full: fields, findings, the decision record and the kind's detail. */
export function formatItem(i: ApprovalItem): string {
  const lines: string[] = [
    `${i.id}  ${i.kind}  ${i.status}`,
    i.title,
    ...(i.summary ? [i.summary] : []),
    '',
    `project      ${i.project_id ?? '-'}`,
    `created      ${i.created_at ?? '-'}`,
    `deadline     ${i.deadline ?? '-'}`,
    `route        ${i.route ?? '-'}`,
    `requested by ${i.requested_by ?? '-'}`,
    `decidable    ${i.decidable ? `yes: ${(i.allowed_decisions ?? []).join(', ')}` : `no: ${i.not_decidable_reason ?? ''}`}`,
    ...(i.kind === 'gate' && i.detail
      ? [
          `gate         ${gateOf(i)} (decide it with --phase ${String(i.detail.phase)} --attempt ${String(i.detail.attempt)})`,
        ]
      : []),
    ...(i.etag ? [`etag         ${i.etag} (--if-match)`] : []),
  ];
  if (i.reason_required_for?.length) lines.push(`reason for   ${i.reason_required_for.join(', ')}`);
  if (i.rework_targets?.length) lines.push(`rework to    ${i.rework_targets.join(', ')}`);
  if (i.reason_held) lines.push('', 'reason held:', ...i.reason_held.split('\n').map((l) => `  ${l}`));
  if (i.findings?.length)
    lines.push('', 'findings:', ...i.findings.map((f) => `  ${f.kind} (${f.severity}): ${f.message}`));
  const d = i.decision;
  if (d) {
    const who = `${d.approver}${d.approver_verified ? ' (verified)' : ' (unverified)'}`;
    const agent = d.agent || d.on_behalf_of ? `, agent ${d.agent ?? '-'} for ${d.on_behalf_of ?? '-'}` : '';
    lines.push(
      '',
      `decision     ${d.decision} by ${who} via ${d.surface}${agent} at ${d.decided_at}`,
      ...(d.channel
        ? [`sent from    ${d.channel}, ${d.principal ? `signed in as ${d.principal}` : 'no sign-in'}`]
        : []),
      ...(d.reason ? [`reason       ${d.reason}`] : []),
      ...(d.override_reason ? [`override     ${d.override_reason}`] : []),
    );
  }
  // A gate item's every decision of the run, oldest first (decision 0061).
  const { decisions: history, ...detail } = (i.detail ?? {}) as Record<string, unknown>;
  if (i.kind === 'gate' && Array.isArray(history) && history.length)
    lines.push(
      '',
      'decisions (oldest first):',
      ...(history as GateDecisionEntry[]).map(
        (h) =>
          `  ${h.decided_at}  ${h.phase} ${h.decision} by ${h.approver} via ${h.surface}, from ${h.channel ?? '-'}${h.reason ? `: ${h.reason}` : ''}${h.override_reason ? ` (override: ${h.override_reason})` : ''}`,
      ),
    );
  if (Object.keys(detail).length) lines.push('', `detail       ${JSON.stringify(detail)}`);
  return lines.join('\n');
}

/** The one-line answer to a decision; `seen` is the item as the command read it before deciding (the gate it named). */
export function formatDecided(i: ApprovalItem, decision: string, seen?: ApprovalItem): string {
  const d = i.decision;
  const by = d ? ` by ${d.approver}${d.approver_verified ? ' (verified)' : ''} via ${d.surface}` : '';
  const named = seen?.kind === 'gate' ? ` (gate ${gateOf(seen)})` : '';
  return `${decision} recorded on ${i.id}${named}${by}; it is now ${i.status}${i.status === 'pending' ? ` (${i.decidable ? `next: ${(i.allowed_decisions ?? []).join(', ')}` : (i.not_decidable_reason ?? '')})` : ''}`;
}
