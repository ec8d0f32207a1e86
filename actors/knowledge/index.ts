export { createKnowledgeService } from './knowledge.service.ts';
export { createKnowledgeStore, type KnowledgeStore } from './knowledge.store.ts';
export { chunkText, DEFAULT_CHUNK_SIZES, type ChunkSizes } from './chunker.ts';
