import { describe, expect, it } from 'vitest';
import { resolveRoles, roleTable } from '../../brokers/launcher/roles.ts';

const names = (env: NodeJS.ProcessEnv, roles = 'all') => resolveRoles(roles, roleTable({}, env)).map((r) => r.name);

describe('the conformance fixture role', () => {
  it('is part of `all` only when MCP_CONFORMANCE_FIXTURES=1', () => {
    expect(names({ MCP_CONFORMANCE_FIXTURES: '1' })).toContain('adapter:conformance');
    expect(names({})).not.toContain('adapter:conformance');
    expect(names({ MCP_CONFORMANCE_FIXTURES: 'true' })).not.toContain('adapter:conformance');
  });

  it('can be named alone when the variable is set, and is an unknown role otherwise', () => {
    expect(names({ MCP_CONFORMANCE_FIXTURES: '1' }, 'adapter:conformance')).toEqual(['adapter:conformance']);
    expect(() => names({}, 'adapter:conformance')).toThrow(/unknown role adapter:conformance/);
  });

  it('leaves every other role as it was', () => {
    expect(names({ MCP_CONFORMANCE_FIXTURES: '1' }).filter((n) => n !== 'adapter:conformance')).toEqual(names({}));
  });
});
