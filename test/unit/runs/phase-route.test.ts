import { describe, expect, it } from 'vitest';
import { brainRole, brainRoles, phaseModelOf, routeHint } from '../../../actors/runs/phase-route.ts';
import { parseRoute } from '../../../actors/harness/config/routing.ts';

// The phase brain's routing names (actors/runs/phase-route.ts) share the harness's vocabulary (contracts/harness.ts):
// the same variable names and the same `provider:model` split as the harness's own route parsing.
describe('the phase brain route', () => {
  it('is routed by the first discipline when that makes a role, else by phase_brain', () => {
    expect(brainRole({ disciplines: ['firmware', 'electronics'] })).toBe('phase_brain:firmware');
    expect(brainRole({ disciplines: [] })).toBe('phase_brain');
    expect(brainRole({ disciplines: ['Not A Role!'] })).toBe('phase_brain');
    expect(brainRoles({ disciplines: ['firmware', 'Not A Role!', 'electronics', 'firmware'] })).toEqual([
      'phase_brain:firmware',
      'phase_brain:electronics',
    ]);
    expect(brainRoles({ disciplines: [] })).toEqual(['phase_brain']);
  });

  it("reads the phase's model as the harness reads a route (the model may hold colons)", () => {
    for (const text of ['ollama:llama3.1:8b', 'openai: gpt-4o ', 'anthropic:claude']) {
      const route = parseRoute(text);
      expect(phaseModelOf({ model: text })).toEqual('invalid' in route ? undefined : route);
    }
    expect(phaseModelOf({ model: 'ollama:' })).toBeUndefined();
    expect(phaseModelOf({ model: ':m' })).toBeUndefined();
    expect(phaseModelOf({})).toBeUndefined();
  });

  it('names the variables of the role and of the role it falls back to', () => {
    expect(routeHint('phase_brain:thermal-fluid')).toMatch(
      /^configure a route with SERVICE_ROUTE_PHASE_BRAIN_THERMAL_FLUID=<provider>:<model> or SERVICE_ROUTE_PHASE_BRAIN, /,
    );
    expect(routeHint('phase_brain')).toMatch(
      /^configure a route with SERVICE_ROUTE_PHASE_BRAIN=<provider>:<model>, the /,
    );
  });
});
