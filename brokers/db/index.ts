export * from './db.ts';
export * from './pg.ts';
export * from './pglite.ts';
export * from './migrate.ts';
export * from './open.ts';
export * from './batch.ts';
export * from './batch-write.ts';
