import crypto from 'node:crypto';
import type { BlobStore } from '../../brokers/blobs.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { ConversionResult } from '../../contracts/cad.ts';
import {
  ConversionMetadataSchema,
  type CadFormat,
  type ConversionMetadata,
} from '../../workers/convert/convert.schemas.ts';
import type { ConvertPool } from '../../workers/convert/pool.ts';

/** Object keys of a conversion in the blob store: the GLB and its metadata, both named by the source's SHA-256. */
export const glbKey = (sha: string) => `conversions/${sha}.glb`;
const metaKey = (sha: string) => `conversions/${sha}.json`;

/** Where a converted model is served (`GET /v1/convert/{hash}.glb`). */
export const glbUrl = (sha: string) => `/v1/convert/${sha}.glb`;

/** SHA-256 hex digest of bytes (the conversion's cache key and the result's `hash`). */
export const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Converts and caches models: the gateway's conversion routes share one of these. */
export interface Conversions {
  /** The conversion result for a source (from the cache when converted before); 422 when the file cannot be read. */
  convert(
    source: Uint8Array,
    format: CadFormat,
    knownSha?: string,
  ): Promise<ConversionResult & { metadata: ConversionMetadata }>;
  /** The cached GLB of a source hash, or undefined. */
  glb(sha: string): Promise<Buffer | undefined>;
  close(): Promise<void>;
}

/**
 * Conversion with a content-addressed cache (SPEC "Conversion result"): the GLB and its metadata are stored under the
 * source's SHA-256 (`conversions/<sha>.glb`, `.json`), so a repeat answers `cached: true` without converting. Concurrent
 * requests for one source share a single conversion. The worker pool starts on the first conversion.
 */
export function createConversions(deps: { blobs: () => Promise<BlobStore>; pool: () => ConvertPool }): Conversions {
  let pool: ConvertPool | undefined;
  const inflight = new Map<string, Promise<ConversionMetadata>>();

  async function cachedMetadata(sha: string): Promise<ConversionMetadata | undefined> {
    const meta = await (await deps.blobs()).getByKey(metaKey(sha));
    if (!meta) return undefined;
    const parsed = ConversionMetadataSchema.safeParse(JSON.parse(meta.content.toString('utf8')));
    return parsed.success ? parsed.data : undefined; // metadata of an older shape: convert again
  }

  async function run(sha: string, source: Uint8Array, format: CadFormat): Promise<ConversionMetadata> {
    pool ??= deps.pool();
    let outcome;
    try {
      outcome = await pool.run({ source, format });
    } catch (err) {
      const e = err as Error;
      if (e.name === 'AbortError' || /abort/i.test(e.message))
        throw new ActorError('TIMEOUT', 'the conversion took too long and was stopped', { hash: sha });
      if (/queue is at limit/i.test(e.message))
        throw new ActorError('SERVICE_UNAVAILABLE', 'too many conversions are waiting; retry later', { hash: sha });
      throw err;
    }
    if (!outcome.ok)
      throw new ActorError('VALIDATION_FAILED', `file: ${outcome.reason}`, {
        issues: [{ path: 'file', message: outcome.reason }],
        hash: sha,
      });
    const store = await deps.blobs();
    // The GLB first, the metadata last: metadata present means the GLB is there too.
    const glb = await store.put(
      Buffer.from(outcome.glb.buffer, outcome.glb.byteOffset, outcome.glb.byteLength),
      'model/gltf-binary',
    );
    await store.link(glbKey(sha), glb.sha256, null);
    const meta = await store.put(Buffer.from(JSON.stringify(outcome.metadata)), 'application/json');
    await store.link(metaKey(sha), meta.sha256, null);
    return outcome.metadata;
  }

  return {
    async convert(source, format, knownSha) {
      const sha = knownSha ?? sha256(source);
      const hit = await cachedMetadata(sha);
      if (hit) return { hash: sha, glb_url: glbUrl(sha), metadata: hit, cached: true };
      let pending = inflight.get(sha);
      if (!pending) {
        pending = run(sha, source, format).finally(() => inflight.delete(sha));
        inflight.set(sha, pending);
      }
      return { hash: sha, glb_url: glbUrl(sha), metadata: await pending, cached: false };
    },
    async glb(sha) {
      return (await (await deps.blobs()).getByKey(glbKey(sha)))?.content;
    },
    async close() {
      await pool?.close();
    },
  };
}
