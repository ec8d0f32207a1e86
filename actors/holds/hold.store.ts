import { batchLoader, batchWriter, type Db } from '../../brokers/db/index.ts';
import type { HoldGuard, HoldPatch, HoldState } from './hold.machine.ts';

/** Every column of a ledger row (`tool_approvals`). */
export const COLUMNS = [
  'id',
  'kind',
  'status',
  'tool_id',
  'title',
  'arguments',
  'detail',
  'project_id',
  'requested_by',
  'reason_held',
  'route',
  'source',
  'call_id',
  'session_id',
  'node',
  'node_instance',
  'client_node',
  'client_instance',
  'window_seconds',
  'deadline',
  'next_progress_at',
  'decision',
  'error',
  'created_at',
  'updated_at',
] as const;
const JSON_COLUMNS = new Set(['arguments', 'detail', 'decision']);
const TIME_COLUMNS = new Set(['deadline', 'next_progress_at', 'created_at', 'updated_at']);
/** Columns a transition may change (HoldPatch keys). */
const PATCHABLE = new Set(['status', 'route', 'decision', 'error', 'detail']);

export const iso = (v: unknown): string | null =>
  v == null ? null : v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString();
const param = (col: string, v: unknown): unknown => (JSON_COLUMNS.has(col) && v != null ? JSON.stringify(v) : v);
const cast = (col: string): string =>
  JSON_COLUMNS.has(col) ? '::jsonb' : TIME_COLUMNS.has(col) ? '::timestamptz' : '';

function toState(r: Record<string, unknown>): HoldState {
  const out: Record<string, unknown> = {};
  for (const c of COLUMNS) out[c] = TIME_COLUMNS.has(c) ? iso(r[c]) : r[c];
  out.arguments ??= {};
  out.detail ??= {};
  return out as HoldState;
}

/** One guarded move of a record: the columns it sets, their values after the time (`at`), its guard. */
interface Move {
  id: string;
  cols: string[];
  guard: HoldGuard;
  values: unknown[];
}

/** A node on the bus as one incarnation: its id and its broker's instance id. */
export interface AliveNode {
  id: string;
  instance: string | null;
}

/** The tool-approval ledger on the process's database (table tool_approvals, migration 0050). */
export interface HoldStore {
  insert(s: HoldState): Promise<void>;
  get(id: string): Promise<HoldState | undefined>;
  list(status: 'pending' | 'decided' | 'all', projectId?: string): Promise<HoldState[]>;
  /** Applies a patch only while the record is still awaiting_approval (and the guard holds): one of concurrent moves wins. */
  transition(id: string, patch: HoldPatch, now: Date, guard?: HoldGuard): Promise<HoldState | undefined>;
  /** Moves a progress timer from `due` to `next`; false when another tick already took it. */
  claimProgress(id: string, due: string, next: string): Promise<boolean>;
  /** Awaiting records whose window ended (deadline timer rows). */
  dueDeadlines(now: Date): Promise<HoldState[]>;
  /** Awaiting records of `node` whose next progress report is due (progress timer rows). */
  dueProgress(node: string, now: Date): Promise<HoldState[]>;
  /** Of these ids, the records that are no longer awaiting. */
  ended(ids: string[]): Promise<HoldState[]>;
  /**
   * Awaiting held calls whose holds node is not among `alive` as the same incarnation (a node id alive under another
   * instance id is a restart: its earlier incarnation's waiting calls are gone). Client gateways are judged only on
   * the bus's word (`orphansOf` on a node leaving or coming back), never for not being seen yet at a start.
   */
  orphans(alive: AliveNode[]): Promise<HoldState[]>;
  /** Awaiting held calls placed on `node` (as holds node or client gateway) by an incarnation other than `instance` (any, when null). */
  orphansOf(node: string, instance: string | null): Promise<HoldState[]>;
  ping(): Promise<void>;
}

/** Builds the ledger store over a database (STYLE R5). */
export function createHoldStore(db: Db): HoldStore {
  const select = `SELECT ${COLUMNS.join(', ')} FROM tool_approvals`;
  const many = async (sql: string, params: unknown[]) =>
    (await db.query<Record<string, unknown>>(sql, params)).rows.map(toState);
  // Records read in the same turn of the event loop come back from one query (a burst of decisions reads many).
  const byId = batchLoader(
    async (ids) => new Map((await many(`${select} WHERE id = ANY($1::text[])`, [ids])).map((s) => [s.id, s])),
  );
  // Moves asked for in the same turn of the event loop with the same columns and guard are one guarded
  // UPDATE ... FROM unnest(...): only awaiting rows match, so each record still moves once (a burst of decisions).
  const move = batchWriter<Move, HoldState>({
    group: (m) => JSON.stringify([m.cols, !!m.guard.notInClient, !!m.guard.hasCall]),
    key: (m) => m.id,
    async write(_group, ms) {
      const { cols, guard } = ms[0];
      const sets = cols.map((c, i) => `${c} = v.p${i}${cast(c)}`);
      const where = [`t.id = v.id`, `t.status = 'awaiting_approval'`];
      if (guard.notInClient) where.push(`NOT (t.route = 'elicitation' AND t.call_id IS NOT NULL)`);
      if (guard.hasCall) where.push(`t.call_id IS NOT NULL`);
      const arrays = ['id', 'at', ...cols.map((_c, i) => `p${i}`)];
      const rows = await many(
        `UPDATE tool_approvals t SET ${[...sets, 'updated_at = v.at::timestamptz'].join(', ')}
         FROM unnest(${arrays.map((_a, i) => `$${i + 1}::text[]`).join(', ')}) AS v(${arrays.join(', ')})
         WHERE ${where.join(' AND ')} RETURNING ${COLUMNS.map((c) => `t.${c}`).join(', ')}`,
        arrays.map((_a, i) => ms.map((m) => (i === 0 ? m.id : m.values[i - 1]))),
      );
      return new Map(rows.map((r) => [r.id, r]));
    },
  });
  return {
    async insert(s) {
      const values = COLUMNS.map((c) => param(c, s[c]));
      await db.query(
        `INSERT INTO tool_approvals (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c, i) => `$${i + 1}${cast(c)}`).join(', ')})`,
        values,
      );
    },
    get: byId,
    list(status, projectId) {
      const where: string[] = [];
      if (status === 'pending') where.push(`status = 'awaiting_approval'`);
      if (status === 'decided') where.push(`status <> 'awaiting_approval'`);
      if (projectId !== undefined) where.push(`project_id = $1`);
      return many(
        `${select}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id`,
        projectId !== undefined ? [projectId] : [],
      );
    },
    async transition(id, patch, now, guard = {}) {
      const cols = Object.keys(patch)
        .filter((k) => PATCHABLE.has(k))
        .sort();
      return move({
        id,
        cols,
        guard,
        values: [now.toISOString(), ...cols.map((c) => param(c, patch[c as keyof HoldPatch]))],
      });
    },
    async claimProgress(id, due, next) {
      const r = await db.query(
        `UPDATE tool_approvals SET next_progress_at = $3::timestamptz WHERE id = $1 AND status = 'awaiting_approval' AND next_progress_at = $2::timestamptz`,
        [id, due, next],
      );
      return r.rowCount === 1;
    },
    dueDeadlines(now) {
      return many(
        `${select} WHERE status = 'awaiting_approval' AND deadline <= $1::timestamptz ORDER BY deadline LIMIT 500`,
        [now.toISOString()],
      );
    },
    dueProgress(node, now) {
      return many(
        `${select} WHERE status = 'awaiting_approval' AND node = $1 AND next_progress_at <= $2::timestamptz`,
        [node, now.toISOString()],
      );
    },
    async ended(ids) {
      if (!ids.length) return [];
      return many(`${select} WHERE id = ANY($1::text[]) AND status <> 'awaiting_approval'`, [ids]);
    },
    orphans(alive) {
      // A placement is alive when a node of that id is, as the incarnation recorded (a record without one: any).
      const gone = (node: string, instance: string) =>
        `NOT EXISTS (SELECT 1 FROM jsonb_to_recordset($1::jsonb) AS a(id text, instance text)
           WHERE a.id = ${node} AND (${instance} IS NULL OR a.instance IS NOT DISTINCT FROM ${instance}))`;
      return many(
        `${select} WHERE status = 'awaiting_approval' AND call_id IS NOT NULL AND (node IS NULL OR ${gone('node', 'node_instance')})`,
        [JSON.stringify(alive)],
      );
    },
    orphansOf(node, instance) {
      return many(
        `${select} WHERE status = 'awaiting_approval' AND call_id IS NOT NULL
           AND ((node = $1 AND ($2::text IS NULL OR node_instance IS DISTINCT FROM $2::text))
             OR (client_node = $1 AND ($2::text IS NULL OR client_instance IS DISTINCT FROM $2::text)))`,
        [node, instance],
      );
    },
    async ping() {
      await db.query('SELECT 1 FROM tool_approvals LIMIT 1');
    },
  };
}
