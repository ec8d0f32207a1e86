import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADAPTER_CALL_TIMEOUT_S } from '../../actors/adapters/kit/call-timeout.ts';
import { roleTable } from '../../brokers/launcher/roles.ts';
import { DRAIN_MARGIN_S, EXIT_MARGIN_S, longestCallSeconds } from './k8s-drain-rules.ts';
import { check } from './k8s-rules.ts';
import { doc, load, type Tree, type Y } from './k8s-support.ts';

/**
 * Issue 20 in the manifests: each adapter Deployment drains for longer than its adapter's longest call and Kubernetes
 * waits longer than the drain (k8s-drain-rules.ts, one of the rules `check` applies to every rendered overlay).
 */
const tree = load(fileURLToPath(new URL('../../k8s', import.meta.url)));
const ROLES = roleTable({}, {}).map((r) => r.name);
const pod = (t: Tree, name: string): Y => doc(t, 'Deployment', name).spec.template.spec;
const drainEnv = (t: Tree, name: string): Y =>
  pod(t, name).containers[0].env.find((e: Y) => e.name === 'SERVICE_DRAIN_TIMEOUT_MS');

describe('k8s adapter drain', () => {
  it('gives the solver its 20-minute run_fea, the drain margin and the exit margin', () => {
    expect(ADAPTER_CALL_TIMEOUT_S.solver).toBe(1200);
    expect(longestCallSeconds(['adapter:solver'])).toBe(1200);
    expect(Number(drainEnv(tree, 'adapter-solver').value)).toBe((1200 + DRAIN_MARGIN_S) * 1000);
    expect(pod(tree, 'adapter-solver').terminationGracePeriodSeconds).toBe(1200 + DRAIN_MARGIN_S + EXIT_MARGIN_S);
    expect(check(tree, ROLES)).toEqual([]);
  });

  const mutations: { name: string; mutate: (t: Tree) => void; expect: RegExp }[] = [
    {
      name: 'the default 30 s grace on the solver',
      mutate: (t) => void (pod(t, 'adapter-solver').terminationGracePeriodSeconds = 30),
      expect: /adapter-solver: terminationGracePeriodSeconds 30 does not cover the drain 1215 s/,
    },
    {
      name: 'no grace period at all (the 30 s default)',
      mutate: (t) => void delete pod(t, 'adapter-cadscript').terminationGracePeriodSeconds,
      expect: /adapter-cadscript: terminationGracePeriodSeconds 30 does not cover/,
    },
    {
      name: 'a drain shorter than the longest call',
      mutate: (t) => void (drainEnv(t, 'adapter-solver').value = '600000'),
      expect: /adapter-solver: SERVICE_DRAIN_TIMEOUT_MS 600000 is shorter than its longest call 1200 s/,
    },
    {
      name: 'no drain timeout',
      mutate: (t) => {
        const c = pod(t, 'adapter-circuit').containers[0];
        c.env = c.env.filter((e: Y) => e.name !== 'SERVICE_DRAIN_TIMEOUT_MS');
      },
      expect: /adapter-circuit: no SERVICE_DRAIN_TIMEOUT_MS \(its longest call is 3600 s\)/,
    },
  ];

  it.each(mutations)('catches: $name', ({ mutate, expect: pattern }) => {
    const t = structuredClone(tree);
    mutate(t);
    expect(check(t, ROLES).join('\n')).toMatch(pattern);
  });
});
