import crypto from 'node:crypto';
import type { Queryable } from './db/index.ts';

export interface StoredBlob {
  sha256: string;
  size_bytes: number;
  media_type: string;
}

/**
 * The content-addressed blob store (SHA-256), on the process's database. Infrastructure like an object store: the
 * twin records which object keys (`work-products/<node_id>/<name>`) name which content; the gateway serves bytes from
 * here directly, so large files never cross the bus.
 */
export function createBlobStore(db: Queryable) {
  return {
    /** Stores bytes once per content hash; returns the hash (the same bytes always give the same hash). */
    async put(bytes: Buffer, mediaType = 'application/octet-stream', q: Queryable = db): Promise<StoredBlob> {
      const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
      await q.query(
        'INSERT INTO blobs (sha256, size_bytes, media_type, content) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO NOTHING',
        [sha256, bytes.length, mediaType, bytes],
      );
      return { sha256, size_bytes: bytes.length, media_type: mediaType };
    },

    /** Names stored content with an object key (re-pointing the key if it existed). */
    async link(objectKey: string, sha256: string, nodeId: string | null, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO blob_objects (object_key, sha256, node_id) VALUES ($1, $2, $3)
         ON CONFLICT (object_key) DO UPDATE SET sha256 = EXCLUDED.sha256, node_id = EXCLUDED.node_id`,
        [objectKey, sha256, nodeId],
      );
    },

    async get(sha256: string): Promise<(StoredBlob & { content: Buffer }) | undefined> {
      const { rows } = await db.query<StoredBlob & { content: Buffer; size_bytes: string }>(
        'SELECT sha256, size_bytes, media_type, content FROM blobs WHERE sha256 = $1',
        [sha256],
      );
      return rows[0] && { ...rows[0], size_bytes: Number(rows[0].size_bytes) };
    },

    async getByKey(objectKey: string): Promise<(StoredBlob & { content: Buffer; object_key: string }) | undefined> {
      const { rows } = await db.query<StoredBlob & { content: Buffer; size_bytes: string; object_key: string }>(
        `SELECT o.object_key, b.sha256, b.size_bytes, b.media_type, b.content
         FROM blob_objects o JOIN blobs b ON b.sha256 = o.sha256 WHERE o.object_key = $1`,
        [objectKey],
      );
      return rows[0] && { ...rows[0], size_bytes: Number(rows[0].size_bytes) };
    },
  };
}
export type BlobStore = ReturnType<typeof createBlobStore>;
