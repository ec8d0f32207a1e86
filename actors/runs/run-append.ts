import { batchWriter, type Queryable } from '../../brokers/db/index.ts';
import type { RunEvent } from './run.events.ts';
import type { RunState } from './run.types.ts';

/** The run's owner changed (another node took it over): this node must drop its copy of the run. */
export class FencedError extends Error {
  override name = 'FencedError';
}

/** One run's append: its events after `fromSeq`, under `epoch`, and the projection they lead to. */
export interface Append {
  id: string;
  epoch: number;
  fromSeq: number;
  events: RunEvent[];
  state: RunState;
  now: Date;
  idem?: string;
}

/**
 * What the run row held when the append looked at it (`row`; the append took effect only if its epoch and seq are the
 * append's own; no row: the run is gone), or the error of the statement that carried it.
 */
export type AppendSeen = { row?: { epoch: number; seq: number }; err?: unknown };

/**
 * The appends of several runs in one statement. Each run's events are inserted and its projection moved only if its row
 * still carries that append's epoch and sequence number (the run's own fence, checked under the row lock taken by this
 * statement); a run whose check fails changes nothing and the others commit. Answers each run's epoch and seq as read
 * under the lock. `skipLocked`: a row another transaction holds is left out (the caller appends it alone, waiting for
 * the lock as a single append always did), so one slow run never holds up the others and no two batches deadlock.
 */
async function appendMany(
  db: Queryable,
  node: string,
  leaseMs: number,
  items: Append[],
  skipLocked: boolean,
): Promise<Map<string, { epoch: number; seq: number }>> {
  const events = items.flatMap((a) =>
    a.events.map((e, i) => ({
      run: a.id,
      n: i + 1,
      type: e.type,
      payload: JSON.stringify(e),
      idem: e.type === 'GateDecided' ? (a.idem ?? null) : null,
    })),
  );
  const { rows } = await db.query<{ id: string; epoch: string; seq: number }>(
    `WITH v AS (
       SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::int[], $5::text[], $6::jsonb[], $7::timestamptz[], $8::timestamptz[])
         AS v(id, from_seq, epoch, n, status, state, at, lease_until)),
     cur AS (SELECT r.id, r.epoch, r.seq FROM runs r WHERE r.id = ANY($1::text[]) ORDER BY r.id FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}),
     ok AS (SELECT v.* FROM v JOIN cur ON cur.id = v.id AND cur.epoch = v.epoch AND cur.seq = v.from_seq),
     ins AS (
       INSERT INTO run_events (run_id, seq, type, payload, epoch, node, idem, created_at)
       SELECT ok.id, ok.from_seq + e.n, e.type, e.payload, ok.epoch, $9, e.idem, ok.at
       FROM unnest($10::text[], $11::int[], $12::text[], $13::jsonb[], $14::text[]) AS e(run_id, n, type, payload, idem)
       JOIN ok ON ok.id = e.run_id),
     upd AS (
       UPDATE runs r SET seq = ok.from_seq + ok.n, status = ok.status, state = ok.state, updated_at = ok.at, lease_until = ok.lease_until
       FROM ok WHERE r.id = ok.id)
     SELECT id, epoch, seq FROM cur`,
    [
      items.map((a) => a.id),
      items.map((a) => a.fromSeq),
      items.map((a) => String(a.epoch)),
      items.map((a) => a.events.length),
      items.map((a) => a.state.status),
      items.map((a) => JSON.stringify(a.state)),
      items.map((a) => a.now.toISOString()),
      items.map((a) => new Date(a.now.getTime() + leaseMs).toISOString()),
      node,
      events.map((e) => e.run),
      events.map((e) => e.n),
      events.map((e) => e.type),
      events.map((e) => e.payload),
      events.map((e) => e.idem),
    ],
  );
  return new Map(rows.map((r) => [r.id, { epoch: Number(r.epoch), seq: r.seq }]));
}

/**
 * The appends asked for in one turn of the event loop (a burst of gate decisions on different runs) in one statement.
 * A run whose row is locked elsewhere, or a batch whose statement failed, is appended alone, so each run gets the
 * answer a single append would have given it (its own fence error, its own database error) and the others commit.
 * One append per run is in flight at a time (the run's mailbox); a second one of the same turn is answered as fenced.
 */
export function runAppender(db: Queryable, node: string, leaseMs: number): (a: Append) => Promise<AppendSeen> {
  const alone = (a: Append): Promise<AppendSeen> =>
    appendMany(db, node, leaseMs, [a], false).then(
      (seen) => ({ row: seen.get(a.id) }),
      (err: unknown) => ({ err }),
    );
  // A run left out of the batch is answered when its own append is done; the others do not wait for it.
  const write = batchWriter<Append, { seen: Promise<AppendSeen> }>({
    group: () => 'append',
    key: (a) => a.id,
    async write(_group, items) {
      if (items.length === 1) return new Map([[items[0].id, { seen: alone(items[0]) }]]);
      const rows = await appendMany(db, node, leaseMs, items, true).catch(() => new Map<string, never>());
      return new Map(
        items.map((a) => {
          const row = rows.get(a.id);
          return [a.id, { seen: row ? Promise.resolve({ row }) : alone(a) }];
        }),
      );
    },
  });
  return async (a) =>
    (await (await write(a))?.seen) ?? { err: new FencedError(`run ${a.id}: another append of this run came first`) };
}
