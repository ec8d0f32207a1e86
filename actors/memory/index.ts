export { createMemoryService } from './memory.service.ts';
