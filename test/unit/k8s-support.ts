import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * What k8s.test.ts checks the manifests against, the helpers it reads them with and the structural check of the
 * kustomizations (`checkKustomizations`); the rules on the resources themselves are in k8s-rules.ts. Role names come
 * from brokers/launcher/roles.ts (the test imports its table); what is hard-coded here is how the manifests group
 * those roles into Deployments, and which roles need which network and files.
 */

/** The service image every gateway, actor and adapter pod runs (k8s/Dockerfile); kustomize `images` sets its tag. */
export const IMAGE = 'eds-service';

/**
 * Deployment name -> its exact `--roles` value and its pods' `app.kubernetes.io/component`. Roles that share data
 * and scale together share a pod; every engineering adapter has a pod (and an HPA) of its own.
 */
export const EXPECTED_DEPLOYMENTS: Record<string, { roles: string; component: 'gateway' | 'actor' | 'adapter' }> = {
  gateway: { roles: 'gateway', component: 'gateway' },
  projects: { roles: 'projects,adapter:project', component: 'actor' },
  tools: { roles: 'tools', component: 'actor' },
  twin: { roles: 'twin,adapter:twin', component: 'actor' },
  flow: { roles: 'runs,gates,adapter:flow', component: 'actor' },
  approvals: { roles: 'approvals,holds', component: 'actor' },
  knowledge: {
    roles: 'sessions,knowledge,memory,chat,adapter:session,adapter:knowledge,adapter:memory',
    component: 'actor',
  },
  'adapter-solver': { roles: 'adapter:solver', component: 'adapter' },
  'adapter-cadscript': { roles: 'adapter:cadscript', component: 'adapter' },
  'adapter-cadkernel': { roles: 'adapter:cadkernel,cadsessions', component: 'adapter' },
  'adapter-circuit': { roles: 'adapter:circuit', component: 'adapter' },
  'adapter-eda': { roles: 'adapter:eda', component: 'adapter' },
  firmware: { roles: 'firmware', component: 'adapter' },
  'adapter-web': { roles: 'adapter:web', component: 'adapter' },
  harness: { roles: 'harness', component: 'actor' },
};

/**
 * Roles whose services open the database (`infra.db()`), among those a network-restricted pod may host: the CAD
 * session actor (its tables), the solver role, whose named-faces actor `simmesh` reads a twin node's STEP from the blob
 * store, and the harness (its tables). Such a pod gets PostgreSQL egress exactly when it hosts one of them.
 */
export const DATABASE_ROLES = ['cadsessions', 'adapter:solver', 'harness'];
/**
 * Roles that reach the internet (web.search, web.fetch; the harness's model providers): HTTP and HTTPS egress, and
 * never the workspace. A pod hosting one gets an egress NetworkPolicy of its own, actor or adapter.
 */
export const INTERNET_ROLES = ['adapter:web', 'harness'];
/** Roles whose services read or write workspace files (`workspaceRoot`): their pods mount the shared claim. */
export const WORKSPACE_ROLES = [
  'adapter:solver',
  'adapter:cadscript',
  'adapter:cadkernel',
  'cadsessions',
  'adapter:circuit',
  'adapter:eda',
  'adapter:twin',
  'firmware',
];
export const WORKSPACE_CLAIM = 'workspace';
export const WORKSPACE_PATH = '/workspace';
/** Address ranges the web adapter must not reach: the cluster's own (private, carrier-grade NAT) and cloud metadata. */
export const NON_PUBLIC_CIDRS = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16'];
/** Smallest NATS max_payload (bytes): tool arguments and results (base64 STEP, field payloads) exceed the 1 MB default. */
export const NATS_MIN_PAYLOAD = 32 * 2 ** 20;

/** SPEC Limits: default adapter 1024 MB memory, solver 2048 MB; container isolation 2 CPU cores. Others 512Mi / 1. */
export const ADAPTER_MEMORY: Record<string, string> = { 'adapter:solver': '2048Mi' };
export const ADAPTER_DEFAULT_MEMORY = '1024Mi';
export const ADAPTER_CPU = '2';
export const SERVICE_MEMORY = '512Mi';
export const SERVICE_CPU = '1';
export const TMP_SIZE = '256Mi';

export const CONFIG_DATA: Record<string, string> = {
  SERVICE_TRANSPORTER: 'nats://nats:4222',
  SERVICE_REDIS_URL: 'redis://redis:6379',
  SERVICE_HOST: '0.0.0.0',
  SERVICE_WORKSPACE: WORKSPACE_PATH,
};

// Parsed YAML is untyped by nature; the checks test every field they read.
export type Y = any;

export interface Tree {
  /** Every file under k8s/, as a posix path relative to k8s/. */
  files: Set<string>;
  /** The parsed documents of every YAML file (empty documents left out). */
  docs: Map<string, Y[]>;
  /** YAML syntax errors, one line each. */
  parseErrors: string[];
}

export interface Resource {
  file: string;
  doc: Y;
}

export function load(dir: string): Tree {
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
    // YAML 1.1, as kubectl and kustomize read manifests: `0400` is octal, an unquoted `off` a boolean.
    for (const doc of parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8'), { version: '1.1' })) {
      for (const err of doc.errors) tree.parseErrors.push(`${file}: ${err.message}`);
      const value = doc.toJS();
      if (value !== null && value !== undefined) docs.push(value);
    }
    tree.docs.set(file, docs);
  }
  return tree;
}

/** The first document of a kind and name; a test-setup error when absent. */
export function doc(t: Tree, kind: string, name: string): Y {
  for (const docs of t.docs.values())
    for (const d of docs) if (d?.kind === kind && d?.metadata?.name === name) return d;
  throw new Error(`test setup: ${kind} ${name} not found`);
}

export const isKustomization = (file: string) => /(^|\/)kustomization\.ya?ml$/.test(file);
export const isObject = (v: unknown): v is Record<string, Y> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** `matchLabels`-style subset test: every selector pair is among the labels. An empty selector matches nothing. */
export function selects(selector: unknown, labels: unknown): boolean {
  if (!isObject(selector) || Object.keys(selector).length === 0 || !isObject(labels)) return false;
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Kubernetes quantity to a number (bytes for memory, cores for CPU); NaN when malformed. */
export function quantity(v: unknown): number {
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

/** A NATS config size (`33554432`, `32MB`, `32M`; NATS units are powers of 1024); NaN when malformed. */
export function natsSize(v: string): number {
  const m = /^(\d+)\s*([KMG])?B?$/i.exec(v.trim().replace(/^["']|["']$/g, ''));
  if (!m) return NaN;
  return Number(m[1]) * 1024 ** ({ '': 0, K: 1, M: 2, G: 3 }[(m[2] ?? '').toUpperCase()] ?? 0);
}

/** The value of a flag in container args (`--flag x`, `--flag=x`, or any of its aliases); undefined when absent or ambiguous. */
export function flagArg(args: unknown, ...flags: string[]): string | undefined {
  if (!Array.isArray(args)) return undefined;
  const found: string[] = [];
  args.forEach((a, i) => {
    for (const f of flags) {
      if (a === f && typeof args[i + 1] === 'string') found.push(args[i + 1]);
      else if (typeof a === 'string' && a.startsWith(`${f}=`)) found.push(a.slice(f.length + 1));
    }
  });
  return found.length === 1 ? found[0] : undefined;
}

/** The `--roles` value of a container's args; undefined when absent or ambiguous. */
export const rolesArg = (args: unknown) => flagArg(args, '--roles');
/** The role names of a `--roles` value. */
export const splitRoles = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
/** True for the service image, tagged or by digest. */
export const isServiceImage = (image: unknown) =>
  typeof image === 'string' && (image === IMAGE || image.startsWith(`${IMAGE}:`) || image.startsWith(`${IMAGE}@`));

/** Kustomizations: what they list exists; every manifest is listed by one. Returns the kustomizations and patch files. */
export function checkKustomizations(tree: Tree, v: string[]): { kustomizations: Resource[]; patchFiles: Set<string> } {
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
      } else if (!(
        dirOk &&
        (tree.files.has(`${target}/kustomization.yaml`) || tree.files.has(`${target}/kustomization.yml`))
      )) {
        v.push(`${file}: lists ${ref}, which does not exist`);
      }
    }
  }
  if (kustomizations.length === 0) v.push('no kustomization under k8s/');
  for (const file of tree.docs.keys()) {
    if (!isKustomization(file) && !listed.has(file)) v.push(`${file}: not listed by any kustomization`);
  }
  for (const [file, docs] of tree.docs) {
    if (docs.length === 0) v.push(`${file}: no YAML document`);
    docs.forEach((d, i) => {
      const where = `${file}#${i}`;
      // apiVersion and kind: a document without them matches no schema (k8s-schemas.ts); the name no schema requires.
      if (!isObject(d)) return void v.push(`${where}: not a mapping`);
      if (!str(d.metadata?.name)) v.push(`${where}: no metadata.name`);
    });
  }
  return { kustomizations, patchFiles };
}
