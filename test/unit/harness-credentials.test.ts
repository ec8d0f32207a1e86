import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createCredentialPool } from '../../actors/harness/config/credentials.ts';

// SPEC Authentication rule 7: several credentials per provider in an owner-only file written atomically, a pin per
// conversation or run, 401/403 marks dead and moves on, 429 rotates without marking; no key in any answer or log.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harness-cred-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const lines: string[] = [];
const log = pino(
  { level: 'debug' },
  new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  }),
);
const now = () => new Date('2026-11-25T12:00:00Z');
const KEY_A = 'sk-test-AAAAAAAAAAAAAAAAAAAA-a111';
const KEY_B = 'sk-test-BBBBBBBBBBBBBBBBBBBB-b222';
const KEY_C = 'sk-test-CCCCCCCCCCCCCCCCCCCC-c333';

describe('the credential pool', () => {
  const file = path.join(dir, 'sub', 'credentials.json');
  const pool = createCredentialPool({ file, log, now });

  it('writes the file owner-only and answers keys masked', async () => {
    await pool.load();
    const a = await pool.add({ provider: 'openai', api_key: KEY_A, label: 'main' });
    await pool.add({ provider: 'openai', api_key: KEY_B });
    await pool.add({ provider: 'anthropic', api_key: KEY_C });
    expect(a).toMatchObject({ provider: 'openai', label: 'main', last4: 'a111', status: 'healthy' });
    expect(JSON.stringify(a)).not.toContain(KEY_A);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['credentials.json']); // no temporary file left behind
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(stored.credentials.map((c: { api_key: string }) => c.api_key)).toEqual([KEY_A, KEY_B, KEY_C]);
    expect(JSON.stringify(pool.list())).not.toMatch(/sk-test-/);
  });

  it('pins a key to one credential and rotates new pins', () => {
    const first = pool.pickCredential('openai', 'run-1')!;
    expect(pool.pickCredential('openai', 'run-1')!.id).toBe(first.id);
    const second = pool.pickCredential('openai', 'run-2')!;
    expect(second.id).not.toBe(first.id);
    expect([first.api_key, second.api_key].sort()).toEqual([KEY_A, KEY_B]);
    expect(pool.pickCredential('mistral', 'run-1')).toBeNull();
  });

  it('429 moves the pin on without marking the credential dead', async () => {
    const before = pool.pickCredential('openai', 'run-1')!;
    await pool.reportCredential(before.id, 'rate_limited');
    const after = pool.pickCredential('openai', 'run-1')!;
    expect(after.id).not.toBe(before.id);
    expect(pool.list().every((c) => c.status === 'healthy')).toBe(true);
  });

  it('401/403 marks it dead (in the file too) and the next healthy one is used', async () => {
    const pinned = pool.pickCredential('openai', 'run-3')!;
    await pool.reportCredential(pinned.id, 'auth_failed');
    const next = pool.pickCredential('openai', 'run-3')!;
    expect(next.id).not.toBe(pinned.id);
    expect(pool.list().find((c) => c.id === pinned.id)?.status).toBe('dead');
    const reread = createCredentialPool({ file, log, now });
    await reread.load();
    expect(reread.list().find((c) => c.id === pinned.id)?.status).toBe('dead');
    await pool.reportCredential(next.id, 'auth_failed');
    expect(pool.pickCredential('openai', 'run-3')).toBeNull();
    expect(pool.providers().get('openai')?.healthy).toBe(false);
  });

  it('never logs a key', () => {
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toMatch(/sk-test-/);
  });
});

describe('a credentials file the service cannot use', () => {
  it('a malformed file is a problem, and adding refuses to overwrite it', async () => {
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, `{"version": 1, "credentials": [{"api_key": "${KEY_A}"}]}`, { mode: 0o600 });
    const pool = createCredentialPool({ file, log, now });
    await pool.load();
    expect(pool.problem()).toMatch(/broken\.json is not a credentials file/);
    expect(pool.problem()).not.toContain(KEY_A);
    await expect(pool.add({ provider: 'openai', api_key: KEY_B })).rejects.toMatchObject({ type: 'CONFLICT' });
    expect(fs.readFileSync(file, 'utf8')).toContain(KEY_A);
  });

  it('a file that cannot be written (a read-only mounted Secret) answers CONFLICT naming it', async () => {
    const blocker = path.join(dir, 'not-a-folder');
    fs.writeFileSync(blocker, ''); // a path through a file cannot be written, even by root
    const pool = createCredentialPool({ file: path.join(blocker, 'credentials.json'), log, now });
    await pool.load();
    await expect(pool.add({ provider: 'openai', api_key: KEY_A })).rejects.toMatchObject({
      type: 'CONFLICT',
      message: expect.stringMatching(/not-a-folder\/credentials\.json cannot be written \(E[A-Z]+\)/),
    });
    expect(pool.list()).toEqual([]);
  });

  it('memory only (memory:// data dir) keeps credentials without a file', async () => {
    const pool = createCredentialPool({ file: null, log, now });
    await pool.load();
    await pool.add({ provider: 'anthropic', api_key: KEY_C });
    expect(pool.pickCredential('anthropic')?.api_key).toBe(KEY_C);
  });
});
