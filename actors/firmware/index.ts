export { createFirmwareService } from './firmware.service.ts';
export { GCC_FLAGS, GCC_MISSING, parseDiagnostics } from './gcc.ts';
export { buildDir, writeSources } from './sources.ts';
