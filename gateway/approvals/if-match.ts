import { ActorError } from '../../brokers/errors.ts';

/** One entity tag of a list (RFC 9110 8.8.3): optional `W/`, then a quoted string of etagc characters, then `,` or the end. */
const TAG = /[ \t]*(?:W\/)?("[\x21\x23-\x7E\x80-\xFF]*")[ \t]*(?:,|$)/y;

/**
 * The entity tags of an `If-Match` header, weak tags read as their strong form (the gateway compares weakly: a proxy
 * may weaken its tags). Absent or `*` answers undefined: the decision names whatever stands. A malformed header is
 * 422 VALIDATION_FAILED naming the header (never ignored: a client that meant a target must not decide without one).
 */
export function parseIfMatch(raw: string | string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const text = (Array.isArray(raw) ? raw.join(', ') : raw).trim();
  if (text === '*') return undefined;
  const tags: string[] = [];
  TAG.lastIndex = 0;
  while (text.length && TAG.lastIndex < text.length) {
    const at = TAG.lastIndex;
    const m = TAG.exec(text);
    if (!m || TAG.lastIndex === at) {
      throw new ActorError(
        'VALIDATION_FAILED',
        `If-Match must be * or a list of entity tags ("..." or W/"..."), got ${JSON.stringify(text.slice(0, 200))}`,
        {
          issues: [{ path: 'headers.if-match', message: 'expected * or a list of entity tags' }],
        },
      );
    }
    tags.push(m[1]);
  }
  if (!tags.length)
    throw new ActorError('VALIDATION_FAILED', 'If-Match is empty: send * or an entity tag', {
      issues: [{ path: 'headers.if-match', message: 'expected * or a list of entity tags' }],
    });
  return tags;
}
