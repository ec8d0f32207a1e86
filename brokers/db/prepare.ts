import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

// Runs as TypeScript under Node 22 (type stripping) and as JavaScript once compiled, like the other workers.
const WORKER = new URL(`./prepare.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * Prepares a new embedded data folder (initdb and the migrations) in a worker thread that then exits, so the node's own
 * PGlite opens a finished database and keeps only what serving needs resident (an all-roles first start idled at
 * 377 MB without, 309-311 MB with it, 20 s after ready). A folder that already holds a database (PG_VERSION) is left
 * alone; in-memory databases too.
 */
export async function prepareNewPgliteDir(dataDir: string): Promise<void> {
  if (dataDir.startsWith('memory://') || fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const worker = new Worker(WORKER, { workerData: { dataDir } });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`preparing the embedded database exited with code ${code}`)));
    });
  } finally {
    await worker.terminate();
  }
}
