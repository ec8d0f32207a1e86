import crypto from 'node:crypto';
import client from 'prom-client';
import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { getOrCreate } from '../../../brokers/metrics.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { DesignLoopSpecSchema } from '../../../contracts/design-loops.ts';
import { SIM_FIELD_FORMAT } from '../../../contracts/simulation.ts';
import { DEFINITION_TYPES, objectKeyOf } from '../../../contracts/twin-keys.ts';
import { defineTool, InvalidArgumentsError, ToolError, type ToolContext } from '../kit/tool.ts';
import { given, projectOf, twinCall, writerOf, type TwinToolDeps } from './common.ts';
import { recordPrd } from './prd.ts';
import { checkSimField, fieldRanges, fixturesOf, loadsOf, type CheckedField } from './sim-field.ts';
import { writeResult } from './record.tools.ts';
import { suspectReasons } from './sim-suspect.ts';

const SIM_ONLY = [
  'field_file',
  'field_base64',
  'analysed_geometry_node_id',
  'analysed_geometry_revision',
  'load_case_spec',
  'fixtures',
  'loads',
  'mesh_convergence',
] as const;

const Input = z.object({
  document_type: z
    .string()
    .min(1)
    .regex(/^[a-z][a-z0-9_]*$/),
  project_id: z.string().nullable().optional(),
  name: z.string().min(1).max(300).optional(),
  content: z.string().default('').describe('prose (markdown) of the document; for prd the requirements prose'),
  summary: z
    .record(z.string(), z.unknown())
    .default({})
    .describe('simulation_result: the numbers (max_von_mises_mpa, max_displacement_mm, load_case, meshStats, ...)'),
  field_file: z
    .string()
    .optional()
    .describe('simulation_result: workspace path of the gzipped service.sim_field payload (preferred)'),
  field_base64: z.string().optional().describe('simulation_result: the same bytes inline'),
  analysed_geometry_node_id: z.string().optional(),
  analysed_geometry_revision: z.number().int().min(1).optional(),
  load_case_spec: z.record(z.string(), z.unknown()).optional(),
  fixtures: z.array(z.record(z.string(), z.unknown())).optional(),
  loads: z.array(z.record(z.string(), z.unknown())).optional(),
  mesh_convergence: z.record(z.string(), z.unknown()).optional(),
  properties: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'definition documents (bom, schematic, pcb_layout, manufacturing_file, pinmap, test_plan, ...): structured data kept ' +
        "with the revision, e.g. a bom's lines as eda.export_bom returns them ({lines: [...]}), which GET /v1/bom lists",
    ),
});
type Args = z.output<typeof Input>;

/** Append-only documents that keep structured properties beside their content (a verdict table, measured values). */
const RESULT_TYPES = new Set(['test_result']);
/**
 * A design loop (README "Design loops"): its spec as properties, checked before anything is written; it waits for a
 * person, whose approval runs each next iteration.
 */
async function recordLoop(a: Args, project_id: string | null, name: string, tc: ToolContext) {
  const spec = DesignLoopSpecSchema.safeParse(a.properties ?? {});
  if (!spec.success)
    throw new InvalidArgumentsError(
      `a design_loop needs properties {tool, arguments, parameter, candidates, metric, goal}: ${spec.error.issues
        .map((i) => `${i.path.join('.') || 'properties'} ${i.message}`)
        .join('; ')}`,
    );
  const r = await twinCall(
    call(tc.ctx, T.recordNode, {
      project_id,
      node_type: 'design_loop',
      name,
      properties: {
        ...spec.data,
        content: a.content,
        status: 'pending',
        next_index: 0,
        iterations: [],
        scores: [],
        winning_iteration: null,
      },
      writer: writerOf(tc),
    }),
  );
  return {
    node_id: r.node.id,
    document_type: 'design_loop',
    approval_id: `design_loop:${r.node.id}`,
    next_step: `a person approves design_loop:${r.node.id} (or twin.approve_design_loop files the request); each approval runs the next candidate`,
  };
}

/** `twin.record_document`: prd (next revision of the project's prd), simulation_result (with its field), or a document. */
export function documentTools(deps: TwinToolDeps) {
  const store = getOrCreate(
    deps.infra.metrics.registry,
    'service_sim_field_store_total',
    () =>
      new client.Counter({
        name: 'service_sim_field_store_total',
        help: 'Result fields offered to the twin, by outcome',
        labelNames: ['outcome'] as const,
        registers: [deps.infra.metrics.registry],
      }),
  ) as client.Counter<'outcome'>;

  async function simulationResult(a: Args, tc: ToolContext) {
    let field: CheckedField | undefined;
    if (a.field_file !== undefined || given(a.field_base64)) {
      const bytes =
        a.field_file !== undefined
          ? await deps.workspace.read(a.field_file, 'field_file')
          : Buffer.from(a.field_base64!, 'base64');
      try {
        field = checkSimField(bytes);
      } catch (err) {
        store.inc({ outcome: 'invalid' });
        throw err;
      }
    }
    let analysed: Record<string, unknown> | undefined;
    if (given(a.analysed_geometry_node_id)) {
      const geom = await twinCall(
        call(tc.ctx, T.getNode, { node_id: a.analysed_geometry_node_id, run_id: tc.caller.run_id }),
      );
      if (!geom.item_key)
        throw new InvalidArgumentsError(
          `analysed_geometry_node_id ${a.analysed_geometry_node_id} is a ${geom.node_type} record, not a geometry revision`,
        );
      if (a.analysed_geometry_revision !== undefined && a.analysed_geometry_revision !== geom.revision) {
        throw new InvalidArgumentsError(
          `analysed_geometry_revision ${a.analysed_geometry_revision} is not the revision of node ${geom.id} (${geom.item_ref})`,
        );
      }
      analysed = {
        node_id: geom.id,
        revision: geom.revision,
        name: geom.name,
        content_hash: geom.content_hash,
        ref: geom.item_ref,
      };
    }
    const id = crypto.randomUUID();
    const name = a.name ?? `${field?.payload.analysis_type ?? 'simulation'} result`;
    const fieldName = `${name.replace(/[^A-Za-z0-9_.-]+/g, '_')}.field.json.gz`;
    const blobs = await deps.blobs();
    const summaryBlob = await blobs.put(
      Buffer.from(JSON.stringify({ ...a.summary, name }), 'utf8'),
      'application/json',
    );
    let fieldMeta: Record<string, unknown> = { field_stored: false };
    let extra: { sha256: string; name: string; media_type: string }[] = [];
    if (field) {
      try {
        const stored = await blobs.put(field.gz, 'application/gzip');
        extra = [{ sha256: stored.sha256, name: fieldName, media_type: 'application/gzip' }];
        fieldMeta = {
          field_stored: true,
          field_object_key: objectKeyOf(id, fieldName),
          field_content_hash: stored.sha256,
          field_size_bytes: stored.size_bytes,
        };
        store.inc({ outcome: 'stored' });
      } catch (err) {
        fieldMeta = {
          field_stored: false,
          field_store_error: `the field could not be stored: ${(err as Error).message}`,
        };
        store.inc({ outcome: 'failed' });
      }
      fieldMeta = {
        ...fieldMeta,
        field_format: SIM_FIELD_FORMAT,
        field_analysis_type: field.payload.analysis_type,
        field_quantities: Object.keys(field.payload.fields),
        field_ranges: fieldRanges(field.payload),
      };
    }
    const fixtures = a.fixtures ?? (field ? fixturesOf(field.payload) : []);
    const loads = a.loads ?? (field ? loadsOf(field.payload) : []);
    const suspect = suspectReasons({
      summary: a.summary,
      fixtures,
      loads,
      load_case_spec: a.load_case_spec,
    });
    const properties = {
      ...a.summary,
      ...fieldMeta,
      ...(analysed ? { analysed_geometry: analysed } : {}),
      ...(a.load_case_spec ? { load_case_spec: a.load_case_spec } : {}),
      fixtures,
      loads,
      ...(a.mesh_convergence ? { mesh_convergence: a.mesh_convergence } : {}),
      suspect,
    };
    const r = await twinCall(
      call(tc.ctx, T.recordNode, {
        id,
        project_id: projectOf(tc, a.project_id),
        node_type: 'simulation_result',
        name,
        properties,
        file: { sha256: summaryBlob.sha256, name: 'summary.json', media_type: 'application/json' },
        extra_files: extra,
        edges: analysed
          ? [{ rel_type: 'DERIVES_FROM', dst: String(analysed.node_id), properties: { revision: analysed.revision } }]
          : [],
        writer: writerOf(tc),
      }),
    );
    return {
      node_id: r.node.id,
      document_type: 'simulation_result',
      ...fieldMeta,
      ...(analysed ? { analysed_geometry: analysed } : {}),
      suspect,
    };
  }

  return [
    defineTool({
      name: 'record_document',
      description:
        "Record a document. prd: the next revision of the project's single requirements document (requirement values live in the constraint set). simulation_result: the solver numbers plus its field (field_file or field_base64, a service.sim_field payload) and the analysed geometry. Definition types (bom, schematic, pcb_layout, manufacturing_file, ...): the next revision of that item, with properties. Other types: an append-only document.",
      input: Input,
      handler: async (a, tc) => {
        const stray = SIM_ONLY.filter((k) => a[k] !== undefined);
        if (a.document_type !== 'simulation_result' && stray.length) {
          throw new InvalidArgumentsError(`${stray.join(', ')} are accepted only with document_type simulation_result`);
        }
        if (a.document_type === 'simulation_result') return simulationResult(a, tc);
        if (a.document_type === 'prd') return recordPrd(a.content, projectOf(tc, a.project_id), tc);
        const project_id = projectOf(tc, a.project_id);
        const name = a.name ?? a.document_type;
        if (a.document_type === 'design_loop') return recordLoop(a, project_id, name, tc);
        const structured = DEFINITION_TYPES.has(a.document_type) || RESULT_TYPES.has(a.document_type);
        if (a.properties && !structured)
          throw new InvalidArgumentsError(
            `properties are kept only with a definition document (${[...DEFINITION_TYPES].join(', ')}) or a ${[...RESULT_TYPES].join(', ')}`,
          );
        if (DEFINITION_TYPES.has(a.document_type)) {
          const w = await twinCall(
            call(tc.ctx, T.writeDefinition, {
              project_id,
              item_type: a.document_type,
              name,
              properties: { ...a.properties, content: a.content },
              writer: writerOf(tc),
            }),
          );
          return { ...writeResult(w), document_type: a.document_type };
        }
        if (!a.content.trim()) throw new ToolError(`a ${a.document_type} document needs content`);
        const r = await twinCall(
          call(tc.ctx, T.recordNode, {
            project_id,
            node_type: a.document_type,
            name,
            properties: { ...a.properties, content: a.content },
            writer: writerOf(tc),
          }),
        );
        return { node_id: r.node.id, document_type: a.document_type };
      },
    }),
  ];
}
