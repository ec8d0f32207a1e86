#!/usr/bin/env node
// The `service` command. Node 22 runs the TypeScript sources directly (type stripping). When started by an older
// Node (a bare `service` on a machine whose own node is 20), re-run with the Node 22 that `npm install` provided.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const major = Number(process.versions.node.split('.')[0]);
if (major >= 22 && process.platform === 'linux' && !process.env.MALLOC_ARENA_MAX && process.execve) {
  // glibc keeps one malloc arena per thread that ever allocated (libuv's pool reading PGlite's files, kernel threads)
  // and rarely gives their free pages back: an idle embedded node held 600+ MB after its first start, 380 MB with two
  // arenas (README "Benchmarks", bench:memory). The variable is read once at process start, so the process replaces
  // itself (same pid, no second process) with it set; set MALLOC_ARENA_MAX yourself to choose another value.
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_ARENA_MAX: '2',
  });
}
if (major >= 22) {
  const { main } = await import('./main.ts');
  await main(process.argv.slice(2));
} else {
  const require = createRequire(import.meta.url);
  const node22 = path.join(path.dirname(require.resolve('node/package.json')), 'bin', 'node');
  const child = spawn(node22, [new URL(import.meta.url).pathname, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
