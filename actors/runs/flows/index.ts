import crypto from 'node:crypto';
import { FlowDefSchema, type FlowDef, type FrozenFlow } from '../../../contracts/flow-defs.ts';
import { ConditionError, parseCondition } from '../condition.ts';
import { HARDWARE_V1 } from './hardware-v1.ts';
import { MECH_V1 } from './mech-v1.ts';

/** The built-in flows by id. */
export const FLOWS: Record<string, FlowDef> = { hardware_v1: HARDWARE_V1, mech_v1: MECH_V1 };
export const FLOW_IDS = Object.keys(FLOWS);

/** JSON with sorted keys and no undefined members: unset fields are omitted, so adding optional fields keeps old hashes. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Checks a flow: known ids in depends_on, no cycles, every condition parses (an error names the phase and position). */
export function validateFlow(def: FlowDef): FlowDef {
  for (const p of def.phases ?? []) {
    if (p.condition) {
      try {
        parseCondition(p.condition);
      } catch (err) {
        if (err instanceof ConditionError) throw new ConditionError(`phase ${p.id}: ${err.message}`, err.position);
        throw err;
      }
    }
  }
  const parsed = FlowDefSchema.parse(def);
  const ids = new Set(parsed.phases.map((p) => p.id));
  if (ids.size !== parsed.phases.length) throw new Error(`flow ${parsed.id} has duplicate phase ids`);
  for (const p of parsed.phases)
    for (const d of p.depends_on ?? []) if (!ids.has(d)) throw new Error(`phase ${p.id} depends on unknown phase ${d}`);
  return parsed;
}

/** Freezes a flow with its facts: the content hash covers both, so a run proves what a person approved. */
export function freezeFlow(def: FlowDef, facts: Record<string, unknown>): FrozenFlow {
  const definition = validateFlow(def);
  const content_hash = crypto.createHash('sha256').update(canonicalJson({ definition, facts })).digest('hex');
  return {
    version_id: `${definition.id}@${definition.version}#${content_hash.slice(0, 12)}`,
    flow_id: definition.id,
    content_hash,
    definition,
    facts,
  };
}
