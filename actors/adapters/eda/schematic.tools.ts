import path from 'node:path';
import { z } from 'zod';
import { defineTool, InvalidArgumentsError } from '../kit/tool.ts';
import { ExportOutputPath, ExportOverwrite, writeExport } from './export-output.ts';
import type { Workspace } from '../kit/workspace.ts';
import { bomCsv } from '../../../workers/eda/bom.ts';
import { loadDesign } from './load.ts';
import { spiceNetlistFile } from './spice.tool.ts';

const SchematicPath = z
  .string()
  .min(1)
  .max(1024)
  .describe('workspace path of the root .kicad_sch (KiCad 6 to 9); sheet files resolve against its folder');
const stem = (p: string) => path.posix.basename(p, '.kicad_sch');

/** `eda.export_netlist`, `eda.export_bom`, `eda.get_pin_mapping`: native reads of a schematic hierarchy. */
export function schematicTools(ws: Workspace) {
  return [
    defineTool({
      name: 'export_netlist',
      title: 'Export the netlist of a KiCad schematic',
      description:
        'Connectivity of a KiCad schematic and its whole hierarchy (wires, junctions, labels local/global/hierarchical, ' +
        'power symbols and hidden power pins, sheet pins, bus members), named as KiCad names nets. format kicad writes ' +
        "KiCad's .net (export version E); json writes the same as JSON. Returns components and nets (code, name, nodes " +
        'with reference, pin, pin name and electrical type) and the file written. format spice writes a SPICE netlist ' +
        "of a simulation schematic (KiCad 6 Spice_* fields, the sheet's directives) that circuit.run_simulation runs " +
        '(netlist_path); what that tool would refuse is listed in skipped with the reason. The file goes to the ' +
        "call's own scratch folder unless output_path names a workspace path (an existing file only with overwrite true).",
      input: z.object({
        schematic_path: SchematicPath,
        format: z.enum(['kicad', 'json', 'spice']).default('json'),
        output_path: ExportOutputPath,
        overwrite: ExportOverwrite,
      }),
      handler: async (a, tc) => {
        if (a.format === 'spice') {
          const spice = await spiceNetlistFile(ws, a.schematic_path, {
            outputPath: a.output_path,
            overwrite: a.overwrite,
          });
          tc.outputFiles.push(spice.spice_path);
          return { schematic_path: a.schematic_path, format: a.format, netlist_file: spice.spice_path, ...spice };
        }
        const op = {
          kind: 'netlist',
          format: a.format,
          source: a.schematic_path,
          date: new Date().toISOString(),
          tool: 'service eda 0.1.0',
        } as const;
        const { result, parse_ms } = await loadDesign(ws, a.schematic_path, op, { signal: tc?.signal });
        const { netlist: json, text, sheets } = result;
        const ext = a.format === 'kicad' ? 'net' : 'json';
        const netlist_file = await writeExport(ws, tc, {
          tool: 'eda.export_netlist',
          name: `${stem(a.schematic_path)}.${ext}`,
          text,
          outputPath: a.output_path,
          overwrite: a.overwrite,
        });
        return {
          schematic_path: a.schematic_path,
          format: a.format,
          netlist_file,
          sheets,
          component_count: json.components.length,
          net_count: json.nets.length,
          ...json,
          parse_ms,
        };
      },
    }),
    defineTool({
      name: 'export_bom',
      title: 'Export the bill of materials of a KiCad schematic',
      description:
        'Bill of materials of a KiCad schematic hierarchy: parts in the BOM grouped by value, footprint and manufacturer ' +
        'part number, with references, quantity, manufacturer and MPN where the symbols carry them, and the other fields ' +
        'the group shares. format csv or json (the file written); the lines are returned either way and can be recorded ' +
        "as the project's bom with twin.record_document (document_type bom, properties {lines}). The file goes to the " +
        "call's own scratch folder unless output_path names a workspace path (an existing file only with overwrite true).",
      input: z.object({
        schematic_path: SchematicPath,
        format: z.enum(['csv', 'json']).default('csv'),
        output_path: ExportOutputPath,
        overwrite: ExportOverwrite,
      }),
      handler: async (a, tc) => {
        const { result, parse_ms } = await loadDesign(ws, a.schematic_path, { kind: 'bom' }, { signal: tc?.signal });
        const { lines } = result;
        const text = a.format === 'csv' ? bomCsv(lines) : `${JSON.stringify({ lines }, null, 1)}\n`;
        const bom_file = await writeExport(ws, tc, {
          tool: 'eda.export_bom',
          name: `${stem(a.schematic_path)}-bom.${a.format}`,
          text,
          outputPath: a.output_path,
          overwrite: a.overwrite,
        });
        return {
          schematic_path: a.schematic_path,
          format: a.format,
          bom_file,
          line_count: lines.length,
          part_count: lines.reduce((n, l) => n + l.quantity, 0),
          lines,
          parse_ms,
        };
      },
    }),
    defineTool({
      name: 'get_pin_mapping',
      title: 'Pin mapping of the parts of a KiCad schematic',
      description:
        'Per part (units merged) with its footprint: every pin number (the pad it lands on), pin name, electrical type ' +
        'and the net it is on (null when nothing is attached). references limits the parts (e.g. ["U1"]).',
      input: z.object({
        schematic_path: SchematicPath,
        references: z.array(z.string().min(1).max(64)).max(1000).optional(),
      }),
      handler: async (a, tc) => {
        const op = { kind: 'pinmap', ...(a.references ? { only: a.references } : {}) } as const;
        const { result, parse_ms } = await loadDesign(ws, a.schematic_path, op, { signal: tc?.signal });
        const { parts } = result;
        const missing = a.references?.filter((r) => !parts.some((p) => p.reference === r)) ?? [];
        if (missing.length)
          throw new InvalidArgumentsError(`no part ${missing.join(', ')} in ${a.schematic_path}`, {
            references: missing,
          });
        return { schematic_path: a.schematic_path, part_count: parts.length, parts, parse_ms };
      },
    }),
  ];
}
