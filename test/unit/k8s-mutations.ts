import { doc, type Tree, type Y } from './k8s-support.ts';

/**
 * The mutation cases of k8s.test.ts: each changes a copy of the rendered manifests (or of the launcher's role list, as
 * if roles.ts had changed) in one way the rules must catch, with the violation `check` (k8s-rules.ts) must report.
 */
export interface Mutation {
  name: string;
  mutate: (t: Tree, roles: string[]) => void;
  expect: RegExp;
}

export const container = (t: Tree, name: string): Y => doc(t, 'Deployment', name).spec.template.spec.containers[0];
export const podLabels = (t: Tree, name: string): Y => doc(t, 'Deployment', name).spec.template.metadata.labels;
export const policy = (t: Tree, name: string): Y => doc(t, 'NetworkPolicy', name);
export const adapterPolicy = (t: Tree): Y => policy(t, 'adapters-egress');
export const webRule = (t: Tree): Y =>
  policy(t, 'adapter-web-egress').spec.egress.find((r: Y) => r.ports?.some((p: Y) => p.port === 443));
export const withoutWorkspace = (t: Tree, name: string) => {
  const c = container(t, name);
  c.volumeMounts = c.volumeMounts.filter((m: Y) => m.mountPath !== '/workspace');
};

/** Files, pod security, resources, roles, Services and autoscaling; the network, workspace, NATS and sandbox cases are
 * in k8s-mutations-network.ts. */
export const MUTATIONS: Mutation[] = [
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
    expect: /ScaledObject adapter-circuit: no prometheus trigger reads service_tool_calls_waiting\{adapter="circuit"\}/,
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
];
