import { z } from 'zod';
import { defineAction } from '../../contracts/define.ts';

/**
 * Bus actions internal to the approvals actor (its timer, and tests): `deliver` sends the gate decisions recorded
 * while the runs actor was unreachable and writes flow approval states that failed part-way, now.
 */
export const ApprovalsInternal = {
  deliver: defineAction(
    'approvals.deliver',
    z.object({}),
    z.object({
      delivered: z.number().int(),
      refused: z.number().int(),
      waiting: z.number().int(),
      flows_settled: z.number().int(),
      /** Design loops left iterating by a stopped node whose iteration was started again. */
      loops_resumed: z.number().int(),
    }),
  ),
} as const;
