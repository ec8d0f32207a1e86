import { Buffer } from 'node:buffer';
import { InvalidArgumentsError, ToolError, type ToolContext } from '../kit/tool.ts';
import { htmlTitle, htmlToText } from './html.ts';
import { unreachable } from './net-errors.ts';
import type { WebFetchInput, WebFetchResult } from './web.schemas.ts';

/** Sent on every request, so site owners can tell what fetched their page. */
export const USER_AGENT = 'engineering-design-service/0.1 (+web.fetch)';

/** Progress is reported at most once per this many bytes received. */
const PROGRESS_STEP = 64 * 1024;

const TEXTUAL =
  /^(?:text\/[-+.\w]+|application\/(?:json|xml|javascript|ecmascript|x-javascript|xhtml\+xml|x-www-form-urlencoded|yaml|x-yaml|toml|x-sh|sql|graphql|csv|x-ndjson|[-.\w]+\+(?:json|xml)))$/;

/** The URL as a WHATWG URL; anything but absolute http/https (or with credentials) is invalid arguments. */
export function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidArgumentsError(`url ${raw} is not an absolute URL`, { url: raw });
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') {
    throw new InvalidArgumentsError(`url scheme ${scheme} is not supported: only http and https`, { url: raw, scheme });
  }
  if (url.username || url.password)
    throw new InvalidArgumentsError('url must not carry credentials', { url: url.origin });
  return url;
}

/** Streams the body, keeping at most `max` bytes; stops reading (and drops the connection) once over. */
async function readBody(
  res: Response,
  max: number,
  expected: number | null,
  tc: ToolContext,
  url: URL,
  timeoutSeconds: number,
) {
  const parts: Uint8Array[] = [];
  let bytes = 0;
  let truncated = false;
  let reported = 0;
  const reader = res.body?.getReader();
  if (!reader) return { body: Buffer.alloc(0), truncated };
  const whole = Math.min(expected ?? max, max);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = Math.min(value.byteLength, max - bytes);
      if (take > 0) parts.push(value.subarray(0, take));
      bytes += take;
      if (take < value.byteLength) {
        truncated = true;
        break;
      }
      if (bytes - reported >= PROGRESS_STEP) {
        reported = bytes;
        tc.progress(bytes / whole, expected ? `received ${bytes} of ${expected} bytes` : `received ${bytes} bytes`);
      }
    }
  } catch (err) {
    if (tc.signal.aborted) throw err;
    const reason =
      (err as Error).name === 'TimeoutError'
        ? `no complete body within ${timeoutSeconds} seconds`
        : `the connection broke (${(err as Error).message})`;
    throw new ToolError(`reading the response from ${url.host} failed: ${reason} after ${bytes} bytes`, {
      url: url.href,
      bytes,
      reason,
    });
  }
  if (truncated) await reader.cancel().catch(() => undefined);
  return { body: Buffer.concat(parts), truncated };
}

const mimeOf = (ct: string | null) => (ct ?? '').split(';')[0].trim().toLowerCase();
const charsetOf = (ct: string | null) => /charset\s*=\s*"?([^";\s]+)/i.exec(ct ?? '')?.[1];
const metaCharset = (body: Buffer) =>
  /<meta[^>]+charset\s*=\s*["']?([-\w.:]+)/i.exec(body.subarray(0, 4096).toString('latin1'))?.[1];

/** Decodes with the named charset, UTF-8 when it is missing or unknown. */
function decode(body: Buffer, label: string | undefined): string {
  try {
    return new TextDecoder(label ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** For a body without a content type: valid UTF-8 without NUL bytes counts as text. */
function looksLikeText(body: Buffer): boolean {
  const head = body.subarray(0, 65_536);
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * `web.fetch`: one GET with redirects followed, cancelled by the call's signal (the request is aborted, the
 * connection closed) or by its own timeout; progress as bytes arrive. An unreachable host is a ToolError saying why.
 */
export async function fetchUrl(args: WebFetchInput, tc: ToolContext): Promise<WebFetchResult> {
  const url = parseHttpUrl(args.url);
  const signal = AbortSignal.any([tc.signal, AbortSignal.timeout(args.timeout_seconds * 1000)]);
  let res: Response;
  try {
    res = await fetch(url, { signal, redirect: 'follow', headers: { 'user-agent': USER_AGENT, accept: '*/*' } });
  } catch (err) {
    if (tc.signal.aborted) throw err;
    throw unreachable(url, err, args.timeout_seconds);
  }
  const contentType = res.headers.get('content-type');
  const lengthHeader = Number(res.headers.get('content-length'));
  const expected = Number.isSafeInteger(lengthHeader) && lengthHeader > 0 ? lengthHeader : null;
  tc.progress(0, `HTTP ${res.status}, reading the body`);
  const { body, truncated } = await readBody(res, args.max_bytes, expected, tc, url, args.timeout_seconds);
  tc.progress(1, `received ${body.byteLength} bytes${truncated ? ' (truncated)' : ''}`);
  tc.log.info({ url: url.href, status: res.status, bytes: body.byteLength, truncated }, 'web fetch done');

  const base = {
    url: url.href,
    final_url: res.url || url.href,
    status: res.status,
    content_type: contentType,
    content_length: expected,
    bytes: body.byteLength,
    truncated,
  };
  const mime = mimeOf(contentType);
  if (!(TEXTUAL.test(mime) || (!mime && looksLikeText(body))))
    return { ...base, encoding: 'base64', base64: body.toString('base64') };
  const isHtml =
    mime === 'text/html' ||
    mime === 'application/xhtml+xml' ||
    (!mime && /^\s*<(?:!doctype html|html)\b/i.test(body.subarray(0, 512).toString('latin1')));
  const text = decode(body, charsetOf(contentType) ?? (isHtml ? metaCharset(body) : undefined));
  if (!isHtml) return { ...base, encoding: 'text', text };
  return { ...base, encoding: 'text', text: htmlToText(text), html: text, title: htmlTitle(text) };
}
