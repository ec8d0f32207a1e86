// The twin's query actions for the gates and runs actors (contracts/actions/twin.actions.ts): what a gate checks and
// what a run's lifecycle reads, answered by the twin so that neither actor reads the twin's tables.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTwinAdapter } from '../../../actors/adapters/twin/twin.adapter.ts';
import { createToolsService } from '../../../actors/tools/tools.service.ts';
import { createTwinService } from '../../../actors/twin/twin.service.ts';
import { call } from '../../../brokers/actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import { startActors } from '../../support/actors.ts';
import { callTool, okData, useNode } from '../../support/tools.ts';
import { SIM_FIXTURES } from '../../support/sim-fixtures.ts';

const STEP = Buffer.from('ISO-10303-21;\nEND-ISO-10303-21;\n').toString('base64');
const FIELD = fs.readFileSync(`${SIM_FIXTURES}/reference_payloads/beam_coarse.field.json.gz`).toString('base64');
const P = 'p-runq';
const RUN = 'run-q';

const h = useNode((env) => startActors([createTwinService, createTwinAdapter, createToolsService], env));

describe('the twin query actions for gates and runs', () => {
  it('answers deliverables, gate evidence, run records and current evidence as each reader sees them', async () => {
    const t = (name: string, args: Record<string, unknown>) =>
      okData(callTool(h.broker, name, { project_id: P, ...args }, { run_id: RUN, phase: 'design' }));
    const before = new Date().toISOString();
    const cs = await t('twin.record_constraint_set', {
      name: 'Limits',
      constraints: [{ id: 'C1', metric: 'max_von_mises_mpa', operator: '<=', limit: 125, unit: 'MPa' }],
    });
    const geom = await t('twin.commit_geometry', {
      name: 'Beam',
      step_base64: STEP,
      properties: { bounding_box: { min: [0, 0, 0], max: [200, 20, 10] } },
    });
    const sim = await t('twin.record_document', {
      document_type: 'simulation_result',
      name: 'static',
      summary: { max_von_mises_mpa: 58.4 },
      field_base64: FIELD,
      analysed_geometry_node_id: geom.node_id,
    });
    const types = ['constraint_set', 'cad_model', 'simulation_result', 'bom'];

    // The run sees its own drafts; another run sees only the record (drafts are private); nothing is newer than the future.
    const mine = await call(h.broker, T.deliverablesSince, {
      project_id: P,
      run_id: RUN,
      node_types: types,
      since: before,
    });
    expect(mine.present.sort()).toEqual(['cad_model', 'constraint_set', 'simulation_result']);
    expect(
      (await call(h.broker, T.deliverablesSince, { project_id: P, run_id: 'other', node_types: types, since: null }))
        .present,
    ).toEqual(['simulation_result']);
    expect(
      (
        await call(h.broker, T.deliverablesSince, {
          project_id: P,
          run_id: RUN,
          node_types: types,
          since: '2999-01-01T00:00:00Z',
        })
      ).present,
    ).toEqual([]);

    const evidence = await call(h.broker, T.gateEvidence, { project_id: P, run_id: RUN });
    expect(evidence.constraints).toEqual([{ set: cs.item_ref, c: expect.objectContaining({ id: 'C1', limit: 125 }) }]);
    expect(evidence.geometry).toMatchObject({ node_id: geom.node_id, ref: geom.item_ref });
    expect(evidence.result).toMatchObject({
      node_id: sim.node_id,
      ref: null,
      properties: expect.objectContaining({ max_von_mises_mpa: 58.4 }),
    });
    expect(evidence.verification).toBeNull();
    // The waivers its set revision states (none): every view passes them to the evaluator (decision 0080).
    expect(evidence.waivers).toEqual({ [cs.item_ref]: {} });
    expect(await call(h.broker, T.gateEvidence, { project_id: P, run_id: 'other' })).toEqual({
      constraints: [],
      result: null,
      geometry: null,
      verification: null,
      waivers: {},
    });

    let records = await call(h.broker, T.runRecords, { run_id: RUN });
    expect(records.records.map((r) => [r.node_type, r.revision_status, r.phase])).toEqual([
      ['constraint_set', 'draft', 'design'],
      ['cad_model', 'draft', 'design'],
      ['simulation_result', null, 'design'],
    ]);
    expect(records.baselines).toEqual([]);
    // Drafts are not the project's current evidence until a gate commits them.
    expect(await call(h.broker, T.currentEvidence, { project_id: P })).toEqual({
      result: null,
      geometry: null,
      verification: null,
    });

    const commit = await call(h.broker, T.commitChangeSet, {
      run_id: RUN,
      project_id: P,
      gate_id: 'G-design',
      gate_name: 'Design review',
      approver: 'local:test',
    });
    expect(commit.status).toBe('committed');
    records = await call(h.broker, T.runRecords, { run_id: RUN });
    expect(records.baselines).toEqual([
      { id: commit.status === 'committed' ? commit.baseline_id : '', gate_id: 'G-design' },
    ]);
    expect(records.records[1]).toMatchObject({
      node_type: 'cad_model',
      revision_status: 'approved',
      head_revision: 1,
      created_at: expect.stringMatching(/Z$/),
    });
    const current = await call(h.broker, T.currentEvidence, { project_id: P });
    expect(current.geometry).toMatchObject({ node_id: geom.node_id, ref: geom.item_ref });
    expect(current.result).toMatchObject({ node_id: sim.node_id });
    // A verification record stating values after the geometry is the run's verification evidence; one without values,
    // or one older than the current geometry revision, is not.
    await t('twin.record_document', { document_type: 'test_result', name: 'notes', content: 'no values' });
    const vv = await t('twin.record_document', {
      document_type: 'test_result',
      name: 'V&V',
      content: 'verdicts',
      properties: { values: { usb_current_ma: 11.57 } },
    });
    expect((await call(h.broker, T.gateEvidence, { project_id: P, run_id: RUN })).verification).toMatchObject({
      node_id: vv.node_id,
      properties: { values: { usb_current_ma: 11.57 } },
    });
    // The project-wide reader sees it as well (an unversioned record).
    expect((await call(h.broker, T.currentEvidence, { project_id: P })).verification).toMatchObject({
      node_id: vv.node_id,
    });
  });
});
