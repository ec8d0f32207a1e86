import type { ToolDefinition } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { autoRouteTool } from './auto-route.tool.ts';
import { runDrcTool } from './drc.tool.ts';
import { runErcTool } from './erc.tool.ts';
import { generateSchematicTool } from './generate-schematic.tool.ts';
import { exportGerberTool } from './gerber.tool.ts';
import { schematicTools } from './schematic.tools.ts';

/**
 * The eda tools, each from its own module: the schematic ones read KiCad's files natively (they work without KiCad),
 * the board ones run KiCad 9: kicad-cli for DRC and Gerbers, pcbnew for auto_route (engine.ts ENGINE_TOOLS).
 */
export function edaTools(ws: Workspace): ToolDefinition<any, any>[] {
  return [
    ...schematicTools(ws),
    runErcTool(ws),
    generateSchematicTool(ws),
    runDrcTool(ws),
    exportGerberTool(ws),
    autoRouteTool(ws),
  ];
}
