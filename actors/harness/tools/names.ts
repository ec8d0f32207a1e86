/**
 * Tool ids are `<adapter>.<method>` (contracts/tools.ts ToolIdSchema); the families' tool names allow only
 * `[a-zA-Z0-9_-]{1,128}` (contracts/harness-calls.ts ToolNameSchema). The offered name replaces the one dot with a
 * double underscore: `cadkernel.open_session` <-> `cadkernel__open_session` (so it still ends `_open_session`).
 * The way back splits at the first `__`; that is exact for every id whose adapter part has no `__` (all 97 catalogue
 * ids). The name table of one offer (ToolNames) is what the executor trusts: it refuses two ids that would share a
 * name, so a name always leads back to exactly one id.
 */
export const NAME_SEPARATOR = '__';
const SAFE = /^[a-zA-Z0-9_-]{1,128}$/;

/** The offered name of a tool id; undefined when the id cannot be a family tool name (a character or the length). */
export function toSafeName(toolId: string): string | undefined {
  const dot = toolId.indexOf('.');
  const name = dot < 0 ? toolId : `${toolId.slice(0, dot)}${NAME_SEPARATOR}${toolId.slice(dot + 1)}`;
  return SAFE.test(name) ? name : undefined;
}

/** The tool id of an offered name (the inverse of toSafeName for ids whose adapter part has no `__`). */
export function fromSafeName(name: string): string {
  const at = name.indexOf(NAME_SEPARATOR);
  return at < 0 ? name : `${name.slice(0, at)}.${name.slice(at + NAME_SEPARATOR.length)}`;
}

/** The names of one offer, both ways. */
export class ToolNames {
  private readonly byName = new Map<string, string>();
  private readonly byId = new Map<string, string>();
  /** Ids left out of the offer, with why (no family name possible, or a name another id already took). */
  readonly refused: { tool_id: string; reason: string }[] = [];

  constructor(toolIds: Iterable<string>) {
    for (const id of toolIds) {
      const name = toSafeName(id);
      if (!name) this.refused.push({ tool_id: id, reason: 'no tool name of [a-zA-Z0-9_-]{1,128} fits this id' });
      else if (this.byName.has(name))
        this.refused.push({ tool_id: id, reason: `its name ${name} is taken by ${this.byName.get(name)}` });
      else {
        this.byName.set(name, id);
        this.byId.set(id, name);
      }
    }
  }

  idOf(name: string): string | undefined {
    return this.byName.get(name);
  }

  nameOf(toolId: string): string | undefined {
    return this.byId.get(toolId);
  }

  has(toolId: string): boolean {
    return this.byId.has(toolId);
  }
}
