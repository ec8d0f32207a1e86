import { describe, expect, it } from 'vitest';
import { checkLogs, type EventRow, type LogFacts, type Step } from '../../integration/runs/reliability.checks.ts';

const kill = new Date('2026-11-22T00:00:10.000Z');
const at = (s: number) => new Date(kill.getTime() + s * 1000);
const plan: Step[] = [{ phase: 'intent', decision: 'approve' }];

/** A one-gate run: created and decided by `a`, taken over by `b` after the kill, which ends it. */
function facts(edit: (rows: EventRow[]) => EventRow[] = (r) => r): LogFacts {
  const row = (
    seq: number,
    type: string,
    payload: Record<string, unknown>,
    epoch: number,
    node: string,
    t: number,
  ): EventRow => ({
    run_id: 'r',
    seq,
    type,
    payload: { type, ...payload },
    epoch,
    node,
    idem: type === 'GateDecided' ? String(payload.idem) : null,
    created_at: at(t),
  });
  const events = edit([
    row(1, 'RunCreated', {}, 1, 'a', -5),
    row(2, 'GateOpened', { phase: 'intent' }, 1, 'a', -4),
    row(3, 'GateDecided', { phase: 'intent', decision: 'approve', idem: 'k1' }, 2, 'b', 3),
    row(4, 'RunEnded', { status: 'completed' }, 2, 'b', 3),
  ]);
  return {
    events,
    runs: [{ id: 'r', status: 'completed', project_id: 'p' }],
    baselines: [{ project_id: 'p', n: '1' }],
    acked: new Map([['r', new Set(['k1'])]]),
    plans: new Map([['r', plan]]),
    dead: 'a',
    killAt: kill,
    openDrafts: [],
  };
}

/** The verdict of the reliability test must be able to fail: each violation it exists to catch is caught. */
describe('reliability log checks', () => {
  it('pass a clean takeover and report it', () => {
    const r = checkLogs(facts());
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ deadRunsTakenOver: 1, firstNewOwnerWriteMs: 3000, deadLastWriteMs: 4000 });
  });

  it('catch a decision applied twice, a lost one, and a gap', () => {
    const dup = checkLogs(facts((rows) => [...rows.slice(0, 3), { ...rows[2], seq: 4 }, { ...rows[3], seq: 5 }]));
    expect(dup.problems.join('\n')).toMatch(/decision k1 applied 2 times/);
    const lost = checkLogs({ ...facts(), acked: new Map([['r', new Set(['k1', 'k2'])]]) });
    expect(lost.problems.join('\n')).toMatch(/acknowledged decision k2 is not in the log/);
    const gap = checkLogs(facts((rows) => [rows[0], rows[1], rows[3]]));
    expect(gap.problems.join('\n')).toMatch(/seq 4 at position 3/);
  });

  it('catch a write of the dead node after the kill, an epoch going back, and an epoch shared by two nodes', () => {
    const late = checkLogs(facts((rows) => [rows[0], rows[1], { ...rows[2], node: 'a', epoch: 1 }, rows[3]]));
    expect(late.problems.join('\n')).toMatch(/written by the dead node 3000 ms after/);
    const back = checkLogs(
      facts((rows) => [rows[0], rows[1], rows[2], { ...rows[3], epoch: 1, node: 'a', created_at: at(-1) }]),
    );
    expect(back.problems.join('\n')).toMatch(/epoch went back from 2 to 1/);
    const shared = checkLogs(facts((rows) => [rows[0], { ...rows[1], node: 'c' }, rows[2], rows[3]]));
    expect(shared.problems.join('\n')).toMatch(/epoch 1 written by a and c/);
  });

  it('catch open drafts and a missing baseline; count drafts landing after a stalled node resumed apart', () => {
    const r = checkLogs({ ...facts(), openDrafts: [at(1), at(2)], baselines: [] });
    expect(r.problems).toEqual(
      expect.arrayContaining([
        '2 drafts still open in the twin after every run completed',
        'r: 0 baselines for 1 approvals',
      ]),
    );
    const stalled = checkLogs({ ...facts(), resumedAt: at(5), openDrafts: [at(1), at(6)] });
    expect(stalled.problems).toEqual(['1 drafts still open in the twin after every run completed']);
    expect(stalled.lateDrafts).toBe(1);
  });
});
