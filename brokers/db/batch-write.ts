/**
 * The write side of `batchLoader`: the writes asked for during one turn of the event loop are grouped (`group`: the
 * writes that one statement can carry, e.g. one kind of decision with one guard) and each group is written by one call
 * of `write` (one guarded `UPDATE ... FROM unnest(...)` for many rows instead of one per request). Each caller gets its
 * own row back, or undefined when its row did not come back (the guard refused it: the caller answers its refusal
 * exactly as it did for a single UPDATE). A failed statement fails every caller of that group, and only those.
 *
 * Exactly once stays the guard's job, and within one statement it stays so: of several writes on the same row (`key`)
 * in one batch, only the first goes into the statement; the others get undefined once it has run, as they would have
 * after a single UPDATE that another request's UPDATE beat (if the statement fails, they fail with it).
 */
export function batchWriter<I, R>(opts: {
  /** Writes that share a statement have the same group (the statement's shape and guard). */
  group: (item: I) => string;
  /** The row a write touches. */
  key: (item: I) => string;
  /** Writes `items` (one group, distinct keys) in one statement; the rows that came back, by key. */
  write: (group: string, items: I[]) => Promise<Map<string, R>>;
}): (item: I) => Promise<R | undefined> {
  interface Waiter {
    item: I;
    resolve(v: R | undefined): void;
    reject(err: unknown): void;
  }
  let pending: Waiter[] = [];
  const run = (group: string, batch: Waiter[]) => {
    const first = new Map<string, Waiter>();
    const losers: Waiter[] = [];
    for (const w of batch) {
      const k = opts.key(w.item);
      if (first.has(k)) losers.push(w);
      else first.set(k, w);
    }
    const winners = [...first.values()];
    Promise.resolve()
      .then(() =>
        opts.write(
          group,
          winners.map((w) => w.item),
        ),
      )
      .then(
        (rows) => {
          for (const w of winners) w.resolve(rows.get(opts.key(w.item)));
          for (const w of losers) w.resolve(undefined);
        },
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      );
  };
  const flush = () => {
    const batch = pending;
    pending = [];
    const groups = new Map<string, Waiter[]>();
    for (const w of batch) {
      const g = opts.group(w.item);
      const ws = groups.get(g);
      if (ws) ws.push(w);
      else groups.set(g, [w]);
    }
    for (const [g, ws] of groups) run(g, ws);
  };
  return (item) =>
    new Promise((resolve, reject) => {
      if (!pending.length) setImmediate(flush);
      pending.push({ item, resolve, reject });
    });
}
