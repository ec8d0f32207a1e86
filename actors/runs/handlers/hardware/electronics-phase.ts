import type { GateFinding } from '../../../../contracts/approvals.ts';
import type { PhaseExecutor, PhaseInput } from '../../executor.ts';
import type { Deliverable } from '../../run.types.ts';
import { intentOf } from '../mech/early-phases.ts';
import { phase, PhaseStop, use } from '../tools.ts';
import { partsCost, powerBudget } from './electronics-budget.ts';
import { schematicArgs } from './electronics-circuit.ts';
import { type Parity, parityFinding, parityProperties } from './electronics-parity.ts';
import { electronicsProperties } from './electronics-record.ts';
import { selectParts } from './electronics-select.ts';
import { boardOutline, generatedProperties, generateLayout } from './electronics-layout.ts';
import { PRICE_SOURCE } from './parts.data.ts';

interface NetlistNode {
  reference: string;
  pin: string;
}

/** What to attach for the layout check, said the same way in the summary and the decision. */
export const LAYOUT_HINT =
  'attach the board as a pcb_layout document of the project (twin.record_document, properties {board_path: "<workspace path>.kicad_pcb"}); the electronics phase then checks it with eda.run_drc';

/** The board layout the project holds: a pcb_layout item naming a workspace .kicad_pcb (its latest revision). */
async function projectLayout(input: PhaseInput): Promise<{ key: string; name: string; board_path: string } | null> {
  if (!input.project_id) return null;
  const out = await use<{ rows: { key: string; name: string; board_path: unknown }[] }>(input, 'twin.query_cypher', {
    query:
      'MATCH (n:PcbLayout {project_id: $project_id}) RETURN n.item_key AS key, n.name AS name, n.board_path AS board_path, n.revision AS rev ORDER BY rev DESC',
    params: { project_id: input.project_id },
  });
  const row = out.rows.find((r) => typeof r.board_path === 'string' && r.board_path.endsWith('.kicad_pcb'));
  return row ? { key: row.key, name: row.name, board_path: row.board_path as string } : null;
}

/**
 * electronics (hardware_v1): parts chosen from the parts table for the functions the request names, a KiCad schematic
 * generated from them that must pass ERC, its netlist recorded as the `schematic` (with the rail, the worst-case power
 * budget and the placed parts as properties, which V&V and manufacturing read) and its BOM as the `bom`, the budget
 * and parts cost closed in the design decision, and the layout checked with DRC and against the generated schematic
 * (KiCad's parity: a board of another design is a blocking gate finding naming the differences). The layout is the
 * board the project holds when it holds one (it wins); otherwise a board generated from the schematic by the eda
 * adapter (placed, and routed when the router is there; decision 0166), whose DRC failures (unconnected items,
 * errors) are a gate warning with KiCad's counts and fail V&V's DRC row and manufacturing: a board KiCad does not
 * pass is never claimed finished.
 */
export const electronicsPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const goal = String(input.request.goal);
    const sel = selectParts(goal);
    if (!sel.ok) throw new PhaseStop('data', `the parts table cannot serve: ${sel.unserved.join('; ')}`);
    const budget = powerBudget(sel.placed, sel.rail_v);
    const cost = partsCost(sel.placed, intent.parameters.budget);
    const failed = budget.checks.filter((c) => !c.pass).map((c) => `${c.name}: ${c.value} > ${c.limit} ${c.unit}`);
    if (cost.within === false) failed.push(`parts cost ${cost.total_eur} EUR > budget ${cost.budget!.amount} EUR`);
    if (failed.length) throw new PhaseStop('design', `the budget does not close: ${failed.join('; ')}`);

    const path = `electronics/${input.run_id}/board.kicad_sch`;
    const title = `${intent.goal_object}: electronics`;
    const gen = await use(input, 'eda.generate_schematic', schematicArgs(sel.placed, path, title));
    const erc = await use(input, 'eda.run_erc', { schematic_path: gen.schematic_path });
    if (!erc.passed)
      throw new PhaseStop(
        'design',
        `ERC of ${gen.schematic_path}: ${erc.error_count} error(s): ${erc.violations
          .filter((v: { severity: string }) => v.severity === 'error')
          .slice(0, 5)
          .map((v: { message: string }) => v.message)
          .join('; ')}`,
      );
    const net = await use(input, 'eda.export_netlist', { schematic_path: gen.schematic_path, format: 'json' });
    const nets = (net.nets as { name: string; nodes: NetlistNode[] }[]).map((n) => ({
      name: n.name,
      pins: n.nodes.map((x) => `${x.reference}.${x.pin}`),
    }));
    const sch = await use(input, 'twin.record_document', {
      document_type: 'schematic',
      name: title,
      content: `KiCad 6 schematic ${gen.schematic_path}: ${net.component_count} parts, ${net.net_count} nets; ERC passed (${erc.error_count} errors, ${erc.warning_count} warnings)`,
      properties: {
        schematic_path: gen.schematic_path,
        netlist_file: net.netlist_file,
        nets,
        erc: {
          passed: erc.passed,
          error_count: erc.error_count,
          warning_count: erc.warning_count,
          by_type: erc.by_type,
        },
        ...electronicsProperties(sel.placed, budget),
      },
    });
    const bom = await use(input, 'eda.export_bom', { schematic_path: gen.schematic_path, format: 'csv' });
    const bomDoc = await use(input, 'twin.record_document', {
      document_type: 'bom',
      name: `${title} BOM`,
      content: `exported from ${gen.schematic_path} (${bom.bom_file}); prices: ${PRICE_SOURCE.source}`,
      properties: { lines: bom.lines, cost },
    });
    const deliverables: Deliverable[] = [
      { type: 'schematic', node_id: sch.node_id, ref: sch.item_ref },
      { type: 'bom', node_id: bomDoc.node_id, ref: bomDoc.item_ref },
    ];

    // The project's board wins (checked by parity); without one, a board is placed (and routed) from the schematic.
    const attached = await projectLayout(input);
    const outline = attached ? null : boardOutline(goal, intent.parameters.dimensions_mm ?? null);
    const made = outline ? await generateLayout(input, gen.schematic_path, outline) : null;
    const layout = attached ?? { name: `${title}: board`, board_path: made!.board_path };
    let drcFailed: string | null = null;
    const findings: GateFinding[] = [];
    // Checked against this run's schematic: KiCad's parity says whether the board is this design's (decision 0133).
    const drc = await use(
      input,
      'eda.run_drc',
      { board_path: layout.board_path, schematic_path: gen.schematic_path },
      300,
    );
    const mismatch = parityFinding(layout.board_path, drc.schematic_parity as Parity | undefined);
    // The DRC verdict on its own (run_drc's passed also asks the parity, recorded beside it).
    const drcPassed = drc.error_count === 0 && drc.unconnected_count === 0;
    const pcb = await use(input, 'twin.record_document', {
      document_type: 'pcb_layout',
      name: layout.name,
      content: `DRC of ${layout.board_path}: ${drc.error_count} errors, ${drc.unconnected_count} unconnected${made ? ` (generated from ${gen.schematic_path}; ${made.result.routing ? 'routed' : `not routed: ${made.result.routing_skipped}`})` : ''}`,
      properties: {
        board_path: layout.board_path,
        drc_report: drc.report_file,
        drc: {
          passed: drcPassed,
          error_count: drc.error_count,
          warning_count: drc.warning_count,
          unconnected_count: drc.unconnected_count,
        },
        schematic_parity: parityProperties(drc.schematic_parity as Parity | undefined),
        ...(made && outline ? generatedProperties(made.result, outline) : {}),
      },
    });
    deliverables.push({ type: 'pcb_layout', node_id: pcb.node_id, ref: pcb.item_ref });
    let layoutLine = `layout ${layout.board_path}${made ? ' (generated)' : ''} DRC ${drcPassed ? 'passed' : 'FAILED'}: ${drc.error_count} errors, ${drc.unconnected_count} unconnected`;
    if (!drcPassed && !made) drcFailed = layoutLine;
    // A generated board that does not pass (unrouted connections, DRC errors) is reported at the gate with KiCad's
    // counts (decision 0166): a warning, as a missing board was, since V&V judges its DRC as failed and manufacturing
    // refuses to plot it, so the run cannot complete on it; the later phases still run on the schematic.
    if (!drcPassed && made)
      findings.push({
        kind: 'constraint_violation',
        severity: 'warning',
        message: `${layoutLine}${made.result.routing ? '' : ` (placed, not routed: ${made.result.routing_skipped})`}`,
      });
    if (mismatch) {
      layoutLine = mismatch;
      // A blocking finding of the gate (not a failed run): the person sees the differences and attaches the board
      // of this design, then retries the phase.
      findings.push({ kind: 'constraint_violation', severity: 'error', message: mismatch });
    }

    const fmtLine = (l: { ref: string; mpn: string; current_ma: number }) => `${l.ref} ${l.mpn} ${l.current_ma} mA`;
    const d = await use(input, 'twin.record_decision', {
      title: 'Electronics: topology, key parts and power budget',
      decision: [
        `USB micro-B 5 V -> ${budget.regulator.mpn} LDO -> ${budget.rail_v} V rail; ${sel.placed
          .filter((p) => !p.nets)
          .map((p) => `${p.ref} ${p.part.mpn} (${p.why})`)
          .join(', ')}.`,
        `Worst-case rail load ${budget.load_ma} mA (${budget.rail_mw} mW at ${budget.rail_v} V): ${budget.lines.map(fmtLine).join(' + ')}.`,
        `USB draw ${budget.usb_ma} mA (load + LDO quiescent ${budget.regulator.iq_ma_max} mA); LDO dissipation ${budget.regulator.dissipation_mw} mW at 5.25 V in.`,
        `Checks (20 % margin): ${budget.checks.map((c) => `${c.name} ${c.value} <= ${c.limit} ${c.unit}`).join('; ')} — budget closed.`,
        `Parts cost ${cost.total_eur} EUR${cost.budget ? ` vs budget ${cost.budget.amount} ${cost.budget.currency}${cost.within === null ? ' (not compared: other currency)' : ' — within'}` : ' (no budget stated)'}.`,
        `ERC of ${gen.schematic_path}: passed, ${erc.error_count} errors, ${erc.warning_count} warnings. ${layoutLine}.`,
      ].join(' '),
      rationale: [
        ...budget.lines.map((l) => `${l.ref}: ${l.basis}`),
        `${budget.regulator.ref}: ${budget.regulator.basis}`,
        'USB 2.0: a device that does not enumerate may draw one unit load (100 mA); VBUS 4.75-5.25 V',
        `prices: ${PRICE_SOURCE.basis}, ${PRICE_SOURCE.source}`,
        ...sel.assumptions,
      ].join('; '),
      alternatives: ['SHT31 heater kept off: it would add current the budget does not carry'],
      depends_on: [sch.item_key, bomDoc.item_key].filter(Boolean),
    });
    deliverables.push({ type: 'design_decision', node_id: d.node_id });
    if (drcFailed) throw new PhaseStop('design', drcFailed);
    return {
      summary: `schematic ${sch.item_ref} (${net.component_count} parts, ERC passed), BOM ${bomDoc.item_ref} (${bom.line_count} lines, ${cost.total_eur} EUR), rail load ${budget.load_ma} mA of ${budget.checks[1]!.limit} mA allowed; ${layoutLine}`,
      deliverables,
      ...(findings.length ? { findings } : {}),
    };
  });
