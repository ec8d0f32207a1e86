import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimFieldPayloadSchema } from '../../../contracts/simulation.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { copyFixture, tempWorkspace } from '../../support/sim-fixtures.ts';
import { callTool, okData } from '../../support/tools.ts';

/** The solver's field object as the twin takes it: run_fea → twin.record_document(field_file) → GET the stored field. */
const ws = tempWorkspace('solver-field-');
let t: TestNode;
beforeAll(async () => {
  copyFixture(ws.root, 'beam_coarse.inp');
  t = await startTestNode({
    roles: 'gateway,tools,twin,adapter:twin,adapter:solver',
    env: { SERVICE_WORKSPACE: ws.root, SERVICE_REQUEST_TIMEOUT_MS: '120000' },
  });
});
afterAll(async () => {
  await t.stop();
  ws.remove();
});

describe('a solver field recorded on the twin', () => {
  it('is served with the solver bytes, the ETag of their SHA-256, and a von Mises max equal to the solver max', async () => {
    const fea = await okData(
      callTool(t.node.broker, 'solver.run_fea', {
        mesh_file: 'beam_coarse.inp',
        load_case: 'tip 1000 N',
        analysis_type: 'static_stress',
        load_force_n: [0, 0, -1000],
      }),
    );
    const rec = await okData(
      callTool(t.node.broker, 'twin.record_document', {
        document_type: 'simulation_result',
        name: 'beam tip load',
        summary: {
          max_von_mises_mpa: fea.max_von_mises_mpa,
          max_displacement_mm: fea.max_displacement_mm,
          load_case: fea.load_case,
          meshStats: fea.meshStats,
        },
        field_file: fea.field.file,
      }),
    );
    expect(rec).toMatchObject({
      field_stored: true,
      field_content_hash: fea.field.sha256,
      field_size_bytes: fea.field.size_bytes,
      field_analysis_type: 'static_stress',
    });
    // node:http, not fetch: fetch would undo the Content-Encoding and hide the stored bytes.
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${t.url}/v1/simulation/results/${rec.node_id}/field`, resolve).on('error', reject),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({
      'content-encoding': 'gzip',
      'content-type': expect.stringContaining('application/vnd.service.sim-field+json'),
    });
    expect(res.headers.etag).toContain(fea.field.sha256);
    const bytes = Buffer.concat(await res.toArray());
    expect(bytes.equals(Buffer.from(fea.field.base64, 'base64'))).toBe(true);
    const payload = SimFieldPayloadSchema.parse(JSON.parse(zlib.gunzipSync(bytes).toString('utf8')));
    expect(payload.fields.von_mises!.max).toBe(Number(fea.max_von_mises_mpa.toPrecision(4)));
    expect(payload.markers.map((m) => m.kind)).toEqual(['fixture', 'load']);
  }, 60_000);

  it('runs thermal through run_fea too (the fixed set as the sink, the load set as the source)', async () => {
    const th = await okData(
      callTool(t.node.broker, 'solver.run_fea', {
        mesh_file: 'beam_coarse.inp',
        load_case: 'heat',
        analysis_type: 'thermal',
        power_dissipation_w: 5,
      }),
    );
    expect(th).toMatchObject({ analysis_type: 'thermal', sink_temp_c: 20, field: { quantities: ['temperature'] } });
    expect(th.max_temperature_c).toBeCloseTo(120, 1);
  }, 60_000);
});
