import type { Queryable } from '../../../brokers/db/index.ts';
import type { WritePlan } from './compile-write.ts';
import { CypherError } from './errors.ts';

/** What a write query changed. */
export interface WriteCounts {
  properties_set: number;
  relationships_created: number;
  relationships_deleted: number;
}

/**
 * Applies a write plan on `q` (the caller's transaction): reads every matched row first, then applies the writes
 * row by row in query order. Values come back from the plan's SELECT and are bound again, never interpolated.
 */
export async function applyWrites(q: Queryable, plan: WritePlan, params: unknown[]): Promise<WriteCounts> {
  const counts: WriteCounts = { properties_set: 0, relationships_created: 0, relationships_deleted: 0 };
  const { rows } = await q.query<Record<string, unknown>>(plan.sql, params);
  const deleted = new Set<string>();
  for (const row of rows) {
    for (const a of plan.actions) {
      if (a.kind === 'set') {
        const id = row[a.target];
        if (id == null) continue;
        const value = row[a.value] ?? null;
        const touch = a.table === 'twin_nodes' ? ', updated_at = now()' : '';
        const idCast = a.table === 'twin_nodes' ? 'uuid' : 'bigint';
        if (a.column === 'name') {
          if (typeof value !== 'string') {
            throw new CypherError('semantic', `SET ${a.key}: a node name must be a string`);
          }
          await q.query(`UPDATE twin_nodes SET name = $1::text${touch} WHERE id = $2::uuid`, [value, id]);
        } else if (value === null) {
          await q.query(`UPDATE ${a.table} SET properties = properties - $1::text${touch} WHERE id = $2::${idCast}`, [
            a.key,
            id,
          ]);
        } else {
          await q.query(
            `UPDATE ${a.table} SET properties = properties || jsonb_build_object($1::text, $2::jsonb)${touch} ` +
              `WHERE id = $3::${idCast}`,
            [a.key, JSON.stringify(value), id],
          );
        }
        counts.properties_set++;
      } else if (a.kind === 'create') {
        const [src, dst] = [row[a.src], row[a.dst]];
        if (src == null || dst == null) continue;
        const props = a.props === undefined ? {} : (row[a.props] ?? {});
        if (typeof props !== 'object' || Array.isArray(props)) {
          throw new CypherError('semantic', 'Relationship properties must be a map');
        }
        await q.query(
          'INSERT INTO twin_edges (src, dst, rel_type, properties) VALUES ($1::uuid, $2::uuid, $3::text, $4::jsonb)',
          [src, dst, a.type, JSON.stringify(props)],
        );
        counts.relationships_created++;
      } else {
        const raw = row[a.target];
        const ids = (a.many ? ((raw as unknown[] | null) ?? []) : raw == null ? [] : [raw])
          .map(String)
          .filter((id) => !deleted.has(id));
        if (!ids.length) continue;
        const res = await q.query('DELETE FROM twin_edges WHERE id = ANY($1::bigint[])', [ids]);
        ids.forEach((id) => deleted.add(id));
        counts.relationships_deleted += res.rowCount;
      }
    }
  }
  return counts;
}
