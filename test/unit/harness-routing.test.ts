import { describe, expect, it } from 'vitest';
import { modelFits, modelMismatch } from '../../actors/harness/config/model-fit.ts';
import { providerInfo } from '../../actors/harness/config/providers.ts';
import {
  parseRoute,
  resolveRoute,
  rolesNamed,
  routeVarName,
  strayRouteVars,
  type RouteSources,
} from '../../actors/harness/config/routing.ts';

// SPEC "Chat and harness rules" 10-11: the routing precedence as a pure function, the variable names, the model-fit
// rule of the families, and invalid routes that are errors rather than skipped.

const ref = (s: string) => parseRoute(s);
const all: RouteSources = {
  explicit: ref('openai:gpt-explicit'),
  phase: ref('openai:gpt-phase'),
  project: { chat: ref('openai:gpt-project') },
  file: { chat: ref('openai:gpt-file') },
  env: { SERVICE_ROUTE_CHAT: 'openai:gpt-env' },
  selection: { provider: 'openai', model: 'gpt-selection' },
};
const without = (...keys: (keyof RouteSources)[]): RouteSources =>
  Object.fromEntries(Object.entries(all).filter(([k]) => !keys.includes(k as keyof RouteSources)));

describe('resolveRoute precedence (rule 11)', () => {
  const cases: [string, RouteSources, string, string][] = [
    ['explicit per-call model first', all, 'explicit', 'gpt-explicit'],
    ['then the phase model', without('explicit'), 'phase', 'gpt-phase'],
    ['then the project routes', without('explicit', 'phase'), 'project', 'gpt-project'],
    ['then the routes file', without('explicit', 'phase', 'project'), 'file', 'gpt-file'],
    ['then SERVICE_ROUTE_<ROLE>', without('explicit', 'phase', 'project', 'file'), 'env', 'gpt-env'],
    ['then the selection', without('explicit', 'phase', 'project', 'file', 'env'), 'selection', 'gpt-selection'],
  ];
  it.each(cases)('%s', (_name, sources, source, model) => {
    expect(resolveRoute('chat', sources)).toMatchObject({ ok: true, provider: 'openai', model, source });
  });

  it('a route of another role does not apply; the role runs on the selection', () => {
    const r = resolveRoute('gate_check', without('explicit', 'phase'));
    expect(r).toMatchObject({ ok: true, source: 'selection', model: 'gpt-selection' });
  });

  it('phase_brain:<discipline> beats phase_brain within a source, and falls back to it', () => {
    const sources: RouteSources = {
      file: { phase_brain: ref('anthropic:claude-file'), 'phase_brain:mechanical': ref('anthropic:claude-mech') },
      env: { SERVICE_ROUTE_PHASE_BRAIN_ELECTRICAL: 'openai:gpt-elec' },
    };
    expect(resolveRoute('phase_brain:mechanical', sources)).toMatchObject({ model: 'claude-mech', source: 'file' });
    expect(resolveRoute('phase_brain:thermal', sources)).toMatchObject({ model: 'claude-file', source: 'file' });
    // the file's plain phase_brain ranks above the environment's specific route: the source decides first
    expect(resolveRoute('phase_brain:electrical', sources)).toMatchObject({ model: 'claude-file', source: 'file' });
    expect(resolveRoute('phase_brain:electrical', { env: sources.env })).toMatchObject({ source: 'env' });
  });

  it('names the variable: role upper-cased, : and - as _', () => {
    expect(routeVarName('chat')).toBe('SERVICE_ROUTE_CHAT');
    expect(routeVarName('phase_brain:thermal-fluid')).toBe('SERVICE_ROUTE_PHASE_BRAIN_THERMAL_FLUID');
    expect(
      resolveRoute('phase_brain:thermal-fluid', { env: { SERVICE_ROUTE_PHASE_BRAIN_THERMAL_FLUID: 'x:m' } }),
    ).toMatchObject({ ok: true, provider: 'x', model: 'm', source: 'env' });
  });

  it('keeps colons of the model name (ollama tags)', () => {
    expect(parseRoute('ollama:llama3.1:8b')).toEqual({ provider: 'ollama', model: 'llama3.1:8b' });
    expect(parseRoute({ provider: 'anthropic', model: 'claude-x' })).toEqual({
      provider: 'anthropic',
      model: 'claude-x',
    });
  });
});

describe('invalid routes are errors, never dropped', () => {
  it.each([
    ['no colon', 'gpt-4o'],
    ['empty model', 'openai:'],
    ['bad provider id', 'Open AI:gpt-4o'],
    ['not a string', 42],
  ])('%s in the environment', (_n, value) => {
    const r = resolveRoute('chat', {
      env: { SERVICE_ROUTE_CHAT: value as string },
      selection: { provider: 'openai', model: 'gpt-4o' },
    });
    expect(r).toMatchObject({ ok: false, kind: 'invalid', source: 'env' });
    if (!r.ok) expect(r.message).toMatch(/routing configuration error: .*SERVICE_ROUTE_CHAT/);
  });

  it('an unusable routes file is an error for every role it could route', () => {
    const r = resolveRoute('summarisation', {
      fileError: 'routes file /x is not JSON',
      selection: { provider: 'openai', model: 'gpt-4o' },
    });
    expect(r).toMatchObject({ ok: false, kind: 'invalid', source: 'file' });
  });

  it('an explicit invalid route is an error even when a table route exists', () => {
    expect(resolveRoute('chat', { ...all, explicit: parseRoute('nonsense') })).toMatchObject({
      ok: false,
      source: 'explicit',
    });
  });

  it('an unknown role, and a role with no route and no selection, are errors naming what to set', () => {
    expect(resolveRoute('wizard', all)).toMatchObject({ ok: false, kind: 'invalid' });
    const r = resolveRoute('chat', {});
    expect(r).toMatchObject({ ok: false, kind: 'unrouted' });
    if (!r.ok) expect(r.message).toMatch(/PUT \/v1\/harness\/selection.*SERVICE_ROUTE_CHAT/);
  });

  it('stray SERVICE_ROUTE_* variables are reported; discipline variables name roles', () => {
    const env = { SERVICE_ROUTE_CHAT: 'a:b', SERVICE_ROUTE_CHATS: 'a:b', SERVICE_ROUTE_PHASE_BRAIN_OPTICS: 'a:b' };
    expect(strayRouteVars(env)).toEqual(['SERVICE_ROUTE_CHATS']);
    expect(rolesNamed({ env })).toContain('phase_brain:optics');
  });
});

describe('model fit (rule 10) and the mismatch fallback', () => {
  const openai = providerInfo('openai', null);
  const anthropic = providerInfo('anthropic', null);
  const ollama = providerInfo('ollama', 'http://127.0.0.1:11434/v1');
  const proxied = providerInfo('openai', 'https://gateway.example.com/v1');

  it.each([
    [openai, 'gpt-4o', true],
    [openai, 'o3-mini', true],
    [openai, 'o1', true],
    [openai, 'chatgpt-4o-latest', true],
    [openai, 'claude-sonnet-4-5', false],
    [openai, 'llama3', false],
    [anthropic, 'claude-opus-4-1', true],
    [anthropic, 'gpt-4o', false],
    [ollama, 'claude-sonnet-4-5', true],
    [ollama, 'anything:at-all', true],
    [proxied, 'claude-sonnet-4-5', true],
  ])('%o serves %s: %s', (p, model, fits) => {
    expect(modelFits(p, model)).toBe(fits);
  });

  it('first-party flags and families', () => {
    expect(openai).toMatchObject({
      family: 'openai_compatible',
      base_url: 'https://api.openai.com/v1',
      first_party: true,
    });
    expect(anthropic).toMatchObject({ family: 'anthropic', first_party: true });
    expect(ollama).toMatchObject({ family: 'openai_compatible', first_party: false });
    expect(proxied.first_party).toBe(false);
  });

  it('a mismatching route is passed over for the next source and reported', () => {
    const judge = (r: { provider: string; model: string }) => modelMismatch(providerInfo(r.provider, null), r.model);
    const r = resolveRoute(
      'chat',
      { file: { chat: ref('openai:claude-x') }, selection: { provider: 'anthropic', model: 'claude-y' } },
      judge,
    );
    expect(r).toMatchObject({ ok: true, provider: 'anthropic', model: 'claude-y', source: 'selection' });
    expect(r.passed_over).toEqual([
      expect.objectContaining({ source: 'file', provider: 'openai', reason: 'model_mismatch' }),
    ]);
    // a mismatching selection alone is ignored: nothing serves the role
    expect(resolveRoute('chat', { selection: { provider: 'openai', model: 'claude-y' } }, judge)).toMatchObject({
      ok: false,
      kind: 'unrouted',
    });
  });
});
