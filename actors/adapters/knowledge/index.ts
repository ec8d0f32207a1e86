export { createKnowledgeAdapter } from './knowledge.adapter.ts';
