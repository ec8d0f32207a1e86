import fs from 'node:fs/promises';
import path from 'node:path';
import { defineTool, InvalidArgumentsError, ToolError, ToolUnavailableError } from '../kit/tool.ts';
import type { Workspace } from '../kit/workspace.ts';
import { RunSimulationInputSchema, RunSimulationResultSchema } from './circuit.schemas.ts';
import { workspaceIncludes } from '../kit/spice/netlist-includes.ts';
import { prepareNetlist } from './netlist.ts';
import { findProgram, runNgspice } from './ngspice.ts';
import { failureMessage, judgeRun } from './outcome.ts';
import { parseRawFile, PLOT_NAMES, RawFileError } from './raw-file.ts';
import { nonFiniteVectors, selectVectors, summarise } from './results.ts';

/** Largest raw file read back (a long transient with many vectors); past it the caller should narrow the run. */
const MAX_RAW_BYTES = 256 * 1024 * 1024;

/** `circuit.run_simulation`: one ngspice batch run in a scratch folder of the workspace, judged and summarised. */
export function runSimulationTool(ws: Workspace) {
  return defineTool({
    name: 'run_simulation',
    title: 'Run a SPICE circuit simulation',
    description:
      'Simulate a SPICE netlist with ngspice (batch mode). Give netlist (text) or netlist_path (workspace file), and analysis_type ' +
      "op | dc | ac | transient. params builds the analysis card and replaces the netlist's: dc {source, start, stop, step}; ac " +
      '{variation dec|oct|lin, points, fstart, fstop}; transient {tstep, tstop, tstart?, tmax?, uic?}; op needs none. Only the ' +
      'requested analysis runs. Returns per vector final/min/max (AC: magnitude_db and phase_deg), waveforms decimated to ' +
      'max_points keyed by their scale (time, frequency, sweep), converged and the simulator log. probes limits the vectors ' +
      '(v(out), i(v1) or a node name). The netlist is data: a .control block, *ng_script, commands and unknown dot cards are ' +
      'refused, and includes must be workspace files; a failed run is an error quoting the simulator.',
    input: RunSimulationInputSchema,
    output: RunSimulationResultSchema,
    handler: async (a, tc) => {
      if ((a.netlist === undefined) === (a.netlist_path === undefined)) {
        throw new InvalidArgumentsError('give exactly one of netlist and netlist_path', {
          netlist: a.netlist !== undefined,
          netlist_path: a.netlist_path !== undefined,
        });
      }
      const exe = await findProgram('ngspice');
      if (!exe)
        throw new ToolUnavailableError('ngspice is not installed (not found on PATH; Debian package ngspice)', {
          program: 'ngspice',
        });
      const source = a.netlist ?? (await ws.read(a.netlist_path!, 'netlist_path')).toString('utf8');
      const baseDir = a.netlist_path ? path.dirname(await ws.resolve(a.netlist_path, 'netlist_path')) : ws.root;
      const dir = await ws.scratch('circuit.run_simulation');
      // Included files are checked, then read by ngspice from checked copies in the scratch folder (netlist-includes.ts).
      const prepared = await prepareNetlist(
        source,
        a.analysis_type,
        a.params,
        workspaceIncludes(ws, baseDir, path.join(dir, 'include')),
      ).catch(async (err: unknown) => {
        await fs.rm(dir, { recursive: true, force: true });
        throw err;
      });
      await fs.writeFile(path.join(dir, 'netlist.cir'), prepared.text);
      const started = performance.now();
      const run = await runNgspice(exe, { cwd: dir, netlist: 'netlist.cir', raw: 'out.raw', signal: tc.signal });
      const elapsed_ms = Math.round(performance.now() - started);
      const rawPath = path.join(dir, 'out.raw');
      const rawSize = await fs.stat(rawPath).then(
        (s) => s.size,
        () => -1,
      );
      if (rawSize > MAX_RAW_BYTES) {
        throw new ToolError(
          `the raw file is ${(rawSize / 2 ** 20).toFixed(0)} MB, over ${MAX_RAW_BYTES / 2 ** 20} MB: shorten the run or raise tstep`,
          { raw_bytes: rawSize },
        );
      }
      let plots;
      try {
        plots = rawSize >= 0 ? parseRawFile(await fs.readFile(rawPath, 'utf8')) : [];
      } catch (err) {
        if (err instanceof RawFileError)
          throw new ToolError(`cannot read ngspice's raw file: ${err.message}`, { raw_file: ws.relative(rawPath) });
        throw err;
      }
      const plotName = PLOT_NAMES[a.analysis_type];
      const plot = plots.filter((p) => p.plotname === plotName).at(-1);
      const verdict = judgeRun(run, plot, plotName);
      const files = { netlist_file: ws.relative(path.join(dir, 'netlist.cir')), raw_file: ws.relative(rawPath) };
      tc.outputFiles.push(files.netlist_file, ...(rawSize >= 0 ? [files.raw_file] : []));
      if (!verdict.converged || !plot) {
        throw new ToolError(failureMessage(verdict), {
          converged: false,
          exit_code: run.exitCode,
          card: prepared.card,
          log: verdict.log,
          ...files,
        });
      }
      const { picked, unknown, available } = selectVectors(plot, a.probes);
      if (unknown.length) {
        throw new InvalidArgumentsError(
          `probes ${unknown.join(', ')} are not vectors of this circuit (available: ${available.join(', ')})`,
          { unknown, available },
        );
      }
      const bad = nonFiniteVectors(plot, picked);
      if (bad.length) {
        const log = [`non-finite values (NaN or infinite) in ${bad.join(', ')}`, ...verdict.log];
        throw new ToolError(`ngspice simulation failed: ${log[0]}`, {
          converged: false,
          exit_code: run.exitCode,
          card: prepared.card,
          log,
          ...files,
        });
      }
      const { vectors, waveform } = summarise(plot, picked, a.max_points);
      return {
        analysis_type: a.analysis_type,
        plot: plot.plotname,
        card: prepared.card,
        converged: true,
        points: plot.points,
        vectors,
        waveform,
        log: verdict.log,
        ...files,
        elapsed_ms,
      };
    },
  });
}
