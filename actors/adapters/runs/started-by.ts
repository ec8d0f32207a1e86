import type { Caller } from '../../../contracts/actions/adapters.actions.ts';
import { startedByOf, type StartedBy } from '../../../contracts/principal.ts';

/**
 * Who starts a run through `flow.start_run` (decision 0113): the session's verified OAuth principal; else the client's
 * self-declared name (the shared key, stdio), recorded unverified; a caller naming neither records no one.
 */
export function startedByOfCaller(c: Caller): { started_by: StartedBy | null; started_via: 'mcp' } {
  if (c.principal) return { started_by: startedByOf(c.principal, 'mcp'), started_via: 'mcp' };
  if (!c.client) return { started_by: null, started_via: 'mcp' };
  return {
    started_by: { subject: c.client, client_id: null, kind: null, verified: false, surface: 'mcp' },
    started_via: 'mcp',
  };
}
