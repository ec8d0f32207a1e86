import { describe, expect, it } from 'vitest';
import { startedByOfCaller } from '../../../../actors/adapters/runs/started-by.ts';

// Decision 0113 amended: who `flow.start_run` records as the run's starter, from the tool call's caller only.
describe('startedByOfCaller', () => {
  it("an OAuth session records its verified principal's subject, client and kind, surface mcp", () => {
    const principal = { subject: 'person-b', client_id: 'cli-app', scopes: ['mcp:write'], kind: 'person' as const };
    expect(startedByOfCaller({ kind: 'remote', transport: 'http', client: 'claude', principal })).toEqual({
      started_by: { subject: 'person-b', client_id: 'cli-app', kind: 'person', verified: true, surface: 'mcp' },
      started_via: 'mcp',
    });
  });

  it("a shared-key or stdio session records its client's self-declared name, unverified; no name records no one", () => {
    expect(startedByOfCaller({ kind: 'stdio', transport: 'stdio', client: 'my-agent' })).toEqual({
      started_by: { subject: 'my-agent', client_id: null, kind: null, verified: false, surface: 'mcp' },
      started_via: 'mcp',
    });
    expect(startedByOfCaller({ kind: 'remote', transport: 'http' })).toEqual({ started_by: null, started_via: 'mcp' });
  });
});
