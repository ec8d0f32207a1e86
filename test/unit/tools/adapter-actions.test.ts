import { describe, expect, it } from 'vitest';
import { adapterActions } from '../../../contracts/actions/adapters.actions.ts';

describe('adapter action contracts', () => {
  it('are built once per adapter id (every tool call dispatches through them) and name that adapter', () => {
    expect(adapterActions('project')).toBe(adapterActions('project'));
    expect(adapterActions('project').invoke.action).toBe('adapters.project.invoke');
    expect(adapterActions('twin')).not.toBe(adapterActions('project'));
    expect(adapterActions('twin').manifest.action).toBe('adapters.twin.manifest');
  });
});
