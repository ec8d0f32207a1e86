export * from './actions.ts';
export * from './config.ts';
export * from './errors.ts';
export * from './infra.ts';
export * from './logger.ts';
export * from './metrics.ts';
export * from './validator.ts';
export * from './db/index.ts';
