import type { ToolDefinition } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { generateSchematicTool } from './generate-schematic.tool.ts';
import { schematicTools } from './schematic.tools.ts';

/** The eda tools, each from its own module. */
export function edaTools(ws: Workspace): ToolDefinition<any, any>[] {
  return [...schematicTools(ws), generateSchematicTool(ws)];
}
