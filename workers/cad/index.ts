export { KernelPool, type KernelPoolOptions } from './host/pool.ts';
export { KernelTaskError, type KernelFailure, type KernelFailureKind } from './host/protocol.ts';
export { acquireKernelPool, currentKernelPool, releaseKernelPool } from './host/shared.ts';
export type { KernelTasks } from './tasks.ts';
