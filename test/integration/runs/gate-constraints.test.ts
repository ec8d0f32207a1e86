import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { constraintFindings } from '../../../actors/gates/gate-constraints.ts';
import { createToolsService } from '../../../actors/tools/tools.service.ts';
import { createTwinService } from '../../../actors/twin/twin.service.ts';
import { createTwinAdapter } from '../../../actors/adapters/twin/twin.adapter.ts';
import { startActors } from '../../support/actors.ts';
import { callTool, okData, useNode } from '../../support/tools.ts';
import { SIM_FIXTURES } from '../../support/sim-fixtures.ts';

const STEP = Buffer.from('ISO-10303-21;\nEND-ISO-10303-21;\n').toString('base64');
const FIELD = fs.readFileSync(`${SIM_FIXTURES}/reference_payloads/beam_coarse.field.json.gz`).toString('base64');

const h = useNode((env) => startActors([createTwinService, createTwinAdapter, createToolsService], env));

describe('gate constraint checks', () => {
  it('passes a satisfied stress limit, reports a violated one as analysis, and never passes what cannot be compared', async () => {
    const run = { run_id: 'run-gc', phase: 'simulation' };
    const P = 'p-gc';
    const t = (name: string, args: Record<string, unknown>) =>
      okData(callTool(h.broker, name, { project_id: P, ...args }, run));
    await t('twin.record_constraint_set', {
      name: 'Requirements',
      constraints: [
        {
          id: 'C1',
          metric: 'max_von_mises_mpa',
          operator: '<=',
          limit: 125,
          unit: 'MPa',
          verification_method: 'analysis',
        },
        { id: 'C2', metric: 'length_mm', operator: '<=', limit: 200, unit: 'mm', verification_method: 'inspection' },
        { id: 'C3', metric: 'cost_usd', operator: '<=', limit: 50, unit: 'USD' },
      ],
    });
    const db = h.broker; // the checks read the twin through its query action twin.gateEvidence
    // No geometry or result yet: the analysis limit is not evaluated (blocking), the envelope has no geometry.
    let f = await constraintFindings(db, P, 'run-gc');
    expect(f.map((x) => [x.kind, x.severity])).toEqual([
      ['analysis', 'error'],
      ['geometry', 'error'],
      ['other', 'warning'],
    ]);
    const geom = await t('twin.commit_geometry', {
      name: 'Beam',
      step_base64: STEP,
      properties: { bounding_box: { min: [0, 0, 0], max: [200, 20, 10] } },
    });
    await t('twin.record_document', {
      document_type: 'simulation_result',
      name: 'ok',
      summary: { max_von_mises_mpa: 58.4 },
      field_base64: FIELD,
      analysed_geometry_node_id: geom.node_id,
    });
    f = await constraintFindings(db, P, 'run-gc');
    expect(f.map((x) => x.kind)).toEqual(['other']);
    await t('twin.record_document', {
      document_type: 'simulation_result',
      name: 'too much',
      summary: { max_von_mises_mpa: 584.1 },
      field_base64: FIELD,
      analysed_geometry_node_id: geom.node_id,
    });
    f = await constraintFindings(db, P, 'run-gc');
    expect(f[0]).toMatchObject({
      kind: 'analysis',
      severity: 'error',
      message: expect.stringContaining('gives 584.1 MPa'),
    });
    // Another run sees neither this run's drafts nor their results' geometry.
    expect(await constraintFindings(db, P, 'other-run')).toEqual([]);
  });
});
