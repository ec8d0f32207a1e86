import type { FastifyReply } from 'fastify';
import { createBlobStore, type BlobStore } from '../../brokers/blobs.ts';
import { ActorError } from '../../brokers/errors.ts';
import type { GatewayDeps } from '../deps.ts';

/** The blob store on the gateway's own database connection; 503 when this gateway was built without one. */
export async function gatewayBlobs(deps: GatewayDeps): Promise<BlobStore> {
  if (!deps.db) throw new ActorError('SERVICE_UNAVAILABLE', 'this gateway has no database connection for stored files');
  return createBlobStore(await deps.db());
}

/** True when an `If-None-Match` value (a list, weak tags or `*`) names the content hash. */
export function etagMatches(ifNoneMatch: string | string[] | undefined, hash: string): boolean {
  const value = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  if (!value) return false;
  return value
    .split(',')
    .map((t) =>
      t
        .trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1'),
    )
    .some((t) => t === '*' || t === hash);
}

/** The strong ETag of content-addressed bytes: their SHA-256, quoted. */
export const etagOf = (sha256: string) => `"${sha256}"`;

/** Answers 304 with the ETag when the client already holds these bytes; true when it did. */
export function notModified(reply: FastifyReply, ifNoneMatch: string | string[] | undefined, sha256: string): boolean {
  if (!etagMatches(ifNoneMatch, sha256)) return false;
  void reply.code(304).header('etag', etagOf(sha256)).header('cache-control', 'no-cache').send();
  return true;
}

const SOLVER_TYPES: Record<string, string> = {
  frd: 'text/plain; charset=utf-8',
  dat: 'text/plain; charset=utf-8',
  vtu: 'application/xml',
};

/** Media type a stored file is served with: solver `frd`/`dat` as text, `vtu` as XML, anything else as recorded. */
export function servedMediaType(fileName: string, recorded: string | undefined): string {
  const ext = fileName.split('.').pop()?.toLowerCase() ?? '';
  return SOLVER_TYPES[ext] ?? (recorded || 'application/octet-stream');
}

/** `inline; filename="..."` with the name reduced to safe characters. */
export const inlineDisposition = (fileName: string) =>
  `inline; filename="${fileName.replace(/[^A-Za-z0-9_.-]+/g, '_')}"`;

/** Sends stored bytes exactly as stored (no re-encoding): type, length, strong ETag, and any extra headers. */
export function sendStored(
  reply: FastifyReply,
  bytes: Buffer,
  sha256: string,
  contentType: string,
  extra: Record<string, string> = {},
) {
  void reply
    .code(200)
    .header('content-type', contentType)
    .header('content-length', String(bytes.length))
    .header('etag', etagOf(sha256))
    .header('cache-control', 'no-cache');
  for (const [k, v] of Object.entries(extra)) void reply.header(k, v);
  return reply.send(bytes);
}
