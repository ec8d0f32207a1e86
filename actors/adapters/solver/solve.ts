import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError, type ToolContext } from '../kit/tool.ts';
import { reactionTotals, runCcx } from './ccx.ts';
import { existingFile, type SolverDeps } from './deps.ts';
import { fieldObject } from './field-object.ts';
import { deckMaterial } from './materials.ts';
import type { SolveSpec } from './solve.types.ts';
import { solveSummary } from './summary.ts';

/** A displacement this many times the part's size means the part floats (no supports): ccx "succeeds" with 1e11 mm. */
const IMPLAUSIBLE_FACTOR = 100;

/**
 * Runs one analysis end to end: deck (worker) → ccx in a scratch folder under the workspace → summary and field
 * (worker). Checks the result is plausible; a field that cannot be built leaves `field.error` and the solve stands.
 */
export async function solve(deps: SolverDeps, spec: SolveSpec, tc: ToolContext): Promise<Record<string, unknown>> {
  const meshPath = await existingFile(deps.workspace, spec.meshFile, 'mesh_file');
  const dir = await deps.workspace.scratch(`solver.${spec.tool}`);
  const job = 'job';
  const rel = (f: string) => deps.workspace.relative(path.join(dir, f));
  tc.progress(0.05, 'building the CalculiX deck');
  const deck = await deps.pool.run(
    'prepareDeck',
    {
      meshPath,
      deckPath: path.join(dir, `${job}.inp`),
      analysis: spec.analysis,
      material: deckMaterial(spec.material),
      fixedSet: spec.fixedSet,
      loadSet: spec.loadSet,
      forceN: spec.forceN,
      numModes: spec.numModes,
      sinkTempC: spec.sinkTempC,
      powerW: spec.powerW,
      maxNodes: deps.maxNodes,
    },
    tc.signal,
  );
  tc.progress(0.15, `solving ${deck.nodes} nodes, ${deck.elements} elements with CalculiX`);
  const run = await runCcx({ dir, job, signal: tc.signal, progress: (f, m) => tc.progress(f, m) });
  tc.progress(0.75, 'reading the results and building the field');
  const fieldFile = path.join(dir, 'result.field.json.gz');
  const thermal = spec.analysis === 'thermal';
  const built = await deps.pool.run(
    'buildField',
    {
      frdPath: run.frd,
      analysisType: spec.analysis,
      outPath: fieldFile,
      capBytes: deps.fieldCapBytes,
      fixtures: [
        {
          label: thermal ? `${spec.fixedSet} (T = ${spec.sinkTempC} C)` : `${spec.fixedSet} (fixed)`,
          nodeIds: deck.fixedNodeIds,
        },
      ],
      loads:
        spec.analysis === 'modal' || !spec.loadSet
          ? []
          : [
              thermal
                ? {
                    label: `${spec.loadSet} (${spec.powerW} W heat input)`,
                    nodeIds: deck.loadNodeIds,
                    vector: [0, 0, 0],
                    unit: 'W',
                  }
                : {
                    label: `${spec.loadSet} (force)`,
                    nodeIds: deck.loadNodeIds,
                    vector: spec.forceN ?? [0, 0, 0],
                    unit: 'N',
                  },
            ],
      bodies: deck.bodies,
      probes: spec.loadSet ? [{ name: spec.loadSet, nodeIds: deck.loadNodeIds }] : [],
    },
    tc.signal,
  );
  const s = built.summary;
  if (s.nodes === 0)
    throw new ToolError('CalculiX wrote a result file with no nodes', {
      tail: run.stdout.split('\n').slice(-20).join('\n'),
    });
  const size = Math.max(...[0, 1, 2].map((k) => deck.bbox.max[k] - deck.bbox.min[k]));
  if (s.displacement && spec.analysis === 'static_stress' && s.displacement.max > IMPLAUSIBLE_FACTOR * size) {
    throw new ToolError(
      `implausible result: the largest displacement is ${s.displacement.max.toPrecision(3)} mm on a ${size.toPrecision(3)} mm part, so the part is not held (check fixed_node_set ${spec.fixedSet}); CalculiX said: ${run.warnings.slice(0, 3).join(' ') || 'no warnings'}`,
      { max_displacement_mm: s.displacement.max, part_size_mm: size, solver_warnings: run.warnings },
    );
  }
  const dat = await fs.readFile(run.dat, 'utf8').catch(() => '');
  const outputs = [rel(`${job}.inp`), rel(`${job}.frd`), rel(`${job}.dat`)];
  const field = fieldObject(built.field, rel('result.field.json.gz'), spec.analysis, deps.metrics);
  if (built.field.ok) outputs.push(rel('result.field.json.gz'));
  tc.outputFiles.push(...outputs);
  tc.progress(1, 'done');
  return solveSummary({ spec, deck, summary: s, run, reaction: reactionTotals(dat), outputs, field });
}
