import type { AnnouncedTool } from '../../../contracts/actions/adapters.actions.ts';
import type { ProviderFamily } from '../../../contracts/harness.ts';
import type { ToolOffer } from '../../../contracts/harness-calls.ts';
import type { ToolAnnotations } from '../../../contracts/tools.ts';
import { capTools, OPENAI_TOOL_CAP } from './cap.ts';
import { ToolNames } from './names.ts';

/** One tool the model may call: its registry id, the name it is offered under, and what the executor needs. */
export interface OfferedTool {
  id: string;
  name: string;
  description: string;
  /** Empty object or absent: the tool declares no schema and its arguments are not validated (rule 1). */
  input_schema?: Record<string, unknown>;
  /** The registry's annotations (readOnlyHint, destructiveHint...): the hold policy reads them. */
  annotations?: ToolAnnotations;
  native?: boolean;
}

/** A tool of the harness itself, not from the registry (such as search_tools): always offered, run in process. */
export type NativeTool = Omit<OfferedTool, 'name' | 'native'>;

export interface ToolOfferPlan {
  /** The families' tool specs, in the registry's order, native tools first. */
  offers: ToolOffer[];
  /** By offered name: what the executor resolves a model's call with. */
  byName: Map<string, OfferedTool>;
  /** Ids the cap left out. */
  dropped: string[];
  /** Ids no family name fits (see names.ts). */
  refused: { tool_id: string; reason: string }[];
}

export interface OfferOptions {
  family: ProviderFamily;
  /** Tool ids the model found with search_tools: kept under the cap. */
  pinned?: Iterable<string>;
  native?: readonly NativeTool[];
  /** The process logger (pino) or anything with its `warn(obj, msg)`. */
  log?: { warn(obj: object, msg: string): void };
  /** Defaults to 128 for the OpenAI-compatible family; the Anthropic family has no published cap. */
  cap?: number;
  run_id?: string | null;
}

/**
 * Turns the registry's listing (`tools.list`) into the tool specs of one request: `{name, description, input_schema}`
 * with the id mapped to a family-safe name (names.ts), capped for the OpenAI-compatible family (rule 5), the drop
 * logged as `harness_tools_capped` with the dropped names.
 */
export function planToolOffer(listed: readonly AnnouncedTool[], opts: OfferOptions): ToolOfferPlan {
  const candidates: (NativeTool & { native?: boolean })[] = [
    ...(opts.native ?? []).map((t) => ({ ...t, native: true })),
    ...listed.map((t) => ({
      id: t.tool_id,
      description: t.title && !t.description.startsWith(t.title) ? `${t.title}. ${t.description}` : t.description,
      input_schema: t.input_schema,
      annotations: t.annotations,
    })),
  ];
  const names = new ToolNames(candidates.map((t) => t.id));
  const nameable = candidates.filter((t) => names.has(t.id));
  const cap = opts.cap ?? (opts.family === 'openai_compatible' ? OPENAI_TOOL_CAP : Infinity);
  const { offered, dropped } = capTools(nameable, { cap, pinned: opts.pinned });
  if (dropped.length > 0) {
    opts.log?.warn(
      {
        family: opts.family,
        cap,
        registered: nameable.length,
        offered: offered.length,
        dropped: dropped.map((t) => t.id),
        run_id: opts.run_id ?? undefined,
      },
      'harness_tools_capped',
    );
  }
  if (names.refused.length > 0) opts.log?.warn({ refused: names.refused }, 'harness_tools_unnameable');
  const byName = new Map<string, OfferedTool>();
  const offers: ToolOffer[] = [];
  for (const t of offered) {
    const name = names.nameOf(t.id)!;
    byName.set(name, { ...t, name });
    offers.push({ name, description: t.description, input_schema: t.input_schema ?? { type: 'object' } });
  }
  return { offers, byName, dropped: dropped.map((t) => t.id), refused: names.refused };
}
