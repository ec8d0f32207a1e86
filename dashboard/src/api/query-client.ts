import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './gateway.ts';

/**
 * The query cache (SPEC: the dashboard's server state): a refused request (4xx) is not retried, an unreachable gateway
 * is retried once; Settings clears the cache when the gateway address changes. Route loaders prefetch into it.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 2_000,
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1,
      refetchOnWindowFocus: true,
    },
  },
});
