import type { Operation } from './openapi-operations.ts';

/** How deep into an answer ids are collected: a resource's own fields and those of a listing's items. */
const MAX_DEPTH = 2;
/** Ids kept per bucket (the first ones seen: a bucket grows while the fuzz runs, its order stays). */
const MAX_PER_BUCKET = 64;

/** `/v1/projects/{id}/x` and `/v1/projects/` → `/v1/projects`: the collection a path's ids belong to. */
export const collectionOf = (path: string): string => path.split('/{')[0]!.replace(/\/$/, '');

/**
 * Ids the gateway handed out during the fuzz run, so that generated requests also name things that exist (a random
 * uuid only ever meets the 404 path). An `id` field of an answer goes to the collection of the operation that answered
 * (`/v1/projects`); a `<thing>_id` field to the bucket of that name. A parameter named `id` draws from its path's
 * collection, one named `<thing>_id` from that bucket and from the collection `/v1/<thing>s`. Which id a request
 * gets is fixed by its generated index, so a run stays deterministic per seed up to the ids the server chose.
 */
export class IdPool {
  private readonly buckets = new Map<string, string[]>();

  private add(bucket: string, value: string) {
    const ids = this.buckets.get(bucket) ?? [];
    if (ids.length < MAX_PER_BUCKET && !ids.includes(value)) ids.push(value);
    this.buckets.set(bucket, ids);
  }

  /** Collects the ids of a successful JSON answer to `op`. */
  harvest(op: Operation, body: unknown, depth = 0): void {
    if (depth > MAX_DEPTH || body === null || typeof body !== 'object') return;
    if (Array.isArray(body)) return body.slice(0, 20).forEach((item) => this.harvest(op, item, depth + 1));
    for (const [k, v] of Object.entries(body)) {
      if (typeof v === 'string' && v && v.length <= 200) {
        if (k === 'id') this.add(collectionOf(op.path), v);
        else if (k.endsWith('_id') || k === 'key') this.add(k, v);
      } else this.harvest(op, v, depth + 1);
    }
  }

  /** The id at `index` (modulo) for parameter `name` of `op`; undefined while none was seen. */
  pick(op: Operation, name: string, index: number): string | undefined {
    const ids =
      name === 'id'
        ? (this.buckets.get(collectionOf(op.path)) ?? [])
        : [...(this.buckets.get(name) ?? []), ...(this.buckets.get(`/v1/${name.replace(/_id$/, '')}s`) ?? [])];
    return ids.length ? ids[index % ids.length] : undefined;
  }
}
