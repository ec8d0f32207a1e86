/** The gateway's sign-in settings (`GET /v1/auth/config`, decision 0120), read once per gateway address. */
import { useQuery } from '@tanstack/react-query';
import type { AuthConfig } from '../../../contracts/auth-config.ts';
import { api, gatewayAddress } from '../api/gateway.ts';

export const authConfigQuery = () => ({
  queryKey: ['auth-config', gatewayAddress()],
  queryFn: ({ signal }: { signal: AbortSignal }) => api<AuthConfig>('/v1/auth/config', { signal }),
  staleTime: Infinity,
});

/** The settings; an older gateway without the route reads as no sign-in (the dashboard works as before). */
export function useAuthConfig(): AuthConfig | undefined {
  const q = useQuery(authConfigQuery());
  if (q.isError) return { sign_in: false };
  return q.data;
}
