import type { PhaseExecutor, PhaseInput } from '../../executor.ts';
import { intentOf } from '../mech/early-phases.ts';
import { staticStress } from '../mech/static-stress.ts';
import { phase, PhaseStop, priorOf, use } from '../tools.ts';
import { bracketLoadN } from './concepts.ts';
import { recordedBudget, recordedParts } from './electronics-record.ts';
import { CHOICES } from './reference-data.ts';
import { hardwareRequirements } from './requirements.ts';
import { verificationValues } from './vv-values.ts';
import { ldoJunction, verdicts, verdictTable, type TargetEvidence, type VvEvidence } from './vv-verdicts.ts';

type Props = Record<string, any>;

/** The latest deliverable of a type from earlier phases, with its twin node's properties; null when none. */
async function latest(
  input: PhaseInput,
  type: string,
): Promise<{ node_id: string; ref: string; properties: Props } | null> {
  const d = priorOf(input, type).at(-1);
  if (!d) return null;
  const n = await use<{ properties?: Props }>(input, 'twin.get_node', { node_id: d.node_id });
  return { node_id: d.node_id, ref: d.ref ?? d.node_id, properties: n.properties ?? {} };
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The firmware record's target build as V&V evidence (a record without one: no target build). */
function targetEvidence(t: Props | null | undefined): TargetEvidence | null {
  if (!t || typeof t.mcu !== 'string') return null;
  return {
    mcu: t.mcu,
    flash: t.available ? num(t.flash_bytes) : null,
    flash_max: num(t.flash_max_bytes) ?? 0,
    ram: t.available ? num(t.ram_bytes) : null,
    ram_max: num(t.ram_max_bytes) ?? 0,
    reason: typeof t.reason === 'string' ? t.reason : null,
  };
}

/**
 * simulation (hardware_v1, V&V): the bracket's FEA under the stated mass and shock (the one FEA path mech_v1 uses,
 * load at the free end, so conservative), ERC of the run's schematic again, the layout's DRC as the electronics phase
 * recorded it, the regulator's junction temperature by hand, the cost, the supply current and logic rail of the power
 * budget the electronics phase recorded on its schematic (a schematic without one stops the phase as a data failure),
 * and the firmware build: a verdict per key requirement, recorded as a test_result and the V&V decision. The stress verdict is left to
 * the gate (its constraint check compares REQ-STRESS with the result, so a failing bracket holds the run at V&V); any
 * other failed requirement stops the phase. Missing evidence is reported as not verified, never as a pass.
 */
export const hardwareVvPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const material = intent.parameters.material;
    const { allowable, loadCase: k, constraints } = hardwareRequirements(intent);
    const cad = priorOf(input, 'cad_model').at(-1);
    if (!cad?.ref || !material) throw new PhaseStop('data', 'no bracket geometry was designed in this run');
    // The rail, power budget and parts the electronics phase recorded on its schematic (read, never recomputed); a
    // schematic without them stops here, before anything is recorded.
    const sch = await latest(input, 'schematic');
    const budget = sch ? recordedBudget(sch.properties, sch.ref) : null;
    const placed = sch ? recordedParts(sch.properties, sch.ref) : null;
    const force = Math.round(bracketLoadN(k) * 100) / 100;
    const fea = await staticStress(
      input,
      cad,
      {
        load: `${force} N (${k.mass_kg} kg at (1 + ${CHOICES.shockAmplification.value} x ${k.shock_g}) g) at the free end`,
        force_n: force,
        material,
      },
      (stress) => ({ safety_factor: Math.round((material.yield_mpa / stress) * 100) / 100 }),
    );

    const schPath = typeof sch?.properties.schematic_path === 'string' ? sch.properties.schematic_path : null;
    const erc = schPath ? await use(input, 'eda.run_erc', { schematic_path: schPath }) : null;
    const pcb = await latest(input, 'pcb_layout');
    const drc = pcb?.properties.drc as Props | undefined;
    const bom = await latest(input, 'bom');
    const fw = await latest(input, 'firmware_source');
    const thermal = budget ? ldoJunction(budget.regulator.dissipation_mw) : null;
    const limitOf = (id: string) => constraints.find((c) => c.id === id);
    const cost = limitOf('REQ-COST');
    const usb = limitOf('REQ-USB-CURRENT');
    const logic = limitOf('REQ-LOGIC-V');
    const evidence: VvEvidence = {
      stress: { value: fea.stress_mpa, limit: allowable, node_id: fea.result.node_id },
      cost: cost
        ? {
            value: num((bom?.properties.cost as Props | undefined)?.total_eur),
            limit: cost.limit,
            currency: cost.unit,
            node_id: bom?.node_id ?? null,
          }
        : null,
      usb: usb ? { value: budget ? budget.usb_ma : null, limit: usb.limit } : null,
      logic: logic ? { value: budget ? budget.rail_v : null, limit: logic.limit } : null,
      erc: erc && schPath ? { errors: Number(erc.error_count), path: schPath } : null,
      drc:
        pcb && drc
          ? {
              passed: drc.passed === true,
              errors: Number(drc.error_count),
              unconnected: Number(drc.unconnected_count),
              node_id: pcb.node_id,
            }
          : null,
      thermal: thermal && budget ? { tj_c: thermal.tj_c, dissipation_mw: budget.regulator.dissipation_mw } : null,
      firmware: fw
        ? {
            passed: typeof fw.properties.build?.passed === 'boolean' ? fw.properties.build.passed : null,
            node_id: fw.node_id,
            target: targetEvidence(fw.properties.target_build as Props | null | undefined),
          }
        : null,
    };
    const rows = verdicts(evidence);
    const table = verdictTable(rows);
    const failed = rows.filter((r) => r.status === 'fail');
    const open = rows.filter((r) => r.status === 'not_verified');
    const overall = failed.length ? 'FAIL' : open.length ? `PASS, ${open.length} not verified` : 'PASS';
    // The values the budgets and requirements are verified against (gates and the lifecycle read them from here).
    const values = placed && budget ? verificationValues(intent, placed, budget, evidence.cost?.value ?? null) : {};
    const tr = await use(input, 'twin.record_document', {
      document_type: 'test_result',
      name: `V&V: ${intent.goal_object}`,
      content: `${table}\n\nValues stated for verification: ${JSON.stringify(values)}`,
      properties: { verdicts: rows, overall, values },
    });
    const d = await use(input, 'twin.record_decision', {
      title: `V&V verdict: ${overall}`,
      decision: `${rows.map((r) => `${r.requirement}: ${r.status.toUpperCase()}${r.value === null ? '' : ` (${r.value} ${r.unit} vs ${r.limit} ${r.unit})`}`).join('; ')}. FEA: CalculiX, ${fea.elements} C3D10 elements, load case ${fea.load_case}.`,
      rationale: `the peak von Mises sits at the wall fixing, where the clamp makes the stress singular, so the stress verdict is conservative; thermal: ${thermal ? `${thermal.rise_c} C rise by hand` : 'not computed'}; not verified: ${open.map((r) => `${r.requirement} (${r.evidence})`).join(', ') || 'none'}`,
      depends_on: [cad.ref],
    });
    const others = failed.filter((r) => !r.requirement.startsWith('REQ-STRESS'));
    if (others.length)
      throw new PhaseStop(
        'design',
        `V&V failed: ${others.map((r) => `${r.requirement} ${r.value} > ${r.limit} ${r.unit}`).join('; ')}`,
      );
    return {
      summary: `V&V ${overall}: FEA ${fea.stress_mpa} MPa vs ${allowable} MPa allowable; ${rows.length} requirements judged`,
      deliverables: [
        { type: 'simulation_result', node_id: fea.result.node_id },
        { type: 'test_result', node_id: tr.node_id },
        { type: 'design_decision', node_id: d.node_id },
      ],
    };
  });
