/** The header's gateway chip: Connecting, Connected or Unavailable from `GET /health` (SPEC dashboard rules). */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/gateway.ts';
import type { HealthRollup } from '../../../contracts/health.ts';

export function useHealth() {
  return useQuery({
    queryKey: ['health'],
    queryFn: ({ signal }) => api<HealthRollup>('/health', { signal }),
    refetchInterval: 5_000,
    retry: false,
  });
}

export function HealthChip() {
  const health = useHealth();
  const state = health.isError ? 'Unavailable' : health.isSuccess ? 'Connected' : 'Connecting';
  const tone = state === 'Connected' ? 'ok' : state === 'Unavailable' ? 'bad' : 'wait';
  const title = health.isError ? (health.error as Error).message : health.data ? `health: ${health.data.status}` : '';
  return (
    <span className={`chip ${tone}`} data-testid="gateway-chip" role="status" aria-live="polite" title={title}>
      Gateway: {state}
    </span>
  );
}
