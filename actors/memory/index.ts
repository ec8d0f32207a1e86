export { createMemoryService } from './memory.service.ts';
export { createMemoryStore, type MemoryStore } from './memory.store.ts';
