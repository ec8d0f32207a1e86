import { z } from 'zod';
import { defineAction } from '../define.ts';
import { FirmwareBuildRequestSchema, FirmwareBuildResultSchema, FirmwareHealthSchema } from '../firmware.ts';

/**
 * The firmware actor (role `firmware`, an engine at the edge like the adapters, but no MCP tool): host builds of
 * firmware sources with gcc in the engine sandbox, for the hardware_v1 firmware phase.
 */
export const FirmwareActions = {
  build: defineAction('firmware.build', FirmwareBuildRequestSchema, FirmwareBuildResultSchema),
  health: defineAction('firmware.health', z.object({}), FirmwareHealthSchema),
} as const;
