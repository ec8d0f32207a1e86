import { z } from 'zod';
import type { PhaseExecutor, PhaseInput } from '../../executor.ts';
import type { Deliverable } from '../../run.types.ts';
import { intentOf } from '../mech/early-phases.ts';
import { phase, PhaseStop, priorOf, use } from '../tools.ts';
import { LAYOUT_HINT } from './electronics-phase.ts';
import { recordedBudget } from './electronics-record.ts';
import { BomLineSchema, costBom, costLine } from './manufacturing-cost.ts';
import { fabricationFiles, getNode, mechanicalStep, type TwinNode } from './manufacturing-fab.ts';
import { pinmapOf } from './manufacturing-pinmap.ts';
import { bringUpPlan } from './manufacturing-plan.ts';

/** The schematic's nets as the electronics phase records them (`pins` as `REF.PIN`). */
const NetsSchema = z.array(z.object({ name: z.string(), pins: z.array(z.string()) }));

/** The latest delivery of a type by an earlier phase, or a data failure naming what is missing. */
function needed(input: PhaseInput, type: string, what: string): Deliverable {
  const d = priorOf(input, type).at(-1);
  if (!d) throw new PhaseStop('data', `no ${type} was delivered by an earlier phase: ${what}`);
  return d;
}

/** The target build's image a firmware_source records (its HEX and flash size), when the part was built for. */
function imageOf(t: unknown): { image?: { hex: string; flash_bytes: number } } {
  const b = t as { passed?: unknown; hex?: { path?: unknown }; flash_bytes?: unknown } | null | undefined;
  return b?.passed === true && typeof b.hex?.path === 'string' && typeof b.flash_bytes === 'number'
    ? { image: { hex: b.hex.path, flash_bytes: b.flash_bytes } }
    : {};
}

/**
 * manufacturing (hardware_v1, gate G8): the release package of the board and the bracket. The electronics bom costed
 * line by line from the parts table against the stated budget; Gerber, drill, job and pick-and-place files of the
 * delivered pcb_layout (KiCad's own plotter); the bracket's STEP; a bring-up test plan generated from the schematic's
 * nets and parts (and the firmware's pin map when that phase delivered one); and the release decision naming what is
 * open. Every tool that can refuse runs before anything is recorded, so a refusal (no layout, a board_path outside the
 * workspace) records nothing; the documents are drafts of the run that the G8 approval commits.
 */
export const manufacturingPhase: PhaseExecutor = (input) =>
  phase(async () => {
    const intent = await intentOf(input);
    const bomDel = needed(input, 'bom', 'the electronics phase records it');
    const schDel = needed(input, 'schematic', 'the electronics phase records it');
    const pcbDel = needed(input, 'pcb_layout', LAYOUT_HINT);
    const cadDel = needed(input, 'cad_model', 'the design phase commits the bracket');
    const [bomNode, schNode, pcbNode] = await Promise.all([bomDel, schDel, pcbDel].map((d) => getNode(input, d)));
    const lines = BomLineSchema.array().safeParse(bomNode!.properties.lines);
    if (!lines.success || !lines.data.length)
      throw new PhaseStop('data', `the bom ${bomDel.ref} holds no lines as eda.export_bom writes them`);
    const nets = NetsSchema.safeParse(schNode!.properties.nets ?? []);
    if (!nets.success)
      throw new PhaseStop('data', `the schematic ${schDel.ref} holds no nets as the electronics phase records them`);
    // The power budget the electronics phase recorded on the schematic G6E approved (read, never recomputed), so the
    // current limit is the one approved; a schematic without it is a data failure naming it.
    const budget = recordedBudget(schNode!.properties, schDel.ref ?? schNode!.id);
    const cost = costBom(lines.data, intent.parameters.budget);

    const fab = await fabricationFiles(input, pcbNode!);
    const step = await mechanicalStep(input, cadDel);
    const pinDel = priorOf(input, 'pinmap').at(-1);
    const fwDel = priorOf(input, 'firmware_source').at(-1);
    const pinNode: TwinNode | null = pinDel ? await getNode(input, pinDel) : null;
    const fwNode: TwinNode | null = fwDel ? await getNode(input, fwDel) : null;
    const plan = bringUpPlan({
      nets: nets.data,
      lines: lines.data,
      power: { usb_ma: budget.usb_ma, rail_v: budget.rail_v },
      ...(pinNode ? { pinmap: { ref: pinDel!.ref ?? pinNode.id, ...pinmapOf(pinNode.properties) } } : {}),
      ...(fwDel ? { firmware: { ref: fwDel.ref ?? fwDel.node_id, ...imageOf(fwNode?.properties.target_build) } } : {}),
    });

    // The costed BOM is a document of its own (a manufacturing_file of kind costed_bom pinning the bom revision it
    // costs), not a bom. The next revision of the bom item would, once G8 commits it, mark the electronics decision
    // that pinned the previous revision stale (twin rule: dependants of a replaced head), so every released run would
    // end with "outputs went stale"; a second bom item would list every part twice in GET /v1/bom.
    const bomRef = bomNode!.item_ref ?? bomDel.ref!;
    const costed = await use(input, 'twin.record_document', {
      document_type: 'manufacturing_file',
      name: `${bomNode!.name} (costed)`,
      content: `${costLine(cost)}; costed from ${bomRef}; prices: ${cost.price_basis}`,
      properties: { kind: 'costed_bom', bom_ref: bomRef, lines: cost.lines, cost },
    });
    const mfg = await use(input, 'twin.record_document', {
      document_type: 'manufacturing_file',
      name: `${intent.goal_object}: fabrication files`,
      content: `Board ${fab.board_path} (${fab.board_ref}): ${fab.layers.length} Gerber layers (${fab.copper_layers} copper), ${fab.drill_files.length} drill files, job file, pick-and-place of ${fab.placed_count} footprints in ${fab.output_dir}; ${step.part} STEP ${step.path}`,
      properties: { kind: 'fabrication', ...fab, step_files: [step] },
    });
    const tp = await use(input, 'twin.record_document', {
      document_type: 'test_plan',
      name: `${intent.goal_object}: bring-up test plan`,
      content: plan.steps.map((s) => `${s.id} ${s.title}: expect ${s.expected}; pass if ${s.pass}`).join('\n'),
      properties: {
        steps: plan.steps,
        open_items: plan.open_items,
        sources: {
          schematic: schDel.ref,
          bom: bomRef,
          pinmap: pinDel?.ref ?? null,
          firmware: fwDel?.ref ?? null,
        },
        power_budget: { usb_ma: budget.usb_ma, rail_v: budget.rail_v, load_ma: budget.load_ma },
      },
    });

    const open = [
      ...cost.unpriced.map((d) => `price of ${d}`),
      'list prices (2024) to confirm with a distributor quote',
      ...plan.open_items,
    ];
    const ready = cost.within !== false;
    const d = await use(input, 'twin.record_decision', {
      title: 'Manufacturing readiness',
      decision: [
        `${ready ? 'Ready for release review' : 'NOT ready'}: ${costLine(cost)} (${costed.item_ref}, costing ${bomRef}).`,
        `Fabrication set ${mfg.item_ref}: ${fab.layers.join(', ')}; drill ${fab.drill_files.length}; job ${fab.job_file ? 'yes' : 'no'}; position file ${fab.position_file} (${fab.placed_count} footprints); ${step.part} STEP ${step.path}${step.converted ? ' (converted)' : ''}.`,
        `Bring-up plan ${tp.item_ref}: ${plan.steps.length} steps (${[...new Set(plan.steps.map((s) => s.stage))].join(', ')}).`,
        `Open items: ${open.join('; ')}.`,
      ].join(' '),
      rationale: `BOM ${bomRef}, board ${fab.board_ref} (DRC passed at electronics), geometry ${step.source_ref}; current limit ${budget.usb_ma} mA is the worst-case USB draw of the electronics power budget; prices: ${cost.price_basis}`,
      alternatives: [
        `the costed BOM as the next revision of ${bomRef}: rejected, committing it would mark the electronics decision stale`,
      ],
      depends_on: [bomRef, costed.item_key, mfg.item_key, tp.item_key].filter(Boolean),
    });
    if (!ready) throw new PhaseStop('design', `the BOM exceeds the budget: ${costLine(cost)}`);
    return {
      summary: `${costLine(cost)} (${costed.item_ref}); fabrication set ${mfg.item_ref} (${fab.files.length} files + position file, ${fab.placed_count} placed); STEP ${step.path}; bring-up plan ${tp.item_ref} (${plan.steps.length} steps); ${open.length} open items`,
      deliverables: [
        // The fabrication set first: it is the phase's manufacturing_file; the costed BOM follows it.
        { type: 'manufacturing_file', node_id: mfg.node_id, ref: mfg.item_ref },
        { type: 'manufacturing_file', node_id: costed.node_id, ref: costed.item_ref },
        { type: 'test_plan', node_id: tp.node_id, ref: tp.item_ref },
        { type: 'design_decision', node_id: d.node_id },
      ],
    };
  });
