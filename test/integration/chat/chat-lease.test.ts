import { afterAll, describe, expect, inject, it } from 'vitest';
import { createChatStore } from '../../../actors/chat/chat.store.ts';
import { createPgDb, type Db } from '../../../brokers/db/index.ts';
import { createTestDatabase, type TestDatabase } from '../../support/pg.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';

// A chat node starting on a PostgreSQL server beside one still running (a rolling update) ends only the turns whose
// lease lapsed (their node stopped), told on their streams, and leaves the running node's turns alone.
const servers = inject('servers');

describe.runIf(servers.pg)('chat turn leases on a shared database', () => {
  let database: TestDatabase;
  let db: Db;
  let node: TestNode | undefined;
  afterAll(async () => {
    await node?.stop();
    await db?.close();
    await database?.drop();
  });

  it('a starting node ends the lapsed turn and leaves the live one running', async () => {
    database = await createTestDatabase();
    // A first node applies the migrations and stops; its database stays.
    await (await startTestNode({ roles: 'chat', env: { SERVICE_DATABASE_URL: database.url } })).stop();
    db = createPgDb(database.url);
    const store = createChatStore(db);
    const now = new Date();
    await store.createThread({ id: 'th-lapsed', title: 'lapsed' }, now);
    await store.createThread({ id: 'th-live', title: 'live' }, now);
    await store.startTurn('th-lapsed', 'turn-lapsed', 'hello', new Date(now.getTime() - 5 * 60_000));
    await store.startTurn('th-live', 'turn-live', 'hello', now);

    node = await startTestNode({ roles: 'chat', env: { SERVICE_DATABASE_URL: database.url } });
    expect((await store.thread('th-lapsed'))?.last_turn).toEqual({ id: 'turn-lapsed', status: 'failed' });
    expect((await store.thread('th-live'))?.last_turn).toEqual({ id: 'turn-live', status: 'running' });
    const told = await store.events('th-lapsed', 0);
    expect(told.map((e) => e.type)).toEqual(['notify_error', 'agent.done']);
    expect(await store.events('th-live', 0)).toEqual([]);
  });
});
