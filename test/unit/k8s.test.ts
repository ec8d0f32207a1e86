import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { roleTable } from '../../brokers/launcher/roles.ts';
import { NETWORK_MUTATIONS } from './k8s-mutations-network.ts';
import { MUTATIONS } from './k8s-mutations.ts';
import { check } from './k8s-rules.ts';
import { doc, EXPECTED_DEPLOYMENTS, IMAGE, load, type Tree, type Y } from './k8s-support.ts';

/**
 * The Kubernetes manifests in k8s/ are validated here, never applied: every YAML document is parsed, the
 * kustomizations checked, and each overlay rendered (k8s-render.ts) and checked for the structure the cluster needs
 * (selectors matching, one autoscaler per adapter Deployment, HPA or KEDA ScaledObject, every launcher role hosted by
 * exactly one Deployment) and for the spec's isolation rules (SPEC "Limits": read-only root, tmpfs /tmp, limits, no
 * privilege escalation, no network for adapters but what their roles need). `check` (k8s-rules.ts) returns every
 * violation; the mutation cases below prove that each rule bites. Schemas: k8s-schemas.test.ts.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const K8S = path.join(ROOT, 'k8s');

/** The launcher's roles (brokers/launcher/roles.ts), without the test-only conformance fixtures. */
const ROLES = roleTable({}, {}).map((r) => r.name);
const tree = load(K8S);

describe('k8s manifests', () => {
  it('parse, and pass every rule', () => {
    expect(tree.docs.size).toBeGreaterThan(5);
    expect(check(tree, ROLES)).toEqual([]);
  });

  it('the launcher has the roles the manifests group', () => {
    expect(ROLES).toContain('gateway');
    expect(ROLES).not.toContain('all');
    const hosted = Object.values(EXPECTED_DEPLOYMENTS).flatMap((d) => d.roles.split(','));
    expect([...hosted].sort()).toEqual([...ROLES].sort());
  });

  it('the overlays pin their image tag and replicas', () => {
    const dev = doc(tree, 'Kustomization', 'eds-dev');
    const prod = doc(tree, 'Kustomization', 'eds-prod');
    expect(dev.images).toContainEqual({ name: IMAGE, newTag: 'dev' });
    expect(prod.images).toContainEqual({ name: IMAGE, newTag: '0.1.0' });
    for (const r of dev.replicas) expect(r.count, r.name).toBe(1);
    expect(dev.replicas.map((r: Y) => r.name).sort()).toEqual(Object.keys(EXPECTED_DEPLOYMENTS).sort());
    expect(prod.replicas).toContainEqual({ name: 'gateway', count: 2 });
    const prodFiles = prod.resources.map((f: string) => `overlays/prod/${f}`);
    const gatewayHpa = [...tree.docs]
      .filter(([f]) => prodFiles.includes(f))
      .flatMap(([, d]) => d)
      .find((d) => d.kind === 'HorizontalPodAutoscaler');
    expect(gatewayHpa?.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'gateway' });
  });

  it('no manifest speaks of future roles; the eda adapter has its Deployment and autoscaler', () => {
    for (const file of tree.files) {
      const text = fs.readFileSync(path.join(K8S, file), 'utf8');
      expect(text, file).not.toMatch(/future|later issues|until (then|a role exists)/i);
    }
    expect(doc(tree, 'Deployment', 'adapter-eda').spec.template.spec.containers[0].args).toEqual([
      '--roles',
      'adapter:eda',
    ]);
    expect(doc(tree, 'HorizontalPodAutoscaler', 'adapter-eda').spec.scaleTargetRef.name).toBe('adapter-eda');
  });

  it('the Dockerfile builds the runtime image the manifests expect', () => {
    const text = fs.readFileSync(path.join(K8S, 'Dockerfile'), 'utf8');
    expect(text).toMatch(/^FROM node:22-slim\s*$/m);
    expect(text).toMatch(/apt-get install -y[^\n]*\bcalculix-ccx\b[^\n]*\bgmsh\b[^\n]*\bngspice\b/);
    expect(text).toMatch(/npm ci --omit=dev/);
    expect(text).toMatch(/^USER 10001(:10001)?\s*$/m);
    expect(text).toMatch(/^ENTRYPOINT \["node", "brokers\/launcher\/service\.js"\]\s*$/m);
    for (const m of text.matchAll(/^COPY (?!--)(\S+) /gm)) {
      for (const src of m[1].split(' ')) expect(fs.existsSync(path.join(ROOT, src)), src).toBe(true);
    }
  });

  it.each([...MUTATIONS, ...NETWORK_MUTATIONS])('catches: $name', ({ mutate, expect: pattern }) => {
    const t = structuredClone(tree);
    const roles = [...ROLES];
    mutate(t, roles);
    expect(check(t, roles).join('\n')).toMatch(pattern);
  });
});
