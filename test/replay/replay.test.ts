import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { foldRun, type RunEvent } from '../../actors/runs/run.events.ts';
import { hasPatch, PATCH_FINDINGS_ORDER } from '../../actors/runs/run.machine.ts';
import { redecide, type Recording } from './redecide.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const recordings: Recording[] = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(fs.readFileSync(path.join(here, f), 'utf8')) as Recording);
const byName = (n: string) => recordings.find((r) => r.name === n)!;

/** Every event type the machine knows; a recorded type outside it means an event was renamed or dropped. */
const EVENT_TYPES: RunEvent['type'][] = [
  'RunCreated',
  'PhaseStarted',
  'PhaseSkipped',
  'PhaseSucceeded',
  'PhaseFailed',
  'GateOpened',
  'GateDecided',
  'CommitConflicted',
  'PhasesReset',
  'FlowPatched',
  'RunEnded',
];

/** The same recording with the patch markers of its RunCreated replaced: what replay would see had the marker (not) been recorded. */
function withPatches(rec: Recording, patches: string[]): Recording {
  const events = rec.events.map((e) =>
    e.payload.type === 'RunCreated' ? { ...e, payload: { ...e.payload, patches } } : e,
  );
  return { ...rec, events };
}

/**
 * Recorded real run histories replayed through today's code (STYLE R6). A change to run logic that alters what these
 * runs did fails here; such a change needs a patch marker that old runs do not carry.
 */
describe('replaying recorded runs', () => {
  it('has the recordings the issue asks for', () => {
    expect(recordings.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'completed-mech-v1',
        'retry',
        'rework',
        'stall',
        'rejected',
        'patch-conflict',
        'stall-order-old',
        'stall-order-v1',
      ]),
    );
  });

  describe.each(recordings.map((r) => [r.name, r] as const))('%s', (_name, rec) => {
    it('is one continuous log of known events', () => {
      expect(rec.events.map((e) => e.seq)).toEqual(rec.events.map((_, i) => i + 1));
      for (const e of rec.events) expect(EVENT_TYPES).toContain(e.payload.type);
      expect(rec.events[0].payload.type).toBe('RunCreated');
    });

    it('folds to the recorded final state and status', () => {
      const state = foldRun(rec.events.map((e) => e.payload));
      expect(JSON.parse(JSON.stringify(state))).toEqual(rec.final_state);
      expect(state.seq).toBe(rec.events.length);
      expect(state.status).toBe(rec.final_status);
    });

    it('re-decides every recorded command to exactly the recorded events', () => {
      const state = redecide(rec);
      expect(state.status).toBe(rec.final_status);
    });
  });

  describe(`patch marker ${PATCH_FINDINGS_ORDER}`, () => {
    it('an old run without it replays with the order-sensitive stall check, and would diverge if judged by the new rule', () => {
      const old = byName('stall-order-old');
      expect(hasPatch(foldRun(old.events.map((e) => e.payload)), PATCH_FINDINGS_ORDER)).toBe(false);
      expect(redecide(old).status).toBe('rejected');
      expect(() => redecide(withPatches(old, [PATCH_FINDINGS_ORDER]))).toThrow(/GateOpened/);
    });

    it('a run with it replays with the order-insensitive check (stalled, then the stall stop), and would diverge without it', () => {
      const v1 = byName('stall-order-v1');
      expect(hasPatch(foldRun(v1.events.map((e) => e.payload)), PATCH_FINDINGS_ORDER)).toBe(true);
      expect(redecide(v1)).toMatchObject({ status: 'failed', ended: { kind: 'design' } });
      expect(() => redecide(withPatches(v1, []))).toThrow(/GateOpened/);
    });
  });
});
