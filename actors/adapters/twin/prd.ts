import { call } from '../../../brokers/actions.ts';
import { TwinActions as T } from '../../../contracts/actions/twin.actions.ts';
import type { ToolContext } from '../kit/tool.ts';
import { twinCall, writerOf } from './common.ts';

/** The name of every project's single prd item. */
export const PRD_ITEM_NAME = 'Product requirements document';

/** At most this many stray values are reported (SPEC Limits). */
export const MAX_STRAY_VALUES = 20;

const UNIT =
  '(mm|cm|m|km|µm|um|kg|g|t|N|kN|MPa|GPa|kPa|Pa|bar|W|kW|mW|V|mV|kV|A|mA|Ah|mAh|Hz|kHz|MHz|GHz|°C|degC|K|h|min|s|ms|rpm|%|USD|EUR|dB|Nm|N·m)';
const VALUE_WITH_UNIT = new RegExp(`(?<![\\w.])(\\d+(?:[.,]\\d+)?)\\s?${UNIT}(?![\\w])`, 'g');

/** Values with units written in prose, e.g. `200 mm`, `100 N`, `2.5 kg`, in first-seen order, unique. */
export function valuesWithUnits(text: string): { value: number; unit: string; text: string }[] {
  const seen = new Set<string>();
  const out: { value: number; unit: string; text: string }[] = [];
  for (const m of text.matchAll(VALUE_WITH_UNIT)) {
    const value = Number(m[1].replace(',', '.'));
    const unit = m[2] === 'degC' ? '°C' : m[2];
    const key = `${value} ${unit}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ value, unit, text: m[0] });
  }
  return out;
}

interface Constraint {
  limit?: number;
  unit?: string;
}

/**
 * `record_document` for prd (SPEC Twin rule 2): the prose becomes the next revision of the project's single prd item,
 * never refused for content. The answer names the constraint-set revisions that hold the requirement values
 * (requirement_refs) and, only when present, up to 20 values with units the prose states that no current requirement
 * states (stray_requirement_values) with a requirement_warning.
 */
export async function recordPrd(content: string, projectId: string | null, tc: ToolContext) {
  const sets = await call(tc.ctx, T.listItems, { project_id: projectId ?? undefined, item_type: 'constraint_set' });
  const stated = new Set<string>();
  const refs: string[] = [];
  for (const item of sets.items) {
    const node = await twinCall(call(tc.ctx, T.getNode, { item_key: item.key, run_id: tc.caller.run_id })).catch(
      () => undefined,
    );
    if (!node) continue;
    refs.push(node.item_ref!);
    for (const c of (node.properties.constraints as Constraint[] | undefined) ?? []) {
      if (typeof c.limit === 'number') stated.add(`${c.limit} ${c.unit ?? ''}`.trim());
    }
  }
  const strays = valuesWithUnits(content)
    .filter((v) => !stated.has(`${v.value} ${v.unit}`))
    .slice(0, MAX_STRAY_VALUES)
    .map((v) => v.text);
  const w = await twinCall(
    call(tc.ctx, T.writeDefinition, {
      project_id: projectId,
      item_type: 'prd',
      name: PRD_ITEM_NAME,
      properties: { prose: content, requirement_refs: refs },
      writer: writerOf(tc),
    }),
  );
  return {
    node_id: w.node.id,
    document_type: 'prd',
    item_key: w.item_key,
    revision: w.revision,
    item_ref: w.item_ref,
    ...(w.revision_status ? { revision_status: w.revision_status, draft_note: w.draft_note } : {}),
    requirements_home:
      'constraint_set: requirement values live only in constraint sets (twin.record_constraint_set); the prd is prose',
    requirement_refs: refs,
    ...(strays.length
      ? {
          stray_requirement_values: strays,
          requirement_warning: `${strays.length} value(s) with units in the prose are stated by no current requirement; record them in a constraint set if they are requirements`,
        }
      : {}),
  };
}
