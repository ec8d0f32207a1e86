import { z } from 'zod';
import {
  ExportModelArgs,
  SESSION_OPS,
  SessionQueryArgs,
  type SessionOpName,
  type SessionQueryName,
} from '../cad-session.ts';
import { defineAction } from '../define.ts';

const SessionId = z.string().min(1).max(200);
const OpName = z.enum(SESSION_OPS as [SessionOpName, ...SessionOpName[]]);
const QueryName = z.enum(Object.keys(SessionQueryArgs) as [SessionQueryName, ...SessionQueryName[]]);

/** A CAD session's row (SPEC cadkernel session tools): feature_count is the length of its feature history. */
export const CadSessionSchema = z.object({
  session_id: z.string(),
  project_id: z.string().nullable(),
  name: z.string(),
  status: z.enum(['open', 'closed']),
  feature_count: z.number().int().min(0),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
});
/** A CAD session record. */
export type CadSession = z.infer<typeof CadSessionSchema>;

/**
 * Actions of the `cadsessions` actor. Every action carries `session_id`, the Shard key: calls about one session go
 * to one node, whose kernel thread keeps the session's document warm (placement only; the history in Postgres is the
 * authority). `command` arguments are validated by the actor against the operation's schema (contracts/cad-session.ts).
 */
export const CadSessionsActions = {
  open: defineAction(
    'cadsessions.open',
    z.object({
      session_id: z.uuid(),
      name: z.string().max(300).optional(),
      project_id: z.string().nullable().optional(),
    }),
    CadSessionSchema,
  ),
  close: defineAction('cadsessions.close', z.object({ session_id: SessionId }), CadSessionSchema),
  describe: defineAction(
    'cadsessions.describe',
    z.object({ session_id: SessionId }),
    CadSessionSchema.extend({
      features: z.array(z.object({ seq: z.number().int(), op: z.string(), created_at: z.string() })),
      model: z.record(z.string(), z.unknown()),
    }),
  ),
  command: defineAction(
    'cadsessions.command',
    z.object({
      session_id: SessionId,
      op: OpName,
      args: z.record(z.string(), z.unknown()),
      file_path: z.string().optional(),
    }),
    z.object({ result: z.record(z.string(), z.unknown()), recorded: z.boolean(), feature_count: z.number().int() }),
  ),
  query: defineAction(
    'cadsessions.query',
    z.object({ session_id: SessionId, name: QueryName, args: z.record(z.string(), z.unknown()).default({}) }),
    z.object({ result: z.record(z.string(), z.unknown()) }),
  ),
  export: defineAction(
    'cadsessions.export',
    z.object({ session_id: SessionId, args: ExportModelArgs }),
    z.object({ result: z.record(z.string(), z.unknown()), step_base64: z.string(), obj_id: z.string() }),
  ),
  /** Stops the running command of a session on this node (its kernel thread is killed; the document is replayed later). */
  cancel: defineAction(
    'cadsessions.cancel',
    z.object({ session_id: SessionId, reason: z.string().optional() }),
    z.object({ cancelled: z.boolean() }),
  ),
} as const;
