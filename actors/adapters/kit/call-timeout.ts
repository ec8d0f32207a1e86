/**
 * The longest one call to an adapter may run, in seconds: a caller's longer `timeout_seconds` is cut to it by the kit.
 * It bounds how long the adapter's node may take to drain on SIGTERM (issue 20), so each adapter Deployment's
 * `terminationGracePeriodSeconds` and SERVICE_DRAIN_TIMEOUT_MS in k8s/ are set from it (test/unit/k8s-drain.test.ts).
 */
export const CALL_TIMEOUT_CEILING_S = 3600; // the most `timeout_seconds` accepts (contracts/tools.ts)

/** Adapters whose calls are cut shorter than the ceiling: the solver's run_fea may run 20 minutes (mech flow: 1200 s). */
export const ADAPTER_CALL_TIMEOUT_S: Readonly<Record<string, number>> = { solver: 1200 };

/** The longest call of adapter `id`, seconds. */
export function adapterCallTimeoutSeconds(id: string): number {
  return ADAPTER_CALL_TIMEOUT_S[id] ?? CALL_TIMEOUT_CEILING_S;
}
