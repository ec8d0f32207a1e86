import crypto from 'node:crypto';
import type { Context } from 'moleculer';
import { z } from 'zod';
import { call } from '../../brokers/actions.ts';
import { ActorError } from '../../brokers/errors.ts';
import { HarnessCallsActions } from '../../contracts/actions/harness-calls.actions.ts';
import { TwinActions } from '../../contracts/actions/twin.actions.ts';
import { TwinViewActions } from '../../contracts/actions/twin-views.actions.ts';
import type { AssistantRequest, AssistantResponse } from '../../contracts/misc.ts';
import type { CallPrincipal } from '../../contracts/principal.ts';

/** The assistant's actions: `propose_changes` turns a request about a project into design-change proposals. */
export const ASSISTANT_ACTIONS = ['propose_changes'] as const;

/** What the model must answer: changes to items it was shown, each with its reason. */
const ProposalsSchema = z.object({
  proposals: z
    .array(
      z.object({
        target: z.string().min(1).max(200),
        title: z.string().min(1).max(300),
        rationale: z.string().min(1).max(4000),
        changes: z.record(z.string(), z.unknown()),
      }),
    )
    .max(20),
});

const INSTRUCTIONS =
  "You turn an engineer's request about a hardware design into design-change proposals. Answer only JSON: " +
  '{"proposals": [{"target": "<an item ref listed below, KEY@n>", "title": "...", "rationale": "why", ' +
  '"changes": {"<property>": <new value>}}]}. Propose changes to listed items only; a person approves each one.';

/** The items the model may propose changes to: the target node's item, else the project's current items. */
async function itemsFor(ctx: Context, p: AssistantRequest) {
  if (p.target_id) {
    const node = await call(ctx, TwinActions.getNode, { node_id: p.target_id }).catch(() => undefined);
    if (!node?.item_key || !node.revision) {
      throw new ActorError('VALIDATION_FAILED', `target_id ${p.target_id} is not a revision of a twin item`, {
        issues: [{ path: 'target_id', message: 'is not a revision of a twin item' }],
      });
    }
    return [{ ref: `${node.item_key}@${node.revision}`, name: node.name, properties: node.properties }];
  }
  const view = await call(ctx, TwinViewActions.currentView, { project_id: p.project_id });
  const entries = Object.values(view.by_type).flat().slice(0, 50);
  return Promise.all(
    entries.map(async (e) => {
      const node = await call(ctx, TwinActions.getNode, { node_id: e.node_id });
      return { ref: e.ref, name: e.name, properties: node.properties };
    }),
  );
}

/**
 * `POST /api/v1/assistant/request`: the model (role `chat`) reads the request and the items it may change and answers
 * proposals; each valid one is filed as a pending design change (the `change:` approval kind) for a person to decide
 * in the queue or through `/api/v1/assistant/proposals/{id}/decide`; an approved one is applied by the twin's own
 * code (apply-change.ts), never by the model. A proposal naming an item it was not shown is dropped with an error.
 */
export async function assistantRequest(
  ctx: Context,
  p: AssistantRequest & { principal?: CallPrincipal | null },
): Promise<AssistantResponse> {
  const request_id = crypto.randomUUID();
  if (!(ASSISTANT_ACTIONS as readonly string[]).includes(p.action)) {
    throw new ActorError('VALIDATION_FAILED', `action ${p.action} is not an assistant action; valid: propose_changes`, {
      issues: [{ path: 'action', message: 'is not an assistant action' }],
      valid: [...ASSISTANT_ACTIONS],
    });
  }
  const items = await itemsFor(ctx, p);
  if (!items.length) return { status: 'completed', request_id, result: { proposals: [] }, errors: [] };
  const r = await call(ctx, HarnessCallsActions.call, {
    role: 'chat',
    project_id: p.project_id,
    conversation_id: p.session_id ?? null,
    principal: p.principal ?? null,
    messages: [
      { role: 'system', content: INSTRUCTIONS },
      {
        role: 'user',
        content: `Request: ${p.prompt || JSON.stringify(p.parameters ?? {})}\n\nItems:\n${JSON.stringify(items, null, 1)}`,
      },
    ],
  } as never);
  if (r.outcome === 'failed') {
    if (r.failure.class === 'environment') {
      throw new ActorError('SERVICE_UNAVAILABLE', r.failure.message, { failure_class: 'environment' });
    }
    return { status: 'failed', request_id, result: null, errors: [`${r.failure.class}: ${r.failure.message}`] };
  }
  const text = r.completion.text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '');
  let parsed: z.infer<typeof ProposalsSchema>;
  try {
    parsed = ProposalsSchema.parse(JSON.parse(text));
  } catch (err) {
    return {
      status: 'failed',
      request_id,
      result: null,
      errors: [`the model did not answer the asked JSON: ${(err as Error).message.slice(0, 300)}`],
    };
  }
  const shown = new Set(items.map((i) => i.ref));
  const errors: string[] = [];
  const proposals = [];
  for (const prop of parsed.proposals) {
    if (!shown.has(prop.target)) {
      errors.push(`proposal "${prop.title}" names ${prop.target}, which is not an item it was shown: dropped`);
      continue;
    }
    const filed = await call(ctx, TwinActions.recordNode, {
      project_id: p.project_id,
      node_type: 'design_change',
      name: prop.title,
      properties: {
        status: 'pending',
        target: prop.target,
        rationale: prop.rationale,
        changes: prop.changes,
        requested_by: 'assistant',
        request_id,
      },
      depends_on: [prop.target],
    });
    proposals.push({
      change_id: filed.node.id,
      approval_id: `change:${filed.node.id}`,
      target: prop.target,
      title: prop.title,
      changes: prop.changes,
    });
  }
  return { status: 'completed', request_id, result: { proposals, record_id: r.record_id }, errors };
}
