import type moleculer from 'moleculer';
import type { Logger } from './logger.ts';

/** What one actor's drain did: calls running when it began, finished in time, aborted at the deadline, refused meanwhile. */
export interface DrainReport {
  adapter: string;
  in_flight: number;
  finished: number;
  aborted: number;
  refused: number;
}

/**
 * A service that can drain (the adapter kit's actors): refuse new calls retryably, let the running ones finish for up to
 * `timeoutMs`, abort the rest. Found on the broker's local services by this method name.
 */
export interface Drainable {
  drainCalls(timeoutMs: number): Promise<DrainReport>;
}

const isDrainable = <S extends { name: string }>(svc: S): svc is S & Drainable =>
  typeof (svc as Partial<Drainable>).drainCalls === 'function';

/**
 * The first half of a graceful stop (issue 20), run before `broker.stop()` while the node is still fully on the bus:
 * 1. leave the balancer: an INFO packet listing this node's services with their events but no actions, so other nodes
 *    stop sending it calls yet still send it events, a client's cancellation of a call it runs among them
 *    (`broker.stop()` itself first sends an INFO with no services at all, after which no event arrives either);
 * 2. drain every drainable actor, in parallel, up to `timeoutMs`.
 * Then `broker.stop()` leaves the bus. Embedded (no transporter) there is no balancer to leave; the drain still runs.
 */
export async function drainNode(broker: moleculer.ServiceBroker, timeoutMs: number, log: Logger): Promise<void> {
  const actors = broker.services.filter(isDrainable);
  if (broker.transit) {
    const registry = broker.registry as unknown as {
      regenerateLocalRawInfo(incSeq: boolean, isStopping: boolean): { services: Record<string, unknown>[] };
      nodes: { localNode: { rawInfo: unknown } };
      localNodeInfoInvalidated: unknown;
      discoverer: { sendLocalNodeInfo(): Promise<void> };
    };
    // Moleculer's own INFO (a new seq, so every node takes it), its services' actions left out; sent as it is because
    // the discoverer answers with the local node's rawInfo until a service is added or removed (none is, from here).
    const info = registry.regenerateLocalRawInfo(true, false);
    registry.localNodeInfoInvalidated = false;
    registry.nodes.localNode.rawInfo = { ...info, services: info.services.map((svc) => ({ ...svc, actions: {} })) };
    await registry.discoverer.sendLocalNodeInfo();
  }
  if (!actors.length) return;
  log.info({ adapters: actors.map((a) => a.name), timeout_ms: timeoutMs }, 'node_draining');
  const reports = await Promise.all(actors.map((a) => a.drainCalls(timeoutMs)));
  for (const r of reports) {
    if (r.aborted) log.warn(r, 'adapter_drain_deadline: calls still running were aborted (TOOL_UNAVAILABLE)');
    else log.info(r, 'adapter_drained');
  }
}
