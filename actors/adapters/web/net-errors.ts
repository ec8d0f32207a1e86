import { ToolError } from '../kit/tool.ts';

/** Reads a Node/undici error code from an error, its cause, or the first of an AggregateError's errors. */
function codeOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  if (!e) return undefined;
  if (typeof e.code === 'string') return e.code;
  if (e.cause) return codeOf(e.cause);
  if (Array.isArray(e.errors) && e.errors.length) return codeOf(e.errors[0]);
  return undefined;
}

/** Why a connection failed, in words. */
function reasonOf(code: string | undefined, err: unknown, hostname: string): string {
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return `DNS lookup of ${hostname} failed (${code})`;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the server';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no route to the host';
    case 'UND_ERR_SOCKET':
      return 'the connection closed before a response arrived';
  }
  const cause = (err as { cause?: { message?: string } }).cause;
  if (cause?.message === 'bad port') return "the port is on the fetch standard's list of blocked ports";
  if (code && /CERT|TLS|SSL/.test(code)) return `TLS failed: ${cause?.message ?? code}`;
  return cause?.message ?? (err as Error).message ?? String(err);
}

/**
 * A request that got no response: a ToolError saying the host could not be reached and why (DNS, refused, timeout,
 * TLS...). `timeoutSeconds` is the tool's own deadline, whose expiry shows up as a TimeoutError.
 */
export function unreachable(url: URL, err: unknown, timeoutSeconds: number): ToolError {
  const timedOut = (err as { name?: string }).name === 'TimeoutError';
  const code = timedOut ? 'TIMEOUT' : codeOf(err);
  const reason = timedOut ? `no response within ${timeoutSeconds} seconds` : reasonOf(code, err, url.hostname);
  return new ToolError(`host ${url.host} could not be reached: ${reason}`, {
    url: url.href,
    host: url.host,
    code: code ?? null,
    reason,
  });
}
