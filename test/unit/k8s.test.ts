import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { roleTable } from '../../brokers/launcher/roles.ts';
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

const container = (t: Tree, name: string): Y => doc(t, 'Deployment', name).spec.template.spec.containers[0];
const podLabels = (t: Tree, name: string): Y => doc(t, 'Deployment', name).spec.template.metadata.labels;
const policy = (t: Tree, name: string): Y => doc(t, 'NetworkPolicy', name);
const adapterPolicy = (t: Tree): Y => policy(t, 'adapters-egress');
const webRule = (t: Tree): Y =>
  policy(t, 'adapter-web-egress').spec.egress.find((r: Y) => r.ports?.some((p: Y) => p.port === 443));
const withoutWorkspace = (t: Tree, name: string) => {
  const c = container(t, name);
  c.volumeMounts = c.volumeMounts.filter((m: Y) => m.mountPath !== '/workspace');
};

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

  /** `mutate` changes a copy of the tree, or of the role list (as if roles.ts had changed). */
  const mutations: { name: string; mutate: (t: Tree, roles: string[]) => void; expect: RegExp }[] = [
    {
      name: 'YAML syntax error',
      mutate: (t) => void t.parseErrors.push('base/x.yaml: bad indentation'),
      expect: /bad indentation/,
    },
    {
      name: 'a listed file is missing',
      mutate: (t) => {
        t.files.delete('base/redis.yaml');
        t.docs.delete('base/redis.yaml');
      },
      expect: /lists redis\.yaml, which does not exist/,
    },
    {
      name: 'a manifest no kustomization lists',
      mutate: (t) => {
        t.files.add('base/extra.yaml');
        t.docs.set('base/extra.yaml', [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' } }]);
      },
      expect: /base\/extra\.yaml: not listed/,
    },
    {
      name: 'a document without metadata.name',
      mutate: (t) => void delete doc(t, 'ConfigMap', 'service-config').metadata.name,
      expect: /no metadata\.name/,
    },
    {
      name: 'a writable root filesystem',
      mutate: (t) => void (container(t, 'gateway').securityContext.readOnlyRootFilesystem = false),
      expect: /readOnlyRootFilesystem/,
    },
    {
      name: 'privilege escalation',
      mutate: (t) => void delete container(t, 'adapter-solver').securityContext.allowPrivilegeEscalation,
      expect: /allowPrivilegeEscalation/,
    },
    {
      name: 'capabilities kept',
      mutate: (t) => void delete container(t, 'projects').securityContext.capabilities,
      expect: /capabilities\.drop/,
    },
    {
      name: 'running as root',
      mutate: (t) => void (container(t, 'twin').securityContext.runAsUser = 0),
      expect: /runAsUser/,
    },
    {
      name: 'runAsNonRoot off',
      mutate: (t) => void (container(t, 'flow').securityContext.runAsNonRoot = false),
      expect: /runAsNonRoot/,
    },
    {
      name: 'no securityContext',
      mutate: (t) => void delete container(t, 'tools').securityContext,
      expect: /readOnlyRootFilesystem/,
    },
    {
      name: 'no memory limit',
      mutate: (t) => void delete container(t, 'knowledge').resources.limits.memory,
      expect: /no memory limit/,
    },
    {
      name: 'no limits at all',
      mutate: (t) => void delete container(t, 'approvals').resources.limits,
      expect: /no cpu limit/,
    },
    {
      name: 'adapter memory off the spec',
      mutate: (t) => void (container(t, 'adapter-solver').resources.limits.memory = '1Gi'),
      expect: /memory limit 1Gi, expected 2048Mi/,
    },
    {
      name: 'adapter cpu off the spec',
      mutate: (t) => void (container(t, 'adapter-web').resources.limits.cpu = '4'),
      expect: /cpu limit 4/,
    },
    {
      name: 'an adapter labelled as an actor (escaping the adapter rules)',
      mutate: (t) => void (podLabels(t, 'adapter-circuit')['app.kubernetes.io/component'] = 'actor'),
      expect: /adapter-circuit: pods are component actor, expected adapter/,
    },
    {
      name: '/tmp not mounted',
      mutate: (t) => void (container(t, 'gateway').volumeMounts = []),
      expect: /\/tmp is not mounted/,
    },
    {
      name: '/tmp on disk',
      mutate: (t) => void (doc(t, 'Deployment', 'adapter-circuit').spec.template.spec.volumes[0].emptyDir = {}),
      expect: /\/tmp is not a 256Mi emptyDir/,
    },
    {
      name: 'an unknown role',
      mutate: (t) => void (container(t, 'projects').args = ['--roles', 'nonsense']),
      expect: /--roles nonsense is not a role of brokers\/launcher\/roles\.ts/,
    },
    {
      name: 'a Deployment hosting all',
      mutate: (t) => void (container(t, 'tools').args = ['--roles', 'all']),
      expect: /--roles all is not a role/,
    },
    { name: 'no --roles', mutate: (t) => void (container(t, 'twin').args = []), expect: /no single --roles/ },
    {
      name: 'a Deployment with the wrong roles',
      mutate: (t) => void (container(t, 'flow').args = ['--roles=runs,gates']),
      expect: /Deployment flow: --roles is runs,gates, expected runs,gates,adapter:flow/,
    },
    {
      name: 'a role no Deployment hosts',
      mutate: (t) => void (container(t, 'adapter-cadkernel').args = ['--roles', 'adapter:cadkernel']),
      expect: /role cadsessions is hosted by no Deployment/,
    },
    {
      name: 'a role hosted twice',
      mutate: (t) => void (container(t, 'tools').args = ['--roles', 'tools,holds']),
      expect: /role holds is hosted by 2 Deployments \(tools, approvals\)/,
    },
    {
      name: 'roles.ts lost a role',
      mutate: (_, roles) => void roles.splice(roles.indexOf('projects'), 1),
      expect: /--roles projects is not a role of brokers\/launcher\/roles\.ts/,
    },
    {
      name: 'roles.ts gained a role no Deployment hosts',
      mutate: (_, roles) => void roles.push('adapter:thermal'),
      expect: /role adapter:thermal is hosted by no Deployment/,
    },
    { name: 'no ConfigMap envFrom', mutate: (t) => void delete container(t, 'gateway').envFrom, expect: /envFrom/ },
    {
      name: 'database URL inline',
      mutate: (t) => void (container(t, 'projects').env = [{ name: 'SERVICE_DATABASE_URL', value: 'postgres://x' }]),
      expect: /Secret service-db/,
    },
    {
      name: 'Service selector matching nothing',
      mutate: (t) => void (doc(t, 'Service', 'redis').spec.selector = { 'app.kubernetes.io/name': 'rediss' }),
      expect: /matches no pod template/,
    },
    {
      name: 'Service target port not exposed',
      mutate: (t) => void (doc(t, 'Service', 'gateway').spec.ports[0].targetPort = 9999),
      expect: /targets 9999/,
    },
    {
      name: 'Deployment selector not matching its pods',
      mutate: (t) => void (doc(t, 'Deployment', 'projects').spec.selector.matchLabels = { app: 'other' }),
      expect: /selector does not match/,
    },
    {
      name: 'HPA on a missing Deployment',
      mutate: (t) =>
        void (doc(t, 'HorizontalPodAutoscaler', 'adapter-circuit').spec.scaleTargetRef.name = 'adapter-circuix'),
      expect: /targets Deployment adapter-circuix/,
    },
    {
      name: 'HPA on a StatefulSet',
      mutate: (t) =>
        void (doc(t, 'HorizontalPodAutoscaler', 'gateway').spec.scaleTargetRef = {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          name: 'nats',
        }),
      expect: /not an existing Deployment/,
    },
    {
      name: 'adapter without HPA',
      mutate: (t) => void (doc(t, 'HorizontalPodAutoscaler', 'adapter-cadkernel').spec.scaleTargetRef.name = 'gateway'),
      expect: /adapter-cadkernel: no HorizontalPodAutoscaler/,
    },
    {
      name: 'an adapter Deployment under an HPA and a ScaledObject',
      mutate: (t) =>
        void t.docs.get('overlays/prod/gateway-hpa.yaml')!.push({
          ...structuredClone(doc(t, 'HorizontalPodAutoscaler', 'adapter-solver')),
          metadata: { name: 'adapter-solver-cpu' },
        }),
      expect:
        /overlays\/prod: Deployment adapter-solver is scaled by 2 autoscalers \(HorizontalPodAutoscaler adapter-solver-cpu, ScaledObject adapter-solver\)/,
    },
    {
      name: 'a ScaledObject blind to the calls waiting',
      mutate: (t) => {
        const trigger = doc(t, 'ScaledObject', 'adapter-circuit').spec.triggers[1];
        trigger.metadata.query = 'sum(service_tool_calls_in_flight{adapter="circuit"})';
      },
      expect:
        /ScaledObject adapter-circuit: no prometheus trigger reads service_tool_calls_waiting\{adapter="circuit"\}/,
    },
    {
      name: "a ScaledObject reading another adapter's backlog",
      mutate: (t) => {
        const trigger = doc(t, 'ScaledObject', 'adapter-eda').spec.triggers[1];
        trigger.metadata.query = trigger.metadata.query.replaceAll('"eda"', '"web"');
      },
      expect: /ScaledObject adapter-eda: no prometheus trigger reads service_tool_calls_in_flight\{adapter="eda"\}/,
    },
    {
      name: 'a ScaledObject without the CPU trigger',
      mutate: (t) => void doc(t, 'ScaledObject', 'firmware').spec.triggers.splice(0, 1),
      expect: /ScaledObject firmware: no CPU 70% trigger/,
    },
    {
      name: 'a ScaledObject beyond 8 replicas',
      mutate: (t) => void (doc(t, 'ScaledObject', 'adapter-web').spec.maxReplicaCount = 20),
      expect: /ScaledObject adapter-web: adapter ScaledObject is not 1\.\.8/,
    },
    {
      name: 'a ScaledObject on a missing Deployment',
      mutate: (t) => void (doc(t, 'ScaledObject', 'adapter-cadscript').spec.scaleTargetRef.name = 'adapter-cadscrypt'),
      expect:
        /targets Deployment adapter-cadscrypt, not an existing Deployment[\s\S]*adapter-cadscript: no HorizontalPodAutoscaler or ScaledObject/,
    },
    {
      name: 'backlog autoscaling with nothing scraping the gateway',
      mutate: (t) => void (doc(t, 'ServiceMonitor', 'gateway').spec.selector.matchLabels = { app: 'gateway' }),
      expect: /ServiceMonitor gateway: selects no Service[\s\S]*ScaledObjects read Prometheus, but no ServiceMonitor/,
    },
    {
      name: 'a ServiceMonitor on a port the Service lacks',
      mutate: (t) => void (doc(t, 'ServiceMonitor', 'gateway').spec.endpoints[0].port = 'metrics'),
      expect: /ServiceMonitor gateway: endpoint port metrics is no named port/,
    },
    {
      name: 'a ServiceMonitor scraping another path',
      mutate: (t) => void (doc(t, 'ServiceMonitor', 'gateway').spec.endpoints[0].path = '/health'),
      expect: /ServiceMonitor gateway: endpoint path \/health is not \/metrics/,
    },
    {
      name: 'probe path not /health',
      mutate: (t) => void (container(t, 'gateway').readinessProbe.httpGet.path = '/healthz'),
      expect: /readinessProbe path \/healthz/,
    },
    {
      name: 'gateway without liveness probe',
      mutate: (t) => void delete container(t, 'gateway').livenessProbe,
      expect: /no HTTP livenessProbe/,
    },
    {
      name: 'adapter egress to PostgreSQL without a database role',
      mutate: (t) => void adapterPolicy(t).spec.egress.push({ ports: [{ protocol: 'TCP', port: 5432 }] }),
      expect: /5432\/TCP is not allowed for adapter-(cadscript|circuit) \(NATS 4222, DNS 53\)/,
    },
    {
      name: 'adapter egress on every port',
      mutate: (t) => void adapterPolicy(t).spec.egress.push({ to: [{ podSelector: {} }] }),
      expect: /allows every port/,
    },
    {
      name: 'NATS port open to anyone',
      mutate: (t) => void (adapterPolicy(t).spec.egress[0].to = [{ ipBlock: { cidr: '0.0.0.0/0' } }]),
      expect: /4222 is open/,
    },
    {
      name: 'no adapter NetworkPolicy',
      mutate: (t) => void (adapterPolicy(t).spec.podSelector.matchLabels = { 'app.kubernetes.io/component': 'other' }),
      expect: /no egress NetworkPolicy/,
    },
    {
      name: 'CAD sessions without database egress',
      mutate: (t) => void (podLabels(t, 'adapter-cadkernel')['eds/egress'] = 'bus'),
      expect: /adapter-cadkernel: hosts cadsessions, which uses the database, but has no egress to PostgreSQL/,
    },
    {
      name: 'PostgreSQL port open to anyone',
      mutate: (t) => {
        const rule = policy(t, 'adapters-database-egress').spec.egress.find((r: Y) => r.ports?.[0]?.port === 5432);
        rule.to = [{ ipBlock: { cidr: '0.0.0.0/0' } }];
      },
      expect: /5432 is open to peers other than the PostgreSQL pods/,
    },
    {
      name: 'internet egress for an engineering adapter',
      mutate: (t) => void (podLabels(t, 'adapter-circuit')['eds/egress'] = 'internet'),
      expect: /port 80\/TCP is not allowed for adapter-circuit/,
    },
    {
      name: 'web egress reaching the cluster and cloud metadata',
      mutate: (t) => void delete webRule(t).to[0].ipBlock.except,
      expect: /port 443 may reach private or link-local addresses/,
    },
    {
      name: 'web without internet egress',
      mutate: (t) => void (podLabels(t, 'adapter-web')['eds/egress'] = 'bus'),
      expect: /adapter-web: hosts adapter:web, which fetches from the internet, but has no egress to port 443/,
    },
    {
      name: 'the harness without its egress policy',
      mutate: (t) => void (podLabels(t, 'harness')['eds/egress'] = 'none'),
      expect: /Deployment harness: no egress NetworkPolicy selects it/,
    },
    {
      name: 'the harness without the database',
      mutate: (t) => void policy(t, 'harness-egress').spec.egress.splice(2, 1),
      expect: /harness: hosts harness, which uses the database, but has no egress to PostgreSQL 5432/,
    },
    {
      name: 'the workspace in the harness pod',
      mutate: (t) => {
        const spec = doc(t, 'Deployment', 'harness').spec.template.spec;
        spec.volumes.push({ name: 'workspace', persistentVolumeClaim: { claimName: 'workspace' } });
        spec.containers[0].volumeMounts.push({ name: 'workspace', mountPath: '/workspace' });
      },
      expect: /hosts harness \(internet egress\) and mounts the workspace/,
    },
    {
      name: 'an adapter without the workspace',
      mutate: (t) => withoutWorkspace(t, 'adapter-cadscript'),
      expect: /adapter-cadscript container adapter-cadscript: hosts adapter:cadscript, which uses the workspace/,
    },
    {
      name: 'the twin pod without the workspace',
      mutate: (t) => withoutWorkspace(t, 'twin'),
      expect: /Deployment twin container twin: hosts adapter:twin, which uses the workspace/,
    },
    {
      name: 'the workspace mounted read-only',
      mutate: (t) => void (container(t, 'adapter-solver').volumeMounts[1].readOnly = true),
      expect: /adapter-solver: hosts adapter:solver, which uses the workspace/,
    },
    {
      name: 'the workspace in the pod with internet egress',
      mutate: (t) => {
        const spec = doc(t, 'Deployment', 'adapter-web').spec.template.spec;
        spec.volumes.push({ name: 'workspace', persistentVolumeClaim: { claimName: 'workspace' } });
        spec.containers[0].volumeMounts.push({ name: 'workspace', mountPath: '/workspace' });
      },
      expect: /hosts adapter:web \(internet egress\) and mounts the workspace/,
    },
    {
      name: 'a ReadWriteOnce workspace',
      mutate: (t) => void (doc(t, 'PersistentVolumeClaim', 'workspace').spec.accessModes = ['ReadWriteOnce']),
      expect: /PersistentVolumeClaim workspace: not ReadWriteMany/,
    },
    {
      name: 'ConfigMap without the workspace',
      mutate: (t) => void delete doc(t, 'ConfigMap', 'service-config').data.SERVICE_WORKSPACE,
      expect: /SERVICE_WORKSPACE is not \/workspace/,
    },
    {
      name: 'NATS without JetStream',
      mutate: (t) => void (doc(t, 'StatefulSet', 'nats').spec.template.spec.containers[0].args = []),
      expect: /JetStream/,
    },
    {
      name: 'NATS at the 1 MB default max_payload',
      mutate: (t) => void (doc(t, 'ConfigMap', 'nats-config').data['nats.conf'] = 'max_payload: 1MB\n'),
      expect: /NATS max_payload 1MB is below/,
    },
    {
      name: 'NATS without its config file',
      mutate: (t) => {
        const c = doc(t, 'StatefulSet', 'nats').spec.template.spec.containers[0];
        c.args = c.args.filter((a: string) => a !== '-c' && a !== '/etc/nats/nats.conf');
      },
      expect: /NATS reads no config file/,
    },
    {
      name: 'the engine sandbox off without a read-only root',
      mutate: (t) => void (container(t, 'adapter-circuit').securityContext.readOnlyRootFilesystem = false),
      expect: /adapter-circuit: SERVICE_ENGINE_SANDBOX=off without the pod's sandbox: readOnlyRootFilesystem/,
    },
    {
      name: 'the engine sandbox off with privilege escalation and capabilities',
      mutate: (t) => {
        const sc = container(t, 'adapter-solver').securityContext;
        delete sc.allowPrivilegeEscalation;
        sc.capabilities = { drop: ['ALL'], add: ['SYS_ADMIN'] };
      },
      expect:
        /adapter-solver: SERVICE_ENGINE_SANDBOX=off without the pod's sandbox: allowPrivilegeEscalation false, capabilities drop ALL/,
    },
    {
      name: 'the engine sandbox off running as root',
      mutate: (t) => void delete container(t, 'adapter-cadkernel').securityContext.runAsNonRoot,
      expect: /adapter-cadkernel: SERVICE_ENGINE_SANDBOX=off without the pod's sandbox: runAsNonRoot/,
    },
    {
      name: 'the engine sandbox off in a pod that is no adapter pod',
      mutate: (t) => void (podLabels(t, 'adapter-circuit')['app.kubernetes.io/component'] = 'actor'),
      expect: /adapter-circuit: SERVICE_ENGINE_SANDBOX=off outside an adapter pod/,
    },
    {
      name: 'an engine pod left on bwrap, which cannot start there',
      mutate: (t) =>
        void (container(t, 'adapter-circuit').env = container(t, 'adapter-circuit').env.filter(
          (e: Y) => e.name !== 'SERVICE_ENGINE_SANDBOX',
        )),
      expect: /adapter-circuit: hosts adapter:circuit with SERVICE_ENGINE_SANDBOX=bwrap/,
    },
    {
      name: 'an unknown sandbox value',
      mutate: (t) => void (doc(t, 'ConfigMap', 'service-config').data.SERVICE_ENGINE_SANDBOX = 'none'),
      expect: /SERVICE_ENGINE_SANDBOX "none" is neither bwrap nor off/,
    },
    {
      name: 'ConfigMap without the transporter',
      mutate: (t) => void delete doc(t, 'ConfigMap', 'service-config').data.SERVICE_TRANSPORTER,
      expect: /SERVICE_TRANSPORTER/,
    },
  ];

  it.each(mutations)('catches: $name', ({ mutate, expect: pattern }) => {
    const t = structuredClone(tree);
    const roles = [...ROLES];
    mutate(t, roles);
    expect(check(t, roles).join('\n')).toMatch(pattern);
  });
});
