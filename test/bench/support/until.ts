/**
 * Polls `probe` until it answers a value (not undefined) and answers it, for benchmarks (they run outside vitest, whose
 * `vi.waitFor` tests use): a condition in another process that announces nothing. Past `timeoutMs` it fails naming
 * `what`, so a condition that never comes true fails the run instead of hanging it.
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
