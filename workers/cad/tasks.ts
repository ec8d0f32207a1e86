import fs from 'node:fs/promises';
import path from 'node:path';
import * as replicad from 'replicad';
import type { AnyShape } from 'replicad';
import { KernelArgumentError } from './errors.ts';
import { readShape } from './formats.ts';
import { propertiesOf } from './measure.ts';
import { capResult, checkedResult, isShape, runScript, toPlain } from './sandbox.ts';
import { sessionTasks } from './session/tasks.ts';
import {
  booleanFiles,
  createAssemblyFile,
  createParametric,
  exportFile,
  fileProperties,
  generateEnclosure,
  saveShape,
} from './stateless.ts';
import { matchLabels, stepLabels } from './step-info.ts';

/** Solids of a shape (a compound's members, or the shape itself). */
export function solidsOf(shape: AnyShape): AnyShape[] {
  const solids = shape.solids;
  return solids.length ? solids : [shape];
}

/** `describe_step_file`: parts (name, colour, properties) and the whole file's properties, in mm. */
export async function describeStep(input: { input: string }) {
  const bytes = await fs.readFile(input.input).catch((err: NodeJS.ErrnoException) => {
    throw new KernelArgumentError(`file_path ${path.basename(input.input)} cannot be read: ${err.code ?? err.message}`);
  });
  const shape = await readShape(bytes, 'step', path.basename(input.input));
  const solids = solidsOf(shape);
  const labels = matchLabels(solids, await stepLabels(bytes));
  const parts = solids.map((s, i) => ({
    index: i,
    name: labels[i]?.name ?? `part_${i + 1}`,
    color: labels[i]?.color ?? null,
    ...propertiesOf(s),
  }));
  const whole = propertiesOf(shape);
  const header = Buffer.from(bytes.subarray(0, 4000)).toString('latin1');
  const schema = /FILE_SCHEMA\s*\(\s*\(\s*'([^']+)'/.exec(header)?.[1] ?? null;
  for (const s of solids) if (s !== shape) s.delete();
  shape.delete();
  return { size_bytes: bytes.length, schema, units: 'mm', part_count: parts.length, parts, ...whole };
}

/** Stateless `execute_script`: runs the script; a shape result is written to `output` and measured. */
export async function runStatelessScript(input: {
  code: string;
  params?: unknown;
  timeout_ms: number;
  output: string;
}) {
  const run = await runScript(input.code, { timeoutMs: input.timeout_ms, params: input.params });
  checkedResult(run.value);
  let file: Awaited<ReturnType<typeof saveShape>> | undefined;
  if (isShape(run.value) && replicad.isShape3D(run.value))
    file = await saveShape(run.value, input.output, undefined, { name: 'script_result' });
  return { ...capResult(toPlain(run.value)), logs: run.logs, script_ms: run.duration_ms, ...(file ? { file } : {}) };
}

/** Every task a kernel thread runs, by name; inputs and outputs are structured-cloneable (paths are absolute). */
export const kernelTasks = {
  createParametric,
  booleanFiles,
  fileProperties,
  exportFile,
  createAssemblyFile,
  generateEnclosure,
  describeStep,
  runStatelessScript,
  ...sessionTasks,
  /** Liveness probe of a thread; also reports that the kernel is usable. */
  async ping() {
    return { ok: true };
  },
};

/** The task table's type: the host derives typed `run(task, input)` calls from it. */
export type KernelTasks = typeof kernelTasks;
