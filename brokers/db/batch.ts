/**
 * A read batcher: the keys asked for during one turn of the event loop are loaded with one call (one query for many
 * rows instead of one per request, which is what a burst of concurrent decisions otherwise costs). Each caller gets
 * its own value, or undefined when the load did not find its key; a failed load fails every caller of that batch.
 */
export function batchLoader<V>(
  load: (keys: string[]) => Promise<Map<string, V>>,
): (key: string) => Promise<V | undefined> {
  let pending: { key: string; resolve(v: V | undefined): void; reject(err: unknown): void }[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    load([...new Set(batch.map((b) => b.key))]).then(
      (found) => {
        for (const b of batch) b.resolve(found.get(b.key));
      },
      (err: unknown) => {
        for (const b of batch) b.reject(err);
      },
    );
  };
  return (key) =>
    new Promise((resolve, reject) => {
      if (!pending.length) setImmediate(flush);
      pending.push({ key, resolve, reject });
    });
}
