import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../../../brokers/actions.ts';
import { GatesActions } from '../../../contracts/actions/runs.actions.ts';
import { useLocalModel } from '../../support/llm-servers/local-model.ts';
import { useTestNode } from '../../support/node.ts';

// gates.evaluate on a real node (gates, twin, harness) with a local server speaking the OpenAI wire protocol as the
// gate_check model. Routes are per project: one project routes gate_check to the local model, the other has none.
const t = useTestNode({
  roles: 'gateway,harness,tools,projects,twin,adapter:twin,gates,runs',
  env: { SERVICE_HARNESS_PRIVATE_BASE_URLS: '127.0.0.1' }, // the local model server
});
const model = useLocalModel(t);

/** A project of its own; `routed`: with a gate_check route to the local model. */
const project = (routed: boolean) => model.project('gate', routed ? 'gate_check' : undefined);

/** A gate of a run that recorded nothing: the deterministic check finds the decision missing. */
const evaluate = (projectId: string, principal?: { subject: string; client_id: string | null }) =>
  call(t.node.broker, GatesActions.evaluate, {
    ...(principal ? { principal } : {}),
    run_id: `run_${crypto.randomUUID()}`,
    project_id: projectId,
    phase: 'firmware',
    attempt: 1,
    started_at: new Date(0).toISOString(),
    required_deliverables: ['design_decision'],
    enforce_deliverables: true,
    enforce_constraints: false,
    objective: 'Control loop, tasks, pin map and drivers.',
    criteria: ['pin map recorded'],
    summary: 'firmware planned',
  });

const MISSING = {
  kind: 'missing_deliverable',
  severity: 'error',
  message: 'no design_decision was recorded in phase firmware',
};

describe('the gate_check model', () => {
  it('is not called without a gate_check route: the deterministic findings alone', async () => {
    const asked = model.server.requests.length;
    const g = await evaluate(await project(false));
    expect(g).toEqual({ findings: [MISSING], ready: false });
    expect(model.server.requests.length).toBe(asked);
  });

  it('adds its findings tagged model, capped at warning, after the deterministic ones, which stay as they are', async () => {
    const from = model.server.requests.length;
    const answer = {
      findings: [
        { kind: 'other', severity: 'error', message: 'The summary does not show the pin map criterion as met.' },
        { kind: 'ungrounded', severity: 'info', message: 'No driver list is named.' },
      ],
    };
    model.server.enqueue({ text: ['```json\n', JSON.stringify(answer), '\n```'] });
    const g = await evaluate(await project(true));
    expect(g.ready).toBe(false);
    expect(g.findings).toEqual([
      MISSING,
      { ...answer.findings[0], severity: 'warning', source: 'model' },
      { ...answer.findings[1], source: 'model' },
    ]);
    const sent = JSON.stringify(model.server.requests[from]!.body);
    expect(sent).toContain('pin map recorded');
    expect(sent).toContain('no design_decision was recorded in phase firmware');
  });

  it('ignores an answer that is not the findings JSON (never a failure of the gate)', async () => {
    const id = await project(true);
    model.server.enqueue({ text: ['Looks fine to me!'] });
    expect(await evaluate(id)).toEqual({ findings: [MISSING], ready: false });
    model.server.enqueue({ text: ['{"findings": [{"kind": "vibes", "message": 7}]}'] });
    expect(await evaluate(id)).toEqual({ findings: [MISSING], ready: false });
    model.server.enqueue({ fault: { status: 400, message: 'bad request' } });
    expect(await evaluate(id)).toEqual({ findings: [MISSING], ready: false });
  });

  it("names the run's starter on its ledger row (decision 0113): the usage filtered by that subject counts the call", async () => {
    const subject = `gate-person-${crypto.randomUUID()}`;
    const usage = async () => {
      const r = await fetch(`${t.url}/v1/runs/usage/summary?subject=${encodeURIComponent(subject)}`);
      expect(r.status).toBe(200);
      return ((await r.json()) as { usage: { calls: number; by_role: Record<string, unknown> } }).usage;
    };
    expect((await usage()).calls).toBe(0);
    model.server.enqueue({ text: ['{"findings": []}'] });
    expect(await evaluate(await project(true), { subject, client_id: 'agent-a' })).toEqual({
      findings: [MISSING],
      ready: false,
    });
    const u = await usage();
    expect(u.calls).toBe(1);
    expect(u.by_role).toHaveProperty('gate_check');
  });
});
