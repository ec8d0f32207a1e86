export * from './errors.ts';
export * from './projects.ts';
