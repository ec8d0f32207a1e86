import { parentPort, workerData } from 'node:worker_threads';
import { migrate } from './migrate.ts';
import { createPgliteDb } from './pglite.ts';

/**
 * Creates a new embedded database (initdb) and applies every migration in a thread of its own: PGlite's wasm heap
 * never shrinks, and what initdb and the migrations touch would stay resident in the node for its whole life. The
 * thread ends, its heap goes with it, and the node opens the prepared folder (prepare.ts).
 */
const db = await createPgliteDb((workerData as { dataDir: string }).dataDir);
await migrate(db);
await db.close();
parentPort!.postMessage('prepared');
