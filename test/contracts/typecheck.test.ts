// The whole package type-checks (`npm run typecheck`: tsc --noEmit over actors, brokers, contracts, gateway, workers
// and test). Node runs the TypeScript by stripping types, so nothing else would catch a type error; CI does it here.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

it('type-checks with tsc --noEmit', async () => {
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  const out = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json'], {
    cwd: ROOT,
    maxBuffer: 1 << 24,
  }).then(
    () => '',
    (err: { stdout?: string; message: string }) => err.stdout || err.message,
  );
  expect(out).toBe('');
}, 180_000);
