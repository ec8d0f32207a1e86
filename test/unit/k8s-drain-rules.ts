import { adapterCallTimeoutSeconds } from '../../actors/adapters/kit/call-timeout.ts';
import type { Y } from './k8s-support.ts';

/**
 * The drain rule of one rendered overlay (issue 20; k8s-rules.ts `check` calls `checkDrain`): a pod of an adapter
 * Deployment that hosts kit adapters (`adapter:<id>` roles) drains on SIGTERM for SERVICE_DRAIN_TIMEOUT_MS, which must
 * cover the longest call of its adapters (actors/adapters/kit/call-timeout.ts), and Kubernetes must wait longer than
 * that before it kills the pod (`terminationGracePeriodSeconds`), leaving the node time to abort the rest, answer and
 * leave the bus. Set in the manifests as the call timeout + DRAIN_MARGIN_S, and the drain + EXIT_MARGIN_S.
 */
export const DRAIN_MARGIN_S = 15;
export const EXIT_MARGIN_S = 30;

/** A pod of an adapter Deployment: its name, role names, pod spec and where to report it. */
export interface DrainPod {
  roles: string[];
  spec: Y;
  container: Y;
  where: string;
}

/** The longest call of the kit adapters a pod hosts, seconds; undefined when it hosts none. */
export function longestCallSeconds(roles: string[]): number | undefined {
  const ids = roles.filter((r) => r.startsWith('adapter:')).map((r) => r.slice('adapter:'.length));
  return ids.length ? Math.max(...ids.map(adapterCallTimeoutSeconds)) : undefined;
}

export function checkDrain(pods: DrainPod[], v: string[]): void {
  for (const p of pods) {
    const call = longestCallSeconds(p.roles);
    if (call === undefined) continue;
    const env: Y[] = p.container?.env ?? [];
    const raw = env.find((e) => e?.name === 'SERVICE_DRAIN_TIMEOUT_MS')?.value;
    const drainS = Number(raw) / 1000;
    const grace = p.spec?.terminationGracePeriodSeconds ?? 30;
    if (raw === undefined || !Number.isFinite(drainS)) {
      v.push(`${p.where}: no SERVICE_DRAIN_TIMEOUT_MS (its longest call is ${call} s)`);
      continue;
    }
    if (drainS < call + DRAIN_MARGIN_S)
      v.push(
        `${p.where}: SERVICE_DRAIN_TIMEOUT_MS ${raw} is shorter than its longest call ${call} s + ${DRAIN_MARGIN_S} s`,
      );
    if (grace < drainS + EXIT_MARGIN_S)
      v.push(
        `${p.where}: terminationGracePeriodSeconds ${grace} does not cover the drain ${drainS} s + ${EXIT_MARGIN_S} s`,
      );
  }
}
