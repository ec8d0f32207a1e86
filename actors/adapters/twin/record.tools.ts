import { callerAuthor } from '../../../contracts/principal.ts';
import { z } from 'zod';
import { call } from '../../../brokers/actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { defineTool, ToolError } from '../kit/tool.ts';
import { given, projectOf, twinCall, writerOf } from './common.ts';

/** Optional item addressing of every definition write (SPEC Twin rule 3). */
export const DefinitionRefArgs = {
  item_key: z
    .string()
    .nullable()
    .optional()
    .describe('KEY or KEY@n of the item to revise; a stale @n fails; an unknown bare key names a new item'),
  supersedes: z.string().nullable().optional().describe('node id of the revision this write supersedes'),
  change_reason: z
    .string()
    .max(4000)
    .nullable()
    .optional()
    .describe('why this revision exists (stored on the revision edge)'),
};

const Constraint = z.object({
  id: z.string().optional(),
  metric: z.string().min(1),
  operator: z.enum(['<=', '<', '>=', '>', '==', '!=']).default('<='),
  limit: z.number(),
  unit: z.string().default(''),
  severity: z.enum(['error', 'warning', 'info']).default('error'),
  verification_method: z.string().default(''),
  target_node_type: z.string().optional(),
  message: z.string().default(''),
});

/** Shapes a definition-write answer: the spec's item write result plus the node id. */
export const writeResult = (w: {
  node: { id: string };
  item_key: string;
  revision: number;
  item_ref: string;
  revision_status?: 'draft';
  draft_note?: string;
}) => ({
  node_id: w.node.id,
  item_key: w.item_key,
  revision: w.revision,
  item_ref: w.item_ref,
  ...(w.revision_status ? { revision_status: w.revision_status, draft_note: w.draft_note } : {}),
});

/** Decisions, constraint sets, engineering entities, component selections, and design-change proposals. */
export const recordTools = [
  defineTool({
    name: 'record_decision',
    description:
      'Record a design decision (append-only) with its rationale and alternatives; depends_on pins the exact revisions it rests on (KEY@n or KEY).',
    input: z.object({
      project_id: z.string().nullable().optional(),
      title: z.string().min(1).max(300),
      decision: z.string().min(1),
      rationale: z.string().default(''),
      alternatives: z.array(z.string()).default([]),
      depends_on: z.array(z.string()).default([]),
    }),
    handler: async (a, tc) => {
      const r = await twinCall(
        call(tc.ctx, T.recordNode, {
          project_id: projectOf(tc, a.project_id),
          node_type: 'design_decision',
          name: a.title,
          properties: { decision: a.decision, rationale: a.rationale, alternatives: a.alternatives },
          depends_on: a.depends_on,
          writer: writerOf(tc),
        }),
      );
      return { node_id: r.node.id, depends_on: r.pinned.map((p) => p.ref), pinned: r.pinned };
    },
  }),
  defineTool({
    name: 'record_constraint_set',
    description:
      'Record the next revision of a constraint set: quantified limits (metric, operator, limit, unit) with severity and verification method; parent_refs (KEY or KEY@n) link derived requirements to the requirements they serve.',
    input: z.object({
      project_id: z.string().nullable().optional(),
      name: z.string().min(1).max(300),
      constraints: z.array(Constraint).min(1),
      parent_refs: z.array(z.string().min(1)).optional(),
      ...DefinitionRefArgs,
    }),
    handler: async (a, tc) => {
      const constraints = a.constraints.map((c, i) => ({ ...c, id: c.id ?? `C${i + 1}` }));
      const parents = a.parent_refs ?? [];
      const w = await twinCall(
        call(tc.ctx, T.writeDefinition, {
          project_id: projectOf(tc, a.project_id),
          item_type: 'constraint_set',
          name: a.name,
          properties: { constraints, ...(parents.length ? { parent_refs: parents } : {}) },
          depends_on: parents,
          item_key: a.item_key,
          supersedes: a.supersedes,
          change_reason: a.change_reason,
          writer: writerOf(tc),
        }),
      );
      return { ...writeResult(w), constraint_count: constraints.length };
    },
  }),
  defineTool({
    name: 'record_engineering_entity',
    description:
      'Record the next revision of an engineering entity: intent, stakeholder_need or objective; parent_refs link it to what motivates it.',
    input: z.object({
      project_id: z.string().nullable().optional(),
      entity_type: z.enum(['intent', 'stakeholder_need', 'objective']),
      name: z.string().min(1).max(300),
      statement: z.string().default(''),
      properties: z.record(z.string(), z.unknown()).default({}),
      parent_refs: z.array(z.string()).default([]),
      ...DefinitionRefArgs,
    }),
    handler: async (a, tc) => {
      const w = await twinCall(
        call(tc.ctx, T.writeDefinition, {
          project_id: projectOf(tc, a.project_id),
          item_type: a.entity_type,
          name: a.name,
          properties: { statement: a.statement, ...a.properties, parent_refs: a.parent_refs },
          depends_on: a.parent_refs,
          item_key: a.item_key,
          supersedes: a.supersedes,
          change_reason: a.change_reason,
          writer: writerOf(tc),
        }),
      );
      return writeResult(w);
    },
  }),
  defineTool({
    name: 'record_component_selection',
    description:
      'Record the next revision of a component selection (part number, manufacturer, quantity, key specs, why).',
    input: z.object({
      project_id: z.string().nullable().optional(),
      name: z.string().min(1).max(300),
      mpn: z.string().min(1),
      manufacturer: z.string().min(1),
      quantity: z.number().int().min(1).default(1),
      specs: z.record(z.string(), z.unknown()).default({}),
      rationale: z.string().default(''),
      ...DefinitionRefArgs,
    }),
    handler: async (a, tc) => {
      const { project_id, name, item_key, supersedes, change_reason, ...props } = a;
      const w = await twinCall(
        call(tc.ctx, T.writeDefinition, {
          project_id: projectOf(tc, project_id),
          item_type: 'component_selection',
          name,
          properties: props,
          item_key,
          supersedes,
          change_reason,
          writer: writerOf(tc),
        }),
      );
      return writeResult(w);
    },
  }),
  defineTool({
    name: 'propose_change',
    description:
      'Propose a design change to an item (a pending proposal for a person in the approvals queue); nothing changes until it is approved.',
    input: z.object({
      project_id: z.string().nullable().optional(),
      target: z.string().min(1).describe('KEY or KEY@n of the item to change'),
      title: z.string().min(1).max(300),
      rationale: z.string().min(1),
      changes: z.record(z.string(), z.unknown()).default({}),
    }),
    handler: async (a, tc) => {
      if (!given(a.target)) throw new ToolError('target is empty');
      const r = await twinCall(
        call(tc.ctx, T.recordNode, {
          project_id: projectOf(tc, a.project_id),
          node_type: 'design_change',
          name: a.title,
          properties: {
            status: 'pending',
            target: a.target,
            rationale: a.rationale,
            changes: a.changes,
            requested_by: callerAuthor(tc.caller),
          },
          depends_on: [a.target],
          writer: writerOf(tc),
        }),
      );
      return {
        change_id: r.node.id,
        approval_id: `change:${r.node.id}`,
        status: 'pending',
        target: r.pinned[0]?.ref ?? a.target,
      };
    },
  }),
];
