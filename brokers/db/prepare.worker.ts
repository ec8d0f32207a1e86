import { migrate } from './migrate.ts';
import { createPgliteDb } from './pglite.ts';

/**
 * Creates a new embedded database (initdb) and applies every migration in a process of its own (prepare.ts): PGlite's
 * wasm heap never shrinks, and what initdb and the migrations touch would stay resident in the node for its whole
 * life. The process ends, its memory goes with it, and the node opens the prepared folder.
 */
const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: prepare.worker <data dir>');
const db = await createPgliteDb(dataDir);
await migrate(db);
await db.close();
process.exit(0);
