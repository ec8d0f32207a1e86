import type { FastifyReply } from 'fastify';
import { notModified, sendStored } from '../plugins/blob-reply.ts';

/**
 * Sends a cached GLB: `model/gltf-binary`, strong ETag of the source's SHA-256, 304 to a matching If-None-Match.
 * Shared by `GET /v1/convert/{hash}.glb` and `GET /v1/twin/nodes/{id}/model`.
 */
export function sendGlb(
  reply: FastifyReply,
  sha: string,
  glb: Buffer,
  ifNoneMatch: string | string[] | undefined,
  extra: Record<string, string> = {},
) {
  if (notModified(reply, ifNoneMatch, sha)) return reply;
  return sendStored(reply, glb, sha, 'model/gltf-binary', extra);
}
