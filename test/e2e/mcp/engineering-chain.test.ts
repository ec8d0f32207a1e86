import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SimFieldPayloadSchema } from '../../../contracts/simulation.ts';
import { startTestNode, type TestNode } from '../../support/node.ts';
import { createTestDatabase, type TestDatabase } from '../../support/pg.ts';
import { SERVICE_BIN } from '../../support/spawn.ts';

/**
 * The engineering chain over MCP stdio (writes are not held on stdio): cadscript.create_parametric (the beam) ->
 * cadkernel.generate_mesh -> solver.run_fea -> twin.record_document (simulation_result with the field) -> the field
 * over HTTP, served by a gateway on the same database, decodes to a payload whose von Mises max matches the solver's.
 */
describe.runIf(inject('servers').pg)('the engineering chain over MCP stdio with the real engines', () => {
  let db: TestDatabase;
  let workspace: string;
  let http: TestNode;
  let client: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'chain-ws-'));
    const env = { SERVICE_DATABASE_URL: db.url, SERVICE_WORKSPACE: workspace };
    http = await startTestNode({ roles: 'gateway,twin,tools,projects', env });
    client = new Client({ name: 'chain', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [SERVICE_BIN, '--transport', 'stdio'],
        env: { ...(process.env as Record<string, string>), ...env, SERVICE_LOG_LEVEL: 'warn' },
        stderr: 'pipe',
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await http?.stop();
    await db?.drop();
    await fs.rm(workspace, { recursive: true, force: true });
  });

  const data = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
    return r.structuredContent as Record<string, any>;
  };

  it('solves the beam and serves its field', async () => {
    const beam = await data('cadscript.create_parametric', {
      shape_type: 'box',
      parameters: { length: 200, width: 20, height: 10 },
    });
    expect(beam.volume_mm3).toBeCloseTo(40_000, 0);
    const mesh = await data('cadkernel.generate_mesh', { file_path: beam.cad_file });
    const faces = Object.entries(
      mesh.surface_sets as Record<string, { centroid_mm: number[]; normal: number[] }>,
    ).filter(([, f]) => Math.abs(f.normal[0]) > 0.9);
    const fixed = faces.reduce((a, b) => (a[1].centroid_mm[0] < b[1].centroid_mm[0] ? a : b))[0];
    const loaded = faces.reduce((a, b) => (a[1].centroid_mm[0] > b[1].centroid_mm[0] ? a : b))[0];
    const fea = await data('solver.run_fea', {
      mesh_file: mesh.mesh_file,
      load_case: '1000 N at the tip',
      analysis_type: 'static_stress',
      material: 'steel',
      fixed_node_set: fixed,
      load_node_set: loaded,
      load_force_n: [0, 0, -1000],
    });
    expect(fea.field.error).toBeUndefined();
    const recorded = await data('twin.record_document', {
      document_type: 'simulation_result',
      name: 'beam 1000 N',
      summary: { max_von_mises_mpa: fea.max_von_mises_mpa },
      field_file: fea.field.file,
    });
    expect(recorded.field_stored).toBe(true);
    const res = await fetch(`${http.url}/v1/simulation/results/${recorded.node_id}/field`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // fetch decodes gzip itself; the payload is the solver's field.
    const payload = SimFieldPayloadSchema.parse(await res.json());
    expect(payload.fields.von_mises?.max).toBeCloseTo(fea.max_von_mises_mpa, 1);
    expect(res.headers.get('etag')).toContain(recorded.field_content_hash);
  }, 600_000);
});
