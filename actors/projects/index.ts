export { createProjectsService } from './projects.service.ts';
export { createProjectStore, type ProjectStore } from './projects.store.ts';
