import { z } from 'zod';
import { defineAction } from '../define.ts';

/**
 * The CAD session actor's export stash (SPEC Twin rule 6): `cadkernel.export_model` leaves the STEP of an exported
 * object there, and `twin.commit_geometry {session_id, obj_id}` takes it from there.
 */
export const CadStashActions = {
  get: defineAction(
    'cadsessions.stashGet',
    z.object({ session_id: z.string(), obj_id: z.string() }),
    z.discriminatedUnion('found', [
      z.object({ found: z.literal(true), step_base64: z.string() }),
      z.object({ found: z.literal(false) }),
    ]),
  ),
} as const;
