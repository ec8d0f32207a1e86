import { overlays, render } from './k8s-render.ts';
import { checkDrain } from './k8s-drain-rules.ts';
import { checkScaling } from './k8s-scaling-rules.ts';
import {
  ADAPTER_CPU,
  ADAPTER_DEFAULT_MEMORY,
  ADAPTER_MEMORY,
  checkKustomizations,
  CONFIG_DATA,
  DATABASE_ROLES,
  EXPECTED_DEPLOYMENTS,
  flagArg,
  IMAGE,
  INTERNET_ROLES,
  isObject,
  isServiceImage,
  NATS_MIN_PAYLOAD,
  natsSize,
  NON_PUBLIC_CIDRS,
  quantity,
  rolesArg,
  selects,
  splitRoles,
  SERVICE_CPU,
  SERVICE_MEMORY,
  TMP_SIZE,
  WORKSPACE_CLAIM,
  WORKSPACE_PATH,
  WORKSPACE_ROLES,
  type Resource,
  type Tree,
  type Y,
} from './k8s-support.ts';

/**
 * Every rule k8s.test.ts applies to the manifests, as `check(tree, roles)`: the violations, one line each (empty =
 * valid). `roles` are the role names of brokers/launcher/roles.ts.
 */

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/** A pod hosting service roles: its workload, pod spec and the service container. */
interface Pod {
  w: Resource;
  name: string;
  at: string;
  spec: Y;
  c: Y;
  roles: string[];
}

/** Isolation and wiring of one service container (security context, limits, /tmp, config, gateway port and probes). */
function checkServiceContainer(p: Pod, v: string[]): void {
  const { c, at, spec } = p;
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

  const adapter = p.w.doc.spec?.template?.metadata?.labels?.['app.kubernetes.io/component'] === 'adapter';
  const limits = c.resources?.limits ?? {};
  const requests = c.resources?.requests ?? {};
  const special = p.roles.find((r) => ADAPTER_MEMORY[r]);
  const wantMemory = adapter ? (special ? ADAPTER_MEMORY[special] : ADAPTER_DEFAULT_MEMORY) : SERVICE_MEMORY;
  const wantCpu = adapter ? ADAPTER_CPU : SERVICE_CPU;
  if (limits.memory === undefined) v.push(`${at}: no memory limit`);
  else if (quantity(limits.memory) !== quantity(wantMemory))
    v.push(`${at}: memory limit ${limits.memory}, expected ${wantMemory}`);
  if (limits.cpu === undefined) v.push(`${at}: no cpu limit`);
  else if (quantity(limits.cpu) !== quantity(wantCpu)) v.push(`${at}: cpu limit ${limits.cpu}, expected ${wantCpu}`);
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

  // The shared workspace: the ReadWriteMany claim, read-write, wherever a role uses it; never beside internet egress.
  const ws = (c.volumeMounts ?? []).find((m: Y) => m?.mountPath === WORKSPACE_PATH);
  const wsVolume = ws && (spec.volumes ?? []).find((vol: Y) => vol?.name === ws.name);
  const wsClaim = wsVolume?.persistentVolumeClaim?.claimName === WORKSPACE_CLAIM;
  const user = p.roles.find((r) => WORKSPACE_ROLES.includes(r));
  if (user && (!wsClaim || ws.readOnly === true))
    v.push(
      `${at}: hosts ${user}, which uses the workspace, but ${WORKSPACE_PATH} is not the claim ${WORKSPACE_CLAIM} read-write`,
    );
  const online = p.roles.find((r) => INTERNET_ROLES.includes(r));
  const mountsClaim = (spec.volumes ?? []).some((vol: Y) => vol?.persistentVolumeClaim?.claimName === WORKSPACE_CLAIM);
  if (online && mountsClaim) v.push(`${at}: hosts ${online} (internet egress) and mounts the workspace`);

  if (!(c.envFrom ?? []).some((e: Y) => e?.configMapRef?.name === 'service-config'))
    v.push(`${at}: no envFrom ConfigMap service-config`);
  const db = (c.env ?? []).find((e: Y) => e?.name === 'SERVICE_DATABASE_URL');
  if (db?.valueFrom?.secretKeyRef?.name !== 'service-db' || db.valueFrom.secretKeyRef.key !== 'url') {
    v.push(`${at}: SERVICE_DATABASE_URL does not come from Secret service-db key url`);
  }

  if (p.roles.includes('gateway')) {
    const ports: Y[] = c.ports ?? [];
    if (!ports.some((x) => x?.containerPort === 8765)) v.push(`${at}: gateway does not expose 8765`);
    for (const probe of ['readinessProbe', 'livenessProbe'] as const) {
      const port = c[probe]?.httpGet?.port;
      const resolved = typeof port === 'string' ? ports.find((x) => x?.name === port)?.containerPort : port;
      if (!c[probe]?.httpGet) v.push(`${at}: gateway has no HTTP ${probe}`);
      else if (resolved !== 8765) v.push(`${at}: gateway ${probe} does not probe port 8765`);
    }
  }
}

/** Roles whose actors spawn engines (ccx, gmsh, ngspice, KiCad's pcbnew), which README "Engine sandbox" runs under bwrap. */
export const ENGINE_ROLES = ['adapter:solver', 'adapter:cadkernel', 'adapter:circuit', 'adapter:eda'];

/**
 * The engine sandbox of a pod hosting an engine role: SERVICE_ENGINE_SANDBOX (container env over the ConfigMap,
 * default bwrap) must be off (bwrap cannot create namespaces in a pod without capabilities, and the image has no
 * bwrap), and a pod that turns it off must be an adapter pod of its own with the locked-down security context.
 */
function checkEngineSandbox(p: Pod, configData: Y, v: string[]): void {
  const engine = p.roles.find((r) => ENGINE_ROLES.includes(r));
  const own = (p.c.env ?? []).find((e: Y) => e?.name === 'SERVICE_ENGINE_SANDBOX');
  const value = own ? own.value : (configData?.SERVICE_ENGINE_SANDBOX ?? 'bwrap');
  if (value !== 'bwrap' && value !== 'off')
    return void v.push(`${p.at}: SERVICE_ENGINE_SANDBOX ${JSON.stringify(value)} is neither bwrap nor off`);
  if (!engine) return;
  if (value !== 'off')
    return void v.push(
      `${p.at}: hosts ${engine} with SERVICE_ENGINE_SANDBOX=bwrap, which cannot start in a pod without capabilities; set it off and lock the pod down`,
    );
  const sc = p.c.securityContext ?? {};
  const missing = [
    sc.readOnlyRootFilesystem === true ? '' : 'readOnlyRootFilesystem',
    sc.allowPrivilegeEscalation === false ? '' : 'allowPrivilegeEscalation false',
    Array.isArray(sc.capabilities?.drop) && sc.capabilities.drop.includes('ALL') && !(sc.capabilities?.add ?? []).length
      ? ''
      : 'capabilities drop ALL',
    sc.runAsNonRoot === true ? '' : 'runAsNonRoot',
    sc.privileged === true ? 'not privileged' : '',
  ].filter(Boolean);
  if (missing.length) v.push(`${p.at}: SERVICE_ENGINE_SANDBOX=off without the pod's sandbox: ${missing.join(', ')}`);
  if (p.w.doc.spec?.template?.metadata?.labels?.['app.kubernetes.io/component'] !== 'adapter')
    v.push(`${p.at}: SERVICE_ENGINE_SANDBOX=off outside an adapter pod of its own`);
}

/** Roles: every `--roles` name is a role of roles.ts, every role is hosted by exactly one Deployment, as grouped. */
function checkRoles(pods: Pod[], deploymentNames: Set<string>, roles: readonly string[], v: string[]): void {
  const known = new Set(roles);
  for (const p of pods)
    for (const n of p.roles)
      if (!known.has(n)) v.push(`${p.at}: --roles ${n} is not a role of brokers/launcher/roles.ts`);
  for (const r of roles) {
    const hosts = pods.filter((p) => p.w.doc.kind === 'Deployment' && p.roles.includes(r)).map((p) => p.name);
    if (hosts.length === 0) v.push(`role ${r} is hosted by no Deployment`);
    else if (hosts.length > 1) v.push(`role ${r} is hosted by ${hosts.length} Deployments (${hosts.join(', ')})`);
  }
  for (const r of [...DATABASE_ROLES, ...INTERNET_ROLES, ...WORKSPACE_ROLES])
    if (!known.has(r)) v.push(`k8s-support.ts names role ${r}, which brokers/launcher/roles.ts does not have`);
  for (const [name, want] of Object.entries(EXPECTED_DEPLOYMENTS)) {
    const p = pods.find((x) => x.w.doc.kind === 'Deployment' && x.name === name);
    if (!deploymentNames.has(name)) v.push(`Deployment ${name} missing`);
    else if (p?.roles.join(',') !== want.roles)
      v.push(`Deployment ${name}: --roles is ${p?.roles.join(',')}, expected ${want.roles}`);
    const component = p?.w.doc.spec?.template?.metadata?.labels?.['app.kubernetes.io/component'];
    if (p && component !== want.component)
      v.push(`Deployment ${name}: pods are component ${component}, expected ${want.component}`);
  }
}

/** NATS: JetStream with a store, and a config file (from a ConfigMap) raising max_payload. */
function checkNats(nats: Resource | undefined, configMaps: Resource[], v: string[]): void {
  const spec = nats?.doc.spec?.template?.spec;
  const c = spec?.containers?.[0];
  const args: unknown[] = c?.args ?? [];
  if (!args.includes('-js') || !args.includes('-sd')) v.push('NATS does not run JetStream with a store directory');
  const file = flagArg(args, '-c', '--config');
  const mount =
    file &&
    (c?.volumeMounts ?? []).find(
      (m: Y) => typeof m?.mountPath === 'string' && file.startsWith(`${m.mountPath.replace(/\/$/, '')}/`),
    );
  const cmName = mount && (spec?.volumes ?? []).find((vol: Y) => vol?.name === mount.name)?.configMap?.name;
  const key = mount && file.slice(mount.mountPath.replace(/\/$/, '').length + 1);
  const text = configMaps.find((r) => r.doc.metadata?.name === cmName)?.doc.data?.[key];
  const payload = typeof text === 'string' ? /^\s*max_payload\s*[:=]\s*(\S+)/m.exec(text)?.[1] : undefined;
  if (payload === undefined) v.push('NATS reads no config file (-c, from a ConfigMap) that sets max_payload');
  else if (!(natsSize(payload) >= NATS_MIN_PAYLOAD))
    v.push(`NATS max_payload ${payload} is below ${NATS_MIN_PAYLOAD} bytes (32 MB)`);
}

/** What an adapter's egress port is for, given whether the pod hosts a database or an internet role; undefined = not allowed. */
function portKind(port: Y, db: boolean, web: boolean): 'nats' | 'dns' | 'postgres' | 'web' | undefined {
  const tcp = (port?.protocol ?? 'TCP') === 'TCP';
  if (port?.port === 4222 && tcp) return 'nats';
  if (port?.port === 53 && (tcp || port?.protocol === 'UDP')) return 'dns';
  if (port?.port === 5432 && tcp && db) return 'postgres';
  if ((port?.port === 80 || port?.port === 443) && tcp && web) return 'web';
  return undefined;
}

const describePorts = (db: boolean, web: boolean) =>
  ['NATS 4222', 'DNS 53', ...(db ? ['PostgreSQL 5432'] : []), ...(web ? ['HTTP(S) 80/443'] : [])].join(', ');

/** An ingress rule that lets only the `monitoring` namespace reach the metrics port (components/monitoring). */
const isMetricsScrape = (rule: Y) =>
  JSON.stringify(rule?.ports) === JSON.stringify([{ protocol: 'TCP', port: 9464 }]) &&
  JSON.stringify(rule?.from) ===
    JSON.stringify([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);

/** Adapters: no ingress but the metrics scrape; egress to NATS and DNS, PostgreSQL only where a role uses it, the internet only for web. */
function checkAdapterNetwork(a: Pod, policies: Resource[], natsLabels: Y, postgresLabels: Y, v: string[]): void {
  const where = (r: Resource) => `${r.file}: ${r.doc.kind} ${r.doc.metadata?.name}`;
  const labels = a.w.doc.spec?.template?.metadata?.labels;
  const mine = policies.filter((p) => selects(p.doc.spec?.podSelector?.matchLabels, labels));
  const egress = mine.filter((p) => (p.doc.spec?.policyTypes ?? []).includes('Egress'));
  if (egress.length === 0) return void v.push(`${where(a.w)}: no egress NetworkPolicy selects it`);
  if (!mine.some((p) => (p.doc.spec?.policyTypes ?? []).includes('Ingress')))
    v.push(`${where(a.w)}: ingress is not denied`);
  const dbRole = a.roles.find((r) => DATABASE_ROLES.includes(r));
  const webRole = a.roles.find((r) => INTERNET_ROLES.includes(r));
  const reach = new Set<string>();
  for (const p of mine) {
    if ((p.doc.spec?.ingress ?? []).some((rule: Y) => !isMetricsScrape(rule)))
      v.push(`${where(p)}: allows ingress to adapters (only the monitoring namespace to the metrics port 9464 may)`);
    if (!egress.includes(p)) continue;
    for (const rule of p.doc.spec?.egress ?? []) {
      const ports: Y[] = rule?.ports ?? [];
      const to: Y[] = rule?.to ?? [];
      if (ports.length === 0) v.push(`${where(p)}: an egress rule allows every port`);
      for (const port of ports) {
        const proto = port?.protocol ?? 'TCP';
        const kind = portKind(port, !!dbRole, !!webRole);
        if (!kind) {
          v.push(
            `${where(p)}: egress to port ${port?.port}/${proto} is not allowed for ${a.name} (${describePorts(!!dbRole, !!webRole)})`,
          );
          continue;
        }
        reach.add(kind === 'web' ? `web${port.port}` : kind);
        const podsOnly = (want: Y) =>
          to.length > 0 &&
          to.every(
            (peer) => !peer?.ipBlock && !peer?.namespaceSelector && selects(peer?.podSelector?.matchLabels, want),
          );
        if (kind === 'nats' && !podsOnly(natsLabels))
          v.push(`${where(p)}: port 4222 is open to peers other than the NATS pods`);
        if (kind === 'postgres' && !podsOnly(postgresLabels))
          v.push(`${where(p)}: port 5432 is open to peers other than the PostgreSQL pods`);
        if (kind === 'web') {
          const publicOnly =
            to.length > 0 &&
            to.every(
              (peer) =>
                peer?.ipBlock &&
                !peer.podSelector &&
                !peer.namespaceSelector &&
                NON_PUBLIC_CIDRS.every((c) => (peer.ipBlock.except ?? []).includes(c)),
            );
          if (!publicOnly)
            v.push(
              `${where(p)}: port ${port.port} may reach private or link-local addresses (except ${NON_PUBLIC_CIDRS.join(', ')})`,
            );
        }
      }
    }
  }
  if (!reach.has('nats')) v.push(`${where(a.w)}: no egress to NATS 4222`);
  if (!reach.has('dns')) v.push(`${where(a.w)}: no egress to DNS 53`);
  if (dbRole && !reach.has('postgres'))
    v.push(`${where(a.w)}: hosts ${dbRole}, which uses the database, but has no egress to PostgreSQL 5432`);
  for (const port of [80, 443])
    if (webRole && !reach.has(`web${port}`))
      v.push(`${where(a.w)}: hosts ${webRole}, which fetches from the internet, but has no egress to port ${port}`);
}

/**
 * Every rule, applied to a tree: the kustomizations' structure, then each overlay (k8s-render.ts) as rendered, its
 * violations prefixed with the overlay's folder. `roles` are the launcher's role names. Returns the violations (empty
 * = valid). Field types, required fields and known kinds are the schemas' part (k8s-schemas.ts), not repeated here.
 */
export function check(tree: Tree, roles: readonly string[]): string[] {
  const v: string[] = [...tree.parseErrors];
  const { kustomizations } = checkKustomizations(tree, v);
  const names = overlays(tree);
  if (names.length === 0) v.push('no overlay (a kustomization that no other includes) under k8s/');
  for (const overlay of names) {
    const { resources, errors } = render(tree, overlay);
    const found = [...errors];
    checkOverlay(resources, kustomizations, roles, found);
    v.push(...found.map((x) => `${overlay}: ${x}`));
  }
  return v;
}

/** The rules on the objects one overlay renders to. */
function checkOverlay(resources: Resource[], kustomizations: Resource[], roles: readonly string[], v: string[]): void {
  const ofKind = (kind: string) => resources.filter((r) => r.doc.kind === kind);
  const where = (r: Resource) => `${r.file}: ${r.doc.kind} ${r.doc.metadata?.name}`;
  const workloads = [...ofKind('Deployment'), ...ofKind('StatefulSet')];
  const deployments = new Map(ofKind('Deployment').map((r) => [r.doc.metadata?.name, r]));
  const services = new Map(ofKind('Service').map((r) => [r.doc.metadata?.name, r]));
  const podLabels = (w: Resource) => w.doc.spec?.template?.metadata?.labels;

  // ConfigMap the service containers read; the workspace claim they share.
  const config = ofKind('ConfigMap').find((r) => r.doc.metadata?.name === 'service-config');
  if (!config) v.push('ConfigMap service-config missing');
  for (const [key, value] of Object.entries(CONFIG_DATA)) {
    if (config && config.doc.data?.[key] !== value) v.push(`ConfigMap service-config: ${key} is not ${value}`);
  }
  const claim = ofKind('PersistentVolumeClaim').find((r) => r.doc.metadata?.name === WORKSPACE_CLAIM);
  if (!claim) v.push(`PersistentVolumeClaim ${WORKSPACE_CLAIM} missing`);
  else if (!(claim.doc.spec?.accessModes ?? []).includes('ReadWriteMany'))
    v.push(`${where(claim)}: not ReadWriteMany (pods on several nodes share it)`);

  // Workloads and their containers.
  const pods: Pod[] = [];
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
      if (!isServiceImage(c?.image)) continue;
      const value = rolesArg(c.args);
      if (value === undefined) v.push(`${at}: args carry no single --roles value`);
      const pod: Pod = { w, name: w.doc.metadata?.name, at, spec, c, roles: splitRoles(value) };
      pods.push(pod);
      checkServiceContainer(pod, v);
      checkEngineSandbox(pod, config?.doc.data, v);
    }
  }
  if (pods.length === 0) v.push(`no container runs the service image ${IMAGE}`);
  checkRoles(pods, new Set(deployments.keys()), roles, v);
  const nats = workloads.find((w) => w.doc.metadata?.name === 'nats');
  checkNats(nats, ofKind('ConfigMap'), v);

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
  if (!services.get('gateway')?.doc.spec?.ports?.some((p: Y) => p?.port === 80))
    v.push('Service gateway does not listen on port 80');

  // Autoscaling (an HPA or a KEDA ScaledObject per adapter Deployment, never both) and scraping: k8s-scaling-rules.ts.
  const adapterPods = pods.filter(
    (p) => p.w.doc.kind === 'Deployment' && podLabels(p.w)?.['app.kubernetes.io/component'] === 'adapter',
  );
  checkScaling(
    resources,
    adapterPods.map((p) => ({ name: p.name, roles: p.roles, where: where(p.w) })),
    v,
  );
  // Adapter pods drain on SIGTERM for longer than their longest call, inside the grace period: k8s-drain-rules.ts.
  checkDrain(
    adapterPods.map((p) => ({ roles: p.roles, spec: p.spec, container: p.c, where: where(p.w) })),
    v,
  );

  const postgres = workloads.find((w) => w.doc.metadata?.name === 'postgres');
  const policies = ofKind('NetworkPolicy');
  // Adapters, and any pod reaching the internet (the harness, an actor), have their network locked down.
  const onlinePods = pods.filter(
    (p) => p.w.doc.kind === 'Deployment' && !adapterPods.includes(p) && p.roles.some((r) => INTERNET_ROLES.includes(r)),
  );
  for (const a of [...adapterPods, ...onlinePods])
    checkAdapterNetwork(a, policies, nats && podLabels(nats), postgres && podLabels(postgres), v);

  // Kustomization replicas name workloads that exist.
  const workloadNames = new Set(workloads.map((w) => w.doc.metadata?.name));
  for (const k of kustomizations) {
    for (const r of k.doc.replicas ?? [])
      if (!workloadNames.has(r?.name)) v.push(`${k.file}: replicas for unknown workload ${r?.name}`);
  }
}
