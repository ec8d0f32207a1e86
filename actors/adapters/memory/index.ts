export { createMemoryAdapter } from './memory.adapter.ts';
