import { z } from 'zod';
import { defineAction } from '../define.ts';
import { LoadCaseCreateSchema, LoadCaseListSchema, LoadCaseSchema, SimResultListSchema } from '../simulation-views.ts';
import { ConstraintCreateBodySchema, ConstraintCreateResultSchema, ImportResultSchema } from '../twin-forms.ts';
import { BomListSchema } from '../twin.ts';
import {
  CurrentViewSchema,
  DerivedPrdSchema,
  ItemDiffSchema,
  LinkListSchema,
  NodeListSchema,
  NodeVersionsSchema,
  NodeViewSchema,
  PageQuerySchema,
  PrdMarkdownSchema,
  ProjectFilterSchema,
  RelationshipListSchema,
  RevisionIndexSchema,
} from '../twin-views.ts';
import { WriterSchema } from '../twin-nodes.ts';
import { NodeFileSchema } from './twin.actions.ts';

const NodeId = z.object({ node_id: z.string().min(1).max(200) });
const Paged = ProjectFilterSchema.extend(PageQuerySchema.shape);

/** Params of `twin.importFile`: the file is already in the blob store (the gateway put it); the twin records the node. */
export const ImportFileParamsSchema = z.object({
  project_id: z.string().nullable(),
  wp_type: z.string().optional(),
  name: z.string().min(1).max(300),
  description: z.string().default(''),
  domain: z.string().optional(),
  size_bytes: z.number().int().min(0),
  file: NodeFileSchema,
  writer: WriterSchema.default({}),
});

/** Read views and HTTP-driven writes of the `twin` actor, served over `/v1/twin`, `/v1/simulation` and `/v1/bom`. */
export const TwinViewActions = {
  currentView: defineAction('twin.currentView', ProjectFilterSchema, CurrentViewSchema),
  itemDiff: defineAction(
    'twin.itemDiff',
    z.object({
      key: z.string().min(1),
      from: z.number().int().min(1).optional(),
      to: z.number().int().min(1).optional(),
    }),
    ItemDiffSchema,
  ),
  derivedPrd: defineAction('twin.derivedPrd', z.object({ ref: z.string().min(1) }), DerivedPrdSchema),
  projectPrd: defineAction('twin.projectPrd', z.object({ project_id: z.string().min(1) }), PrdMarkdownSchema),
  nodes: defineAction('twin.nodes', Paged.extend({ node_type: z.string().min(1).optional() }), NodeListSchema),
  nodeView: defineAction('twin.nodeView', NodeId, NodeViewSchema),
  relationships: defineAction(
    'twin.relationships',
    NodeId.extend({ rel_type: z.string().min(1).optional() }),
    RelationshipListSchema,
  ),
  links: defineAction(
    'twin.links',
    ProjectFilterSchema.extend({
      limit: z.number().int().min(1).max(5000).default(1000),
      offset: z.number().int().min(0).default(0),
    }),
    LinkListSchema,
  ),
  revisionIndex: defineAction('twin.revisionIndex', Paged, RevisionIndexSchema),
  nodeVersions: defineAction('twin.nodeVersions', NodeId, NodeVersionsSchema),
  simResults: defineAction('twin.simResults', Paged, SimResultListSchema),
  loadCases: defineAction('twin.loadCases', Paged, LoadCaseListSchema),
  createLoadCase: defineAction('twin.createLoadCase', LoadCaseCreateSchema, LoadCaseSchema),
  bom: defineAction('twin.bom', ProjectFilterSchema, BomListSchema),
  addConstraint: defineAction(
    'twin.addConstraint',
    ConstraintCreateBodySchema.extend({ author: z.string().min(1) }),
    ConstraintCreateResultSchema,
  ),
  importFile: defineAction('twin.importFile', ImportFileParamsSchema, ImportResultSchema),
} as const;
