import { z } from 'zod';
import { defineAction } from '../../contracts/define.ts';

/**
 * Bus messages internal to the holds actor (between its replicas, and for tests): the reaper tick, which runs the due
 * timer rows now at the injected clock's time, and the event that tells the replica holding a call that it ended.
 */
export const HoldsInternal = {
  tick: defineAction(
    'holds.tick',
    z.object({}),
    z.object({ expired: z.number().int(), progressed: z.number().int(), settled: z.number().int() }),
  ),
} as const;

/** Broadcast: ledger record `id` left awaiting_approval; the replica whose call waits on it wakes it. Safe to lose (the tick re-checks). */
export const HOLD_SETTLED_EVENT = 'holds.settled';
/** Payload of HOLD_SETTLED_EVENT. */
export const HoldSettledSchema = z.object({ id: z.string() });
