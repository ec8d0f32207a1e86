import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { overlays, render } from './k8s-render.ts';
import { MODELS, validate } from './k8s-schemas.ts';
import { doc, load, type Tree, type Y } from './k8s-support.ts';

/**
 * Every overlay is rendered (k8s-render.ts) and each object it renders to is validated against the Kubernetes API's
 * schemas and the KEDA and Prometheus-operator CRD schemas (k8s-schemas.ts); zero errors. The mutation cases prove the
 * schemas bite on what the project rules (k8s-rules.ts) leave to them. Where kubectl is installed, the renderer's
 * output is compared with `kubectl kustomize` object by object.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const K8S = path.join(ROOT, 'k8s');
const tree = load(K8S);

/** Every overlay's render errors and schema violations, each prefixed with its overlay. */
function violations(t: Tree): string[] {
  return overlays(t).flatMap((o) => {
    const { resources, errors } = render(t, o);
    return [...errors, ...validate(resources)].map((x) => `${o}: ${x}`);
  });
}

/** Object key order and YAML styles aside, the same value. */
const canon = (v: Y): Y =>
  Array.isArray(v)
    ? v.map(canon)
    : v !== null && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canon(v[k])]),
        )
      : v;

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

describe('k8s manifests against the Kubernetes, KEDA and Prometheus-operator schemas', () => {
  it('two overlays: dev on the CPU HPAs, prod on KEDA with the Prometheus-operator objects', () => {
    expect(overlays(tree)).toEqual(['overlays/dev', 'overlays/prod']);
    const kinds = (o: string) => render(tree, o).resources.map((r) => r.doc.kind);
    expect(kinds('overlays/dev').filter((k) => k === 'HorizontalPodAutoscaler')).toHaveLength(7);
    expect(kinds('overlays/dev')).not.toContain('ScaledObject');
    expect(kinds('overlays/prod').filter((k) => k === 'ScaledObject')).toHaveLength(7);
    expect(kinds('overlays/prod').filter((k) => k === 'HorizontalPodAutoscaler')).toHaveLength(1);
    expect(kinds('overlays/prod')).toEqual(expect.arrayContaining(['ServiceMonitor', 'PrometheusRule']));
  });

  it('render without error and validate with zero errors', () => {
    expect(violations(tree)).toEqual([]);
  });

  it('the schema packages are pinned to exact versions', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    for (const name of ['kubernetes-models', '@kubernetes-models/keda', '@kubernetes-models/prometheus-operator'])
      expect(pkg.devDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Object.keys(MODELS)).toHaveLength(13);
  });

  it.skipIf(!hasKubectl)(
    'render as kubectl kustomize does',
    () => {
      for (const o of overlays(tree)) {
        const out = spawnSync('kubectl', ['kustomize', path.join(K8S, o)], { encoding: 'utf8' });
        expect(out.status, out.stderr).toBe(0);
        const theirs = parseAllDocuments(out.stdout, { version: '1.1' }).map((d) => canon(d.toJS()));
        const ours = render(tree, o).resources.map((r) => canon(r.doc));
        const byKey = (docs: Y[]) => new Map(docs.map((d) => [`${d.kind}/${d.metadata.name}`, d]));
        expect(byKey(ours), o).toEqual(byKey(theirs));
      }
    },
    60_000,
  );

  const container = (t: Tree, name: string): Y => doc(t, 'Deployment', name).spec.template.spec.containers[0];
  const mutations: { name: string; mutate: (t: Tree) => void; expect: RegExp }[] = [
    {
      name: 'a document without apiVersion',
      mutate: (t) => void delete doc(t, 'Service', 'redis').apiVersion,
      expect: /base\/redis\.yaml: Service redis: no schema for apiVersion undefined kind Service/,
    },
    {
      name: 'a removed API version',
      mutate: (t) => void (doc(t, 'HorizontalPodAutoscaler', 'adapter-web').apiVersion = 'autoscaling/v2beta2'),
      expect: /overlays\/dev: .*no schema for apiVersion autoscaling\/v2beta2 kind HorizontalPodAutoscaler/,
    },
    {
      name: 'replicas as a string',
      mutate: (t) => void (doc(t, 'Deployment', 'tools').spec.replicas = 'two'),
      expect: /Deployment tools: data\/spec\/replicas must be integer/,
    },
    {
      name: 'a container without a name',
      mutate: (t) => void delete container(t, 'twin').name,
      expect: /Deployment twin: data\/spec\/template\/spec\/containers\/0 must have required property name/,
    },
    {
      name: 'a malformed memory quantity',
      mutate: (t) => void (container(t, 'adapter-circuit').resources.limits.memory = '1 gig'),
      expect: /limits\/memory must match format "quantity"/,
    },
    {
      name: 'an unknown pull policy',
      mutate: (t) => void (container(t, 'gateway').imagePullPolicy = 'Sometimes'),
      expect: /imagePullPolicy must be equal to one of the allowed values/,
    },
    {
      name: 'a NetworkPolicy port on an unknown protocol',
      mutate: (t) => void (doc(t, 'NetworkPolicy', 'adapters-egress').spec.egress[0].ports[0].protocol = 'TCPX'),
      expect: /NetworkPolicy adapters-egress: data\/spec\/egress\/0\/ports\/0\/protocol must be equal to one of/,
    },
    {
      name: 'a KEDA trigger without a type',
      mutate: (t) => void delete doc(t, 'ScaledObject', 'adapter-solver').spec.triggers[1].type,
      expect: /overlays\/prod: .*ScaledObject adapter-solver: data\/spec\/triggers\/1 must have required property type/,
    },
    {
      name: 'a ScaledObject without its target',
      mutate: (t) => void delete doc(t, 'ScaledObject', 'firmware').spec.scaleTargetRef,
      expect: /ScaledObject firmware: data\/spec must have required property scaleTargetRef/,
    },
    {
      name: 'an alert rule without expr',
      mutate: (t) => void delete doc(t, 'PrometheusRule', 'eds-alerts').spec.groups[0].rules[0].expr,
      expect: /PrometheusRule eds-alerts: data\/spec\/groups\/0\/rules\/0 must have required property expr/,
    },
    {
      name: 'a scrape interval that is no duration',
      mutate: (t) => void (doc(t, 'ServiceMonitor', 'gateway').spec.endpoints[0].interval = 'soon'),
      expect: /ServiceMonitor gateway: data\/spec\/endpoints\/0\/interval must match pattern/,
    },
    {
      name: 'a component patch for an object the base lacks',
      mutate: (t) => void (doc(t, 'HorizontalPodAutoscaler', 'adapter-eda').metadata.name = 'adapter-eda-cpu'),
      expect:
        /overlays\/prod: components\/keda\/kustomization\.yaml: patch for HorizontalPodAutoscaler\/adapter-eda matches no resource/,
    },
  ];

  it.each(mutations)('catches: $name', ({ mutate, expect: pattern }) => {
    const t = structuredClone(tree);
    mutate(t);
    expect(violations(t).join('\n')).toMatch(pattern);
  });
});
