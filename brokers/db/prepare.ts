import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Runs as TypeScript under Node 22 (type stripping) and as JavaScript once compiled, like the other workers.
const SCRIPT = fileURLToPath(
  new URL(`./prepare.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
);

/**
 * Prepares a new embedded data folder (initdb and the migrations) in a child process that then exits, so the node's
 * own PGlite opens a finished database and keeps only what serving needs resident: PGlite's wasm heap never shrinks,
 * and a worker thread's memory is not all given back to the process when the thread ends (an all-roles first start
 * idled at 377 MB in the node, 309-355 MB with a worker thread). A folder that already holds a database (PG_VERSION) is
 * left alone; in-memory databases too.
 */
export async function prepareNewPgliteDir(dataDir: string): Promise<void> {
  if (dataDir.startsWith('memory://') || fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const child = fork(SCRIPT, [dataDir], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: process.execArgv });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`preparing the embedded database failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`)),
    );
  });
}
