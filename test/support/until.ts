/**
 * Polls `probe` until it answers a value (not undefined) and answers it: for conditions outside the test's process
 * that must come true and announce nothing (a row in another process's database, an item in a queue read over HTTP).
 * The one poll cadence of the support code; past `timeoutMs` it fails naming `what`, so a condition that never comes
 * true fails the test instead of hanging it. Nothing is decided by the waiting itself.
 */
export async function until<T>(
  probe: () => Promise<T | undefined>,
  opts: { what: string; timeoutMs?: number; everyMs?: number },
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${opts.what}: not within ${opts.timeoutMs ?? 60_000} ms`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 50));
  }
}
