import { doc, type Y } from './k8s-support.ts';
import {
  container,
  podLabels,
  policy,
  adapterPolicy,
  webRule,
  withoutWorkspace,
  type Mutation,
} from './k8s-mutations.ts';

/** The mutation cases of probes, network policies, the workspace, NATS and the engine sandbox (see k8s-mutations.ts). */
export const NETWORK_MUTATIONS: Mutation[] = [
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
