import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { call } from '../../brokers/actions.ts';
import { TwinComplianceActions as C } from '../../contracts/actions/twin-compliance.actions.ts';
import {
  ComplianceChecklistSchema,
  ComplianceCoverageSchema,
  ComplianceEvidenceListSchema,
  ComplianceProjectParamsSchema,
} from '../../contracts/compliance.ts';
import type { GatewayDeps } from '../deps.ts';

/**
 * `/v1/compliance/{project_id}/checklist`, `/coverage` and `/evidence` (SPEC route table, "Checklist response",
 * "Coverage response"): read by the twin actor, validated and serialised with the same contracts. An unknown project
 * is 404 like `/v1/projects/{id}` (any string names a project, so a malformed one is simply unknown); a parameter with
 * a NUL or control character, or over 200 characters, is 422.
 */
export function complianceRoutes(deps: GatewayDeps) {
  return async function routes(app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const params = ComplianceProjectParamsSchema;

    r.get('/:project_id/checklist', { schema: { params, response: { 200: ComplianceChecklistSchema } } }, (req) =>
      call(deps.caller, C.checklist, { project_id: req.params.project_id }),
    );

    r.get('/:project_id/coverage', { schema: { params, response: { 200: ComplianceCoverageSchema } } }, (req) =>
      call(deps.caller, C.coverage, { project_id: req.params.project_id }),
    );

    r.get('/:project_id/evidence', { schema: { params, response: { 200: ComplianceEvidenceListSchema } } }, (req) =>
      call(deps.caller, C.evidence, { project_id: req.params.project_id }),
    );
  };
}
