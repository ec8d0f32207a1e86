import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../../brokers/db/open.ts';
import { readMigrations } from '../../../brokers/db/migrate.ts';
import { prepareNewPgliteDir } from '../../../brokers/db/prepare.ts';

// A new embedded data folder is created and migrated in a child process (its wasm heap leaves with it); the node then
// opens a finished database.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-prepare-'));
  dirs.push(d);
  return d;
};

describe('embedded database preparation', () => {
  it('creates and migrates a new folder in a child process; opening it finds every migration applied', async () => {
    const dir = tmp();
    await prepareNewPgliteDir(path.join(dir, 'pgdata'));
    expect(fs.existsSync(path.join(dir, 'pgdata', 'PG_VERSION'))).toBe(true);
    const db = await openDb({ dataDir: dir });
    try {
      const { rows } = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM schema_migrations');
      expect(Number(rows[0].n)).toBe((await readMigrations()).length);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('leaves a folder that holds a database alone', async () => {
    const dir = tmp();
    const pgdata = path.join(dir, 'pgdata');
    fs.mkdirSync(pgdata);
    fs.writeFileSync(path.join(pgdata, 'PG_VERSION'), '18\n');
    await prepareNewPgliteDir(pgdata);
    expect(fs.readdirSync(pgdata)).toEqual(['PG_VERSION']);
  });
});
