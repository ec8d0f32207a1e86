import { z } from 'zod';
import { PhaseStop } from '../tools.ts';
import type { PowerBudget } from './electronics-budget.ts';
import type { Placed } from './electronics-select.ts';
import { PARTS } from './parts.data.ts';

/** The worst-case power budget as the electronics phase records it on its schematic (`power_budget`). */
const PowerBudgetSchema: z.ZodType<PowerBudget> = z.object({
  rail_v: z.number(),
  lines: z.array(z.object({ ref: z.string(), mpn: z.string(), current_ma: z.number(), basis: z.string() })),
  load_ma: z.number(),
  rail_mw: z.number(),
  regulator: z.object({
    ref: z.string(),
    mpn: z.string(),
    rated_ma: z.number(),
    iq_ma_max: z.number(),
    dissipation_mw: z.number(),
    basis: z.string(),
  }),
  usb_ma: z.number(),
  usb_limit_ma: z.number(),
  checks: z.array(
    z.object({ name: z.string(), value: z.number(), limit: z.number(), unit: z.string(), pass: z.boolean() }),
  ),
  closed: z.boolean(),
});

/** The placed parts as recorded (`parts`): each by its parts-table key, not a copy of the table's row. */
const PlacedRecordSchema = z.array(
  z.object({ ref: z.string(), part: z.string(), why: z.string(), nets: z.tuple([z.string(), z.string()]).optional() }),
);

const AGAIN = 'a schematic recorded before the electronics phase stored it; run the electronics phase again';

/**
 * What the electronics phase records on its schematic besides the netlist: the logic rail, the worst-case power budget
 * and the placed parts, so later phases (V&V, manufacturing) read the design from the twin instead of selecting the
 * parts and closing the budget again from the request.
 */
export function electronicsProperties(placed: Placed[], budget: PowerBudget) {
  return {
    rail_v: budget.rail_v,
    power_budget: budget,
    parts: placed.map((p) => ({ ref: p.ref, part: p.part.key, why: p.why, ...(p.nets ? { nets: p.nets } : {}) })),
  };
}

/** The power budget recorded on a schematic; a data failure naming it when absent or malformed (never recomputed). */
export function recordedBudget(properties: Record<string, unknown>, schematicRef: string): PowerBudget {
  const b = PowerBudgetSchema.safeParse(properties.power_budget);
  if (!b.success)
    throw new PhaseStop(
      'data',
      `the schematic ${schematicRef} holds no power_budget as the electronics phase records it (${AGAIN})`,
    );
  return b.data;
}

/** The placed parts recorded on a schematic, resolved in the parts table; a data failure naming what is missing. */
export function recordedParts(properties: Record<string, unknown>, schematicRef: string): Placed[] {
  const parts = PlacedRecordSchema.safeParse(properties.parts);
  if (!parts.success || !parts.data.length)
    throw new PhaseStop(
      'data',
      `the schematic ${schematicRef} holds no parts as the electronics phase records them (${AGAIN})`,
    );
  const unknown = parts.data.filter((p) => !PARTS[p.part]).map((p) => `${p.ref} ${p.part}`);
  if (unknown.length)
    throw new PhaseStop(
      'data',
      `the schematic ${schematicRef} names parts the parts table does not hold: ${unknown.join(', ')}`,
    );
  return parts.data.map((p) => ({ ref: p.ref, part: PARTS[p.part]!, why: p.why, ...(p.nets ? { nets: p.nets } : {}) }));
}
