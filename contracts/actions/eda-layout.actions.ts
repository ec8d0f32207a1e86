import { defineAction } from '../define.ts';
import { LayoutRequestSchema, LayoutResultSchema } from '../eda-layout.ts';

/**
 * The eda adapter's board-from-schematic action (decision 0165): an engine action at the edge, called by the
 * hardware_v1 electronics phase over the bus as `firmware.build` is; not an MCP tool.
 */
export const EdaLayoutActions = {
  layout: defineAction('adapters.eda.layout', LayoutRequestSchema, LayoutResultSchema),
} as const;
