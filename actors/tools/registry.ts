import type { AdapterManifest, AnnouncedTool } from '../../contracts/actions/adapters.actions.ts';
import { PROFILES } from '../../contracts/profiles.ts';
import { aliasKey, buildAliasIndex, resolveToolId, type Resolution } from './resolve.ts';

export interface ListOptions {
  profile?: string;
  capability?: string;
}

export interface Listing {
  tools: AnnouncedTool[];
  /** Adapters known to the registry whose actor is not on the bus now: their tools are not listed. */
  unavailableAdapters: string[];
  /** Tools the profile names that no available adapter registers. */
  profileMissing: string[];
}

export interface SearchHit {
  tool_id: string;
  title: string;
  description: string;
  score: number;
  available: boolean;
}

/**
 * What the registry knows: the last manifest of every adapter that joined the bus, and whether it is on the bus now.
 * A manifest is kept when its adapter leaves, so `tools_registered` does not shrink and listing can say what is
 * unavailable. No I/O: the `tools` actor feeds it.
 */
export class ToolRegistry {
  private readonly adapters = new Map<string, { manifest: AdapterManifest; available: boolean }>();
  private toolsById = new Map<string, AnnouncedTool>();
  /** The canonical ids, kept as a set for resolution (rebuilt with the index, not per call). */
  private ids = new Set<string>();
  private aliasIndex = new Map<string, string[]>();
  /** Bare names of tools announced with `bare_name`, to their canonical id. */
  private bareNames = new Map<string, string>();

  upsert(manifest: AdapterManifest): void {
    this.adapters.set(manifest.adapter_id, { manifest, available: true });
    this.reindex();
  }

  /** Marks which known adapters are on the bus now. */
  setAvailable(onBus: ReadonlySet<string>): void {
    for (const [id, entry] of this.adapters) entry.available = onBus.has(id);
  }

  isKnown(adapterId: string): boolean {
    return this.adapters.has(adapterId);
  }

  isAvailable(adapterId: string): boolean {
    return this.adapters.get(adapterId)?.available ?? false;
  }

  adapterIds(): string[] {
    return [...this.adapters.keys()].sort();
  }

  manifestOf(adapterId: string): AdapterManifest | undefined {
    return this.adapters.get(adapterId)?.manifest;
  }

  tool(id: string): AnnouncedTool | undefined {
    return this.toolsById.get(id);
  }

  /** Number of tools known, available or not. */
  get toolCount(): number {
    return this.toolsById.size;
  }

  /** Canonical id, then a bare name, then a separator alias (a bare name never shadows a canonical id or an alias). */
  resolve(name: string): Resolution {
    const bare = this.bareNames.get(name);
    if (bare) return { kind: 'found', id: bare, alias: false };
    return resolveToolId(name, this.ids, this.aliasIndex);
  }

  list(opts: ListOptions = {}): Listing {
    const members = opts.profile ? new Set(PROFILES.get(opts.profile) ?? []) : undefined;
    const tools: AnnouncedTool[] = [];
    const unavailable = new Set<string>();
    for (const tool of this.toolsById.values()) {
      if (members && !members.has(tool.tool_id)) continue;
      if (opts.capability && tool.capability !== opts.capability && tool.adapter_id !== opts.capability) continue;
      if (this.isAvailable(tool.adapter_id)) tools.push(tool);
      else unavailable.add(tool.adapter_id);
    }
    const listed = new Set(tools.map((t) => t.tool_id));
    const profileMissing = members ? [...members].filter((id) => !listed.has(id)) : [];
    return { tools, unavailableAdapters: [...unavailable].sort(), profileMissing };
  }

  /** Finds tools by words in their id, title and description; every word must appear somewhere. */
  search(query: string, limit = 10): SearchHit[] {
    const words = query
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 1);
    if (!words.length) return [];
    const hits: SearchHit[] = [];
    for (const t of this.toolsById.values()) {
      const id = t.tool_id.toLowerCase().replace(/[._]/g, ' ');
      const text = `${t.title ?? ''} ${t.description}`.toLowerCase();
      let score = 0;
      let all = true;
      for (const w of words) {
        const inId = id.includes(w);
        const inText = text.includes(w);
        if (!inId && !inText) all = false;
        score += (inId ? 3 : 0) + (inText ? 1 : 0);
      }
      if (all)
        hits.push({
          tool_id: t.tool_id,
          title: t.title ?? t.name,
          description: t.description,
          score,
          available: this.isAvailable(t.adapter_id),
        });
    }
    return hits.sort((a, b) => b.score - a.score || a.tool_id.localeCompare(b.tool_id)).slice(0, limit);
  }

  private reindex(): void {
    this.toolsById = new Map();
    for (const { manifest } of this.adapters.values()) for (const t of manifest.tools) this.toolsById.set(t.tool_id, t);
    this.ids = new Set(this.toolsById.keys());
    this.aliasIndex = buildAliasIndex(this.ids);
    this.bareNames = new Map();
    const wanted = [...this.toolsById.values()].filter((t) => t.bare_name);
    for (const t of wanted) {
      const clash =
        this.toolsById.has(t.name) ||
        this.aliasIndex.has(aliasKey(t.name)) ||
        wanted.some((o) => o !== t && o.name === t.name);
      if (clash) this.toolsById.set(t.tool_id, { ...t, bare_name: false });
      else this.bareNames.set(t.name, t.tool_id);
    }
  }
}
