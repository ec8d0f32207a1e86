import type { KnowledgeChanged, TwinChanged } from '../../contracts/actions/change-events.ts';
import type { Logger } from '../../brokers/logger.ts';
import { Uris } from './resources/uris.ts';

/** Sends one notification to a client; false when it could not leave. */
export type Notify = (method: string, params: Record<string, unknown>) => boolean;

/** The resource URIs a twin change may have changed (a project's lists, the items' heads and files, the nodes). */
export function urisOfTwinChange(c: TwinChanged): string[] {
  if (!c.project_id) return [];
  const project_id = c.project_id;
  const uris = [Uris.workProducts.expand({ project_id }), Uris.simResults.expand({ project_id })];
  for (const i of c.items) {
    uris.push(Uris.workProduct.expand({ project_id, item_key: i.key }));
    uris.push(Uris.workProductFile.expand({ project_id, item_key: i.key }));
  }
  for (const n of c.nodes) uris.push(Uris.simResult.expand({ project_id, result_id: n.id }));
  return uris.filter((u): u is string => u !== undefined);
}

/** A twin change adds resources to the list when it makes a new item or a new simulation result. */
export const twinChangeAddsResources = (c: TwinChanged): boolean =>
  c.project_id !== null &&
  (c.items.some((i) => i.revision === 1) || c.nodes.some((n) => n.node_type === 'simulation_result'));

/**
 * Tells the sessions this node can reach about resource changes (MCP "Resource subscriptions", "List changed"):
 * `notifications/resources/updated {uri}` to a session subscribed to that URI, `notifications/resources/list_changed`
 * to every reachable session. A session is reachable while its `GET /mcp` stream (or stdio) is attached here; the
 * subscriptions themselves live in the session store, so the node holding the stream delivers, whichever node took
 * the `resources/subscribe`. Best effort: a session with no stream open misses the notification.
 */
export class ResourceUpdates {
  private readonly sinks = new Map<string, Set<Notify>>();
  private readonly subscriptionsOf: (sessionId: string) => Promise<string[]>;
  private readonly log: Logger;

  constructor(subscriptionsOf: (sessionId: string) => Promise<string[]>, log: Logger) {
    this.subscriptionsOf = subscriptionsOf;
    this.log = log;
  }

  /** Makes a session reachable through `notify` until the returned function is called (its stream closed). */
  attach(sessionId: string, notify: Notify): () => void {
    const set = this.sinks.get(sessionId) ?? new Set<Notify>();
    set.add(notify);
    this.sinks.set(sessionId, set);
    return () => {
      set.delete(notify);
      if (set.size === 0 && this.sinks.get(sessionId) === set) this.sinks.delete(sessionId);
    };
  }

  /** Sends `updated` for each URI to the reachable sessions subscribed to it; resolves with how many were sent. */
  async updated(uris: readonly string[]): Promise<number> {
    if (!uris.length || !this.sinks.size) return 0;
    const changed = new Set(uris);
    let sent = 0;
    await Promise.all(
      [...this.sinks].map(async ([sessionId, notifiers]) => {
        const subs = await this.subscriptionsOf(sessionId).catch((err: unknown) => {
          this.log.warn({ err, session: sessionId }, 'mcp subscriptions not read');
          return [];
        });
        for (const uri of subs) {
          if (!changed.has(uri)) continue;
          for (const notify of notifiers) if (notify('notifications/resources/updated', { uri })) sent += 1;
        }
      }),
    );
    return sent;
  }

  /** Tells every reachable session that the resource list changed. */
  listChanged(): void {
    for (const notifiers of this.sinks.values())
      for (const notify of notifiers) notify('notifications/resources/list_changed', {});
  }

  /** A twin change: the URIs it touched, and the list when it added resources. */
  async twinChanged(c: TwinChanged): Promise<void> {
    if (twinChangeAddsResources(c)) this.listChanged();
    await this.updated(urisOfTwinChange(c));
  }

  /** A new knowledge source: the sources list changed. */
  async knowledgeChanged(_c: KnowledgeChanged): Promise<void> {
    this.listChanged();
    await this.updated([Uris.sources.template]);
  }
}
