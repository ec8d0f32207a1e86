import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

/**
 * The Kubernetes manifests in k8s/ are validated here, never applied: every YAML document is parsed and checked for
 * the structure the cluster needs (kustomizations complete, selectors matching, HPAs targeting real Deployments) and
 * for the spec's isolation rules (SPEC "Limits": read-only root, tmpfs /tmp, limits, no privilege escalation, no
 * network for adapters). `check` returns every violation; the mutation cases below prove that each rule bites.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const K8S = path.join(ROOT, 'k8s');
const ROLES_TS = path.join(ROOT, 'brokers/launcher/roles.ts');

/** The service image every gateway, actor and adapter pod runs (k8s/Dockerfile); kustomize `images` sets its tag. */
const IMAGE = 'eds-service';
/** Roles the launcher accepts today (brokers/launcher/roles.ts); the test checks that file still names them. */
const CURRENT_ROLES = ['gateway', 'projects'];
/** Roles later issues add; their Deployments exist already (k8s/base/actors-next.yaml, k8s/base/adapters.yaml). */
const FUTURE_ROLES = [
  'tools',
  'twin',
  'runs',
  'gates',
  'approvals',
  'holds',
  'adapter:solver',
  'adapter:cadscript',
  'adapter:cadkernel',
  'adapter:circuit',
  'adapter:eda',
];
const ACCEPTED_ROLES = new Set([...CURRENT_ROLES, ...FUTURE_ROLES]);

/** Deployment name -> its exact `--roles` value. */
const EXPECTED_DEPLOYMENTS: Record<string, string> = {
  gateway: 'gateway',
  projects: 'projects',
  tools: 'tools',
  twin: 'twin',
  flow: 'runs,gates',
  approvals: 'approvals,holds',
  'adapter-solver': 'adapter:solver',
  'adapter-cadscript': 'adapter:cadscript',
  'adapter-cadkernel': 'adapter:cadkernel',
  'adapter-circuit': 'adapter:circuit',
  'adapter-eda': 'adapter:eda',
};

/** SPEC Limits: default adapter 1024 MB memory, solver 2048 MB; container isolation 2 CPU cores. Others 512Mi / 1. */
const ADAPTER_MEMORY: Record<string, string> = { 'adapter:solver': '2048Mi' };
const ADAPTER_DEFAULT_MEMORY = '1024Mi';
const ADAPTER_CPU = '2';
const SERVICE_MEMORY = '512Mi';
const SERVICE_CPU = '1';
const TMP_SIZE = '256Mi';

const CONFIG_DATA: Record<string, string> = {
  SERVICE_TRANSPORTER: 'nats://nats:4222',
  SERVICE_REDIS_URL: 'redis://redis:6379',
  SERVICE_HOST: '0.0.0.0',
};

// Parsed YAML is untyped by nature; the checks below test every field they read.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Y = any;

interface Tree {
  /** Every file under k8s/, as a posix path relative to k8s/. */
  files: Set<string>;
  /** The parsed documents of every YAML file (empty documents left out). */
  docs: Map<string, Y[]>;
  /** YAML syntax errors, one line each. */
  parseErrors: string[];
}

interface Resource {
  file: string;
  doc: Y;
}

function load(dir: string): Tree {
  const tree: Tree = { files: new Set(), docs: new Map(), parseErrors: [] };
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relPath);
      else tree.files.add(relPath);
    }
  };
  walk('');
  for (const file of tree.files) {
    if (!/\.ya?ml$/.test(file)) continue;
    const docs: Y[] = [];
    for (const doc of parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8'))) {
      for (const err of doc.errors) tree.parseErrors.push(`${file}: ${err.message}`);
      const value = doc.toJS();
      if (value !== null && value !== undefined) docs.push(value);
    }
    tree.docs.set(file, docs);
  }
  return tree;
}

const isKustomization = (file: string) => /(^|\/)kustomization\.ya?ml$/.test(file);
const isObject = (v: unknown): v is Record<string, Y> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** `matchLabels`-style subset test: every selector pair is among the labels. An empty selector matches nothing. */
function selects(selector: unknown, labels: unknown): boolean {
  if (!isObject(selector) || Object.keys(selector).length === 0 || !isObject(labels)) return false;
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Kubernetes quantity to a number (bytes for memory, cores for CPU); NaN when malformed. */
function quantity(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return NaN;
  const m = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(v);
  if (!m) return NaN;
  const mult: Record<string, number> = {
    '': 1,
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
  };
  return Number(m[1]) * mult[m[2] ?? ''];
}

/** The `--roles` value of a container's args (`--roles x` or `--roles=x`); undefined when absent or ambiguous. */
function rolesArg(args: unknown): string | undefined {
  if (!Array.isArray(args)) return undefined;
  const found: string[] = [];
  args.forEach((a, i) => {
    if (a === '--roles' && typeof args[i + 1] === 'string') found.push(args[i + 1]);
    else if (typeof a === 'string' && a.startsWith('--roles=')) found.push(a.slice('--roles='.length));
  });
  return found.length === 1 ? found[0] : undefined;
}

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/** Every rule, applied to a tree; returns the violations (empty = valid). */
function check(tree: Tree, rolesTs: string): string[] {
  const v: string[] = [...tree.parseErrors];

  // roles.ts still accepts the roles hard-coded here as current.
  for (const role of CURRENT_ROLES) {
    if (!new RegExp(`name:\\s*['"]${role}['"]`).test(rolesTs))
      v.push(`brokers/launcher/roles.ts: role ${role} not found`);
  }

  // Kustomizations: what they list exists; every manifest is listed by one.
  const listed = new Set<string>();
  const patchFiles = new Set<string>();
  const kustomizations: Resource[] = [];
  for (const [file, docs] of tree.docs) {
    if (!isKustomization(file)) continue;
    const k = docs[0];
    if (docs.length !== 1 || !isObject(k)) {
      v.push(`${file}: a kustomization is exactly one mapping`);
      continue;
    }
    kustomizations.push({ file, doc: k });
    const dir = path.posix.dirname(file);
    const refs: { ref: unknown; patch: boolean; dirOk: boolean }[] = [];
    for (const r of [...(k.resources ?? []), ...(k.components ?? [])]) refs.push({ ref: r, patch: false, dirOk: true });
    for (const p of [...(k.patches ?? []), ...(k.patchesJson6902 ?? [])]) {
      if (isObject(p) && p.path !== undefined) refs.push({ ref: p.path, patch: true, dirOk: false });
    }
    for (const p of k.patchesStrategicMerge ?? []) {
      if (typeof p === 'string' && !p.includes('\n')) refs.push({ ref: p, patch: true, dirOk: false });
    }
    for (const g of [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])]) {
      for (const f of [...(g.files ?? []), ...(g.envs ?? []), ...(g.env ? [g.env] : [])]) {
        refs.push({ ref: typeof f === 'string' ? f.replace(/^[^=]*=/, '') : f, patch: false, dirOk: false });
      }
    }
    for (const { ref, patch, dirOk } of refs) {
      if (typeof ref !== 'string' || ref.includes('://')) {
        v.push(`${file}: lists ${JSON.stringify(ref)}, which is not a local path`);
        continue;
      }
      const target = path.posix.normalize(path.posix.join(dir, ref));
      if (tree.files.has(target)) {
        listed.add(target);
        if (patch) patchFiles.add(target);
      } else if (
        dirOk &&
        (tree.files.has(`${target}/kustomization.yaml`) || tree.files.has(`${target}/kustomization.yml`))
      ) {
        // a kustomization directory (a base)
      } else {
        v.push(`${file}: lists ${ref}, which does not exist`);
      }
    }
  }
  if (kustomizations.length === 0) v.push('no kustomization under k8s/');
  for (const file of tree.docs.keys()) {
    if (!isKustomization(file) && !listed.has(file)) v.push(`${file}: not listed by any kustomization`);
  }

  // Every document names itself.
  for (const [file, docs] of tree.docs) {
    if (docs.length === 0) v.push(`${file}: no YAML document`);
    docs.forEach((d, i) => {
      const where = `${file}#${i}`;
      if (!isObject(d)) return void v.push(`${where}: not a mapping`);
      if (!str(d.apiVersion)) v.push(`${where}: no apiVersion`);
      if (!str(d.kind)) v.push(`${where}: no kind`);
      if (!str(d.metadata?.name)) v.push(`${where}: no metadata.name`);
    });
  }

  const resources: Resource[] = [];
  for (const [file, docs] of tree.docs) {
    if (isKustomization(file) || patchFiles.has(file)) continue;
    for (const doc of docs) if (isObject(doc)) resources.push({ file, doc });
  }
  const ofKind = (kind: string) => resources.filter((r) => r.doc.kind === kind);
  const where = (r: Resource) => `${r.file}: ${r.doc.kind} ${r.doc.metadata?.name}`;
  const workloads = [...ofKind('Deployment'), ...ofKind('StatefulSet')];
  const deployments = new Map(ofKind('Deployment').map((r) => [r.doc.metadata?.name, r]));
  const services = new Map(ofKind('Service').map((r) => [r.doc.metadata?.name, r]));
  const podLabels = (w: Resource) => w.doc.spec?.template?.metadata?.labels;

  // ConfigMap the service containers read.
  const config = ofKind('ConfigMap').find((r) => r.doc.metadata?.name === 'service-config');
  if (!config) v.push('ConfigMap service-config missing');
  for (const [key, value] of Object.entries(CONFIG_DATA)) {
    if (config && config.doc.data?.[key] !== value) v.push(`ConfigMap service-config: ${key} is not ${value}`);
  }

  // Workloads and their containers.
  const rolesByDeployment = new Map<string, string>();
  const adapterPods: Resource[] = [];
  let ours = 0;
  for (const w of workloads) {
    const spec = w.doc.spec?.template?.spec;
    if (!selects(w.doc.spec?.selector?.matchLabels, podLabels(w)))
      v.push(`${where(w)}: selector does not match pod template labels`);
    if (w.doc.kind === 'StatefulSet' && !services.has(w.doc.spec?.serviceName))
      v.push(`${where(w)}: serviceName names no Service`);
    const containers: Y[] = [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
    if (!isObject(spec) || containers.length === 0) {
      v.push(`${where(w)}: no containers`);
      continue;
    }
    for (const c of containers) {
      const at = `${where(w)} container ${c?.name}`;
      for (const p of PROBES) {
        if (c?.[p]?.httpGet && c[p].httpGet.path !== '/health')
          v.push(`${at}: ${p} path ${c[p].httpGet.path} is not /health`);
      }
      if (
        typeof c?.image !== 'string' ||
        !(c.image === IMAGE || c.image.startsWith(`${IMAGE}:`) || c.image.startsWith(`${IMAGE}@`))
      ) {
        continue;
      }
      ours++;
      const sc = c.securityContext ?? {};
      if (sc.runAsNonRoot !== true) v.push(`${at}: securityContext.runAsNonRoot is not true`);
      if (sc.runAsUser !== 10001) v.push(`${at}: securityContext.runAsUser is not 10001`);
      if (sc.readOnlyRootFilesystem !== true) v.push(`${at}: securityContext.readOnlyRootFilesystem is not true`);
      if (sc.allowPrivilegeEscalation !== false) v.push(`${at}: securityContext.allowPrivilegeEscalation is not false`);
      if (sc.privileged === true) v.push(`${at}: securityContext.privileged`);
      if (!Array.isArray(sc.capabilities?.drop) || !sc.capabilities.drop.includes('ALL')) {
        v.push(`${at}: securityContext.capabilities.drop does not contain ALL`);
      }
      if ((sc.capabilities?.add ?? []).length) v.push(`${at}: securityContext.capabilities.add is not empty`);

      const roles = rolesArg(c.args);
      if (roles === undefined) v.push(`${at}: args carry no single --roles value`);
      const names = (roles ?? '').split(',').map((s) => s.trim());
      for (const n of names)
        if (roles !== undefined && !ACCEPTED_ROLES.has(n)) v.push(`${at}: --roles ${n} is not an accepted role`);
      if (roles !== undefined && w.doc.kind === 'Deployment') rolesByDeployment.set(w.doc.metadata?.name, roles);
      const adapter = names.find((n) => n.startsWith('adapter:'));
      if (adapter) adapterPods.push(w);

      const limits = c.resources?.limits ?? {};
      const requests = c.resources?.requests ?? {};
      const wantMemory = adapter ? (ADAPTER_MEMORY[adapter] ?? ADAPTER_DEFAULT_MEMORY) : SERVICE_MEMORY;
      const wantCpu = adapter ? ADAPTER_CPU : SERVICE_CPU;
      if (limits.memory === undefined) v.push(`${at}: no memory limit`);
      else if (quantity(limits.memory) !== quantity(wantMemory))
        v.push(`${at}: memory limit ${limits.memory}, expected ${wantMemory}`);
      if (limits.cpu === undefined) v.push(`${at}: no cpu limit`);
      else if (quantity(limits.cpu) !== quantity(wantCpu))
        v.push(`${at}: cpu limit ${limits.cpu}, expected ${wantCpu}`);
      for (const r of ['memory', 'cpu']) {
        if (!(quantity(requests[r]) > 0)) v.push(`${at}: no ${r} request`);
        else if (quantity(requests[r]) > quantity(limits[r])) v.push(`${at}: ${r} request above its limit`);
      }

      const mount = (c.volumeMounts ?? []).find((m: Y) => m?.mountPath === '/tmp');
      const volume = mount && (spec.volumes ?? []).find((vol: Y) => vol?.name === mount.name);
      if (!mount) v.push(`${at}: /tmp is not mounted`);
      else if (
        !isObject(volume?.emptyDir) ||
        volume.emptyDir.medium !== 'Memory' ||
        quantity(volume.emptyDir.sizeLimit) !== quantity(TMP_SIZE)
      ) {
        v.push(`${at}: /tmp is not a ${TMP_SIZE} emptyDir with medium Memory`);
      }
      if (mount?.readOnly === true) v.push(`${at}: /tmp is mounted read-only`);

      if (!(c.envFrom ?? []).some((e: Y) => e?.configMapRef?.name === 'service-config'))
        v.push(`${at}: no envFrom ConfigMap service-config`);
      const db = (c.env ?? []).find((e: Y) => e?.name === 'SERVICE_DATABASE_URL');
      if (db?.valueFrom?.secretKeyRef?.name !== 'service-db' || db.valueFrom.secretKeyRef.key !== 'url') {
        v.push(`${at}: SERVICE_DATABASE_URL does not come from Secret service-db key url`);
      }

      if (names.includes('gateway')) {
        const ports: Y[] = c.ports ?? [];
        if (!ports.some((p) => p?.containerPort === 8765)) v.push(`${at}: gateway does not expose 8765`);
        for (const p of ['readinessProbe', 'livenessProbe'] as const) {
          const port = c[p]?.httpGet?.port;
          const resolved = typeof port === 'string' ? ports.find((x) => x?.name === port)?.containerPort : port;
          if (!c[p]?.httpGet) v.push(`${at}: gateway has no HTTP ${p}`);
          else if (resolved !== 8765) v.push(`${at}: gateway ${p} does not probe port 8765`);
        }
      }
    }
  }
  if (ours === 0) v.push(`no container runs the service image ${IMAGE}`);
  for (const [name, roles] of Object.entries(EXPECTED_DEPLOYMENTS)) {
    if (!deployments.has(name)) v.push(`Deployment ${name} missing`);
    else if (rolesByDeployment.get(name) !== roles)
      v.push(`Deployment ${name}: --roles is ${rolesByDeployment.get(name)}, expected ${roles}`);
  }
  const nats = workloads.find((w) => w.doc.metadata?.name === 'nats');
  const natsArgs: unknown[] = nats?.doc.spec?.template?.spec?.containers?.[0]?.args ?? [];
  if (!natsArgs.includes('-js') || !natsArgs.includes('-sd'))
    v.push('NATS does not run JetStream with a store directory');

  // Services select pods and reach a container port.
  for (const s of services.values()) {
    const targets = workloads.filter((w) => selects(s.doc.spec?.selector, podLabels(w)));
    if (targets.length === 0) {
      v.push(`${where(s)}: selector ${JSON.stringify(s.doc.spec?.selector)} matches no pod template`);
      continue;
    }
    const containerPorts: Y[] = targets.flatMap((w) =>
      (w.doc.spec.template.spec?.containers ?? []).flatMap((c: Y) => c?.ports ?? []),
    );
    for (const p of s.doc.spec?.ports ?? []) {
      const target = p?.targetPort ?? p?.port;
      const hit = containerPorts.find((cp) =>
        typeof target === 'string' ? cp?.name === target : cp?.containerPort === target,
      );
      if (!hit) v.push(`${where(s)}: port ${p?.port} targets ${target}, which no selected container exposes`);
      if (s.doc.metadata?.name === 'gateway' && p?.port === 80 && hit?.containerPort !== 8765)
        v.push(`${where(s)}: port 80 does not reach 8765`);
    }
  }
  const gatewayService = services.get('gateway');
  if (!gatewayService?.doc.spec?.ports?.some((p: Y) => p?.port === 80))
    v.push('Service gateway does not listen on port 80');

  // HPAs target Deployments that exist, on CPU at 70 percent; every adapter has one (1 to 8).
  const hpas = ofKind('HorizontalPodAutoscaler');
  for (const h of hpas) {
    const ref = h.doc.spec?.scaleTargetRef;
    if (ref?.kind !== 'Deployment' || !deployments.has(ref?.name))
      v.push(`${where(h)}: targets ${ref?.kind} ${ref?.name}, not an existing Deployment`);
    const cpu = (h.doc.spec?.metrics ?? []).find((m: Y) => m?.type === 'Resource' && m.resource?.name === 'cpu');
    if (cpu?.resource?.target?.averageUtilization !== 70) v.push(`${where(h)}: no CPU 70% target`);
    if (!(h.doc.spec?.minReplicas >= 1) || !(h.doc.spec?.maxReplicas >= h.doc.spec?.minReplicas))
      v.push(`${where(h)}: bad replica bounds`);
  }
  for (const a of adapterPods) {
    const name = a.doc.metadata?.name;
    const h = hpas.find((x) => x.doc.spec?.scaleTargetRef?.name === name);
    if (!h) v.push(`${where(a)}: no HorizontalPodAutoscaler`);
    else if (h.doc.spec.minReplicas !== 1 || h.doc.spec.maxReplicas !== 8)
      v.push(`${where(h)}: adapter HPA is not 1..8`);
  }

  // Adapters: no network but NATS and DNS.
  const natsLabels = nats && podLabels(nats);
  const policies = ofKind('NetworkPolicy');
  for (const a of adapterPods) {
    const mine = policies.filter(
      (p) =>
        selects(p.doc.spec?.podSelector?.matchLabels, podLabels(a)) &&
        (p.doc.spec?.policyTypes ?? []).includes('Egress'),
    );
    if (mine.length === 0) v.push(`${where(a)}: no egress NetworkPolicy selects it`);
    for (const p of mine) {
      if ((p.doc.spec?.ingress ?? []).length) v.push(`${where(p)}: allows ingress to adapters`);
      for (const rule of p.doc.spec?.egress ?? []) {
        const ports: Y[] = rule?.ports ?? [];
        if (ports.length === 0) v.push(`${where(p)}: an egress rule allows every port`);
        for (const port of ports) {
          const proto = port?.protocol ?? 'TCP';
          const ok =
            (port?.port === 4222 && proto === 'TCP') || (port?.port === 53 && (proto === 'UDP' || proto === 'TCP'));
          if (!ok) v.push(`${where(p)}: egress to port ${port?.port}/${proto} is neither NATS nor DNS`);
          if (port?.port === 4222) {
            const to: Y[] = rule.to ?? [];
            if (
              to.length === 0 ||
              !to.every(
                (peer) =>
                  !peer?.ipBlock && !peer?.namespaceSelector && selects(peer?.podSelector?.matchLabels, natsLabels),
              )
            ) {
              v.push(`${where(p)}: port 4222 is open to peers other than the NATS pods`);
            }
          }
        }
      }
    }
  }

  // Kustomization replicas name workloads that exist.
  const workloadNames = new Set(workloads.map((w) => w.doc.metadata?.name));
  for (const k of kustomizations) {
    for (const r of k.doc.replicas ?? [])
      if (!workloadNames.has(r?.name)) v.push(`${k.file}: replicas for unknown workload ${r?.name}`);
  }
  return v;
}

const rolesTs = fs.readFileSync(ROLES_TS, 'utf8');
const tree = load(K8S);

function doc(t: Tree, kind: string, name: string): Y {
  for (const docs of t.docs.values())
    for (const d of docs) if (d?.kind === kind && d?.metadata?.name === name) return d;
  throw new Error(`test setup: ${kind} ${name} not found`);
}
const container = (t: Tree, name: string): Y => doc(t, 'Deployment', name).spec.template.spec.containers[0];
const adapterPolicy = (t: Tree): Y => doc(t, 'NetworkPolicy', 'adapters-egress');

describe('k8s manifests', () => {
  it('parse, and pass every rule', () => {
    expect(tree.docs.size).toBeGreaterThan(5);
    expect(check(tree, rolesTs)).toEqual([]);
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

  const mutations: { name: string; mutate: (t: Tree) => string | void; expect: RegExp }[] = [
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
      name: 'a document without apiVersion',
      mutate: (t) => void delete doc(t, 'Service', 'redis').apiVersion,
      expect: /no apiVersion/,
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
      mutate: (t) => void delete container(t, 'projects').resources.limits.memory,
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
      mutate: (t) => void (container(t, 'adapter-eda').resources.limits.cpu = '4'),
      expect: /cpu limit 4/,
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
      expect: /--roles nonsense is not an accepted role/,
    },
    { name: 'no --roles', mutate: (t) => void (container(t, 'twin').args = []), expect: /no single --roles/ },
    {
      name: 'a future Deployment with the wrong roles',
      mutate: (t) => void (container(t, 'flow').args = ['--roles=runs']),
      expect: /Deployment flow: --roles is runs/,
    },
    { name: 'roles.ts lost a role', mutate: () => 'projects', expect: /role projects not found/ },
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
      mutate: (t) => void (doc(t, 'HorizontalPodAutoscaler', 'adapter-eda').spec.scaleTargetRef.name = 'adapter-edx'),
      expect: /targets Deployment adapter-edx/,
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
      name: 'adapter egress to PostgreSQL',
      mutate: (t) => void adapterPolicy(t).spec.egress.push({ ports: [{ protocol: 'TCP', port: 5432 }] }),
      expect: /5432\/TCP is neither NATS nor DNS/,
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
      name: 'NATS without JetStream',
      mutate: (t) => void (doc(t, 'StatefulSet', 'nats').spec.template.spec.containers[0].args = []),
      expect: /JetStream/,
    },
    {
      name: 'ConfigMap without the transporter',
      mutate: (t) => void delete doc(t, 'ConfigMap', 'service-config').data.SERVICE_TRANSPORTER,
      expect: /SERVICE_TRANSPORTER/,
    },
  ];

  it.each(mutations)('catches: $name', ({ mutate, expect: pattern }) => {
    const t = structuredClone(tree);
    const removeRole = mutate(t);
    const ts = typeof removeRole === 'string' ? rolesTs.replaceAll(`'${removeRole}'`, "'renamed'") : rolesTs;
    const violations = check(t, ts);
    expect(violations.join('\n')).toMatch(pattern);
  });
});
