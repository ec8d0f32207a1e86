import fs from 'node:fs';
import zlib from 'node:zlib';
import type { ServiceBroker } from 'moleculer';
import { postJson } from './http-raw.ts';
import { SIM_FIXTURES } from './sim-fixtures.ts';
import { callTool, okData } from './tools.ts';

// A cantilever project's evidence as an agent records it: the committed geometry, the stress requirement, and the real
// CalculiX field of the shared fixture (1000 N at the tip of a 200 x 20 x 10 mm steel beam) recorded against it.

export const FIELD = fs.readFileSync(`${SIM_FIXTURES}/reference_payloads/beam_coarse.field.json.gz`);
/** The whole-body max von Mises the solver's field states (584 MPa: the clamped edge is singular). */
export const MAX_VON_MISES: number = JSON.parse(zlib.gunzipSync(FIELD).toString('utf8')).fields.von_mises.max;
export const STEP = Buffer.from('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n').toString(
  'base64',
);
export const BEAM_BOX = { min: [0, 0, 0], max: [200, 20, 10] };
/** S690QL: 690 MPa yield. With a safety factor of 1 the beam passes; with 2 (345 MPa) it fails. */
export const YIELD_S690 = 690;

/** Twin tool calls and project creation of one test node. */
export function twinTools(t: { node: { broker: ServiceBroker }; url: string }) {
  const tool = (project: string, name: string, args: Record<string, unknown>) =>
    okData(callTool(t.node.broker, `twin.${name}`, { project_id: project, ...args }));
  const newProject = async (name: string) => (await postJson(`${t.url}/v1/projects`, { name })).body.id as string;

  /** A cantilever project: the geometry, the stress requirement against `limit`, and the FEA result on that geometry. */
  async function cantilever(name: string, limit: number) {
    const project = await newProject(name);
    const geom = await tool(project, 'commit_geometry', {
      name: 'Cantilever beam',
      step_base64: STEP,
      properties: { bounding_box: BEAM_BOX },
    });
    const cs = await tool(project, 'record_constraint_set', {
      name: 'Requirements: cantilever',
      constraints: [
        {
          id: 'REQ-STRESS',
          metric: 'max_von_mises_mpa',
          operator: '<=',
          limit,
          unit: 'MPa',
          verification_method: 'analysis',
          message: `yield ${YIELD_S690} MPa / safety factor ${YIELD_S690 / limit}`,
        },
      ],
    });
    const result = await tool(project, 'record_document', {
      document_type: 'simulation_result',
      name: 'static stress: 1000 N at the tip',
      summary: { max_von_mises_mpa: MAX_VON_MISES, load_case: '1000 N at the tip' },
      field_base64: FIELD.toString('base64'),
      analysed_geometry_node_id: geom.node_id,
    });
    return { project, geom, cs, result, ref: `${cs.item_key}:REQ-STRESS` };
  }
  return { tool, newProject, cantilever };
}
