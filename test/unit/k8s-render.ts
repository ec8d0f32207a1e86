import path from 'node:path';
import { parse } from 'yaml';
import { isKustomization, isObject, type Resource, type Tree, type Y } from './k8s-support.ts';

/**
 * Renders a kustomization of a loaded tree the way `kubectl kustomize` does, for the subset of kustomize the manifests
 * use: `resources` (files and kustomization folders), `components` (kind Component: their resources join, their
 * patches apply to everything gathered so far), `patches` (strategic-merge, inline or by path: `$patch: delete`
 * removes the object, otherwise maps merge and lists are replaced), `namespace`, `labels` (with `includeTemplates`: pod and volume claim templates),
 * `images` (newName, newTag, digest) and `replicas`. It reads the in-memory tree, so a test's mutation of a base
 * document shows in every overlay. A field it does not know is an error, never silently skipped (`kubectl kustomize
 * k8s/overlays/<name>` renders the same objects; k8s.test.ts compares object names with it where kubectl exists).
 */

const KNOWN = new Set([
  'apiVersion',
  'kind',
  'metadata',
  'resources',
  'components',
  'patches',
  'namespace',
  'labels',
  'images',
  'replicas',
]);
/** Kinds without a namespace among those the manifests use. */
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition']);
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

/** The kustomization document of a folder (posix, relative to k8s/); undefined when the folder has none. */
function kustomizationOf(tree: Tree, dir: string): { file: string; k: Y } | undefined {
  for (const name of ['kustomization.yaml', 'kustomization.yml']) {
    const file = dir === '.' ? name : `${dir}/${name}`;
    const docs = tree.docs.get(file);
    if (docs?.length === 1 && isObject(docs[0])) return { file, k: docs[0] };
  }
  return undefined;
}

const key = (d: Y) => `${d?.kind}/${d?.metadata?.name}`;

/** Strategic merge, as far as the manifests need it: maps merge key by key, everything else is replaced. */
function merge(target: Y, patch: Y): Y {
  if (!isObject(target) || !isObject(patch)) return structuredClone(patch);
  const out: Y = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = merge(target[k], v);
  }
  return out;
}

function applyPatches(k: Y, dir: string, tree: Tree, out: Resource[], errors: string[], where: string): void {
  for (const p of k.patches ?? []) {
    let text: string | undefined;
    if (typeof p?.patch === 'string') text = p.patch;
    else if (typeof p?.path === 'string') {
      const docs = tree.docs.get(path.posix.normalize(path.posix.join(dir, p.path)));
      if (docs?.length !== 1) {
        errors.push(`${where}: patch ${p.path} is not one YAML document`);
        continue;
      }
      text = JSON.stringify(docs[0]);
    }
    if (text === undefined || (p.target !== undefined && p.target !== null)) {
      errors.push(`${where}: only strategic-merge patches without a target are rendered`);
      continue;
    }
    const patch = parse(text);
    const i = out.findIndex((r) => key(r.doc) === key(patch));
    if (i < 0) {
      errors.push(`${where}: patch for ${key(patch)} matches no resource`);
      continue;
    }
    if (patch.$patch === 'delete') out.splice(i, 1);
    else out[i] = { file: out[i].file, doc: merge(out[i].doc, patch) };
  }
}

function setImages(k: Y, r: Resource): void {
  const spec = r.doc.spec?.template?.spec;
  if (!WORKLOADS.has(r.doc.kind) || !isObject(spec)) return;
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    for (const img of k.images ?? []) {
      const m = /^([^@:]+(?::\d+\/[^@:]+)?)(?::[^@]*)?(?:@.*)?$/.exec(c?.image ?? '');
      if (!m || m[1] !== img.name) continue;
      const name = img.newName ?? img.name;
      c.image = img.digest ? `${name}@${img.digest}` : img.newTag ? `${name}:${img.newTag}` : name;
    }
  }
}

function build(tree: Tree, dir: string, errors: string[], seen: string[]): Resource[] {
  const found = kustomizationOf(tree, dir);
  if (!found || seen.includes(dir)) {
    errors.push(found ? `${dir}: kustomization cycle` : `${dir}: no kustomization`);
    return [];
  }
  const { file, k } = found;
  for (const f of Object.keys(k)) if (!KNOWN.has(f)) errors.push(`${file}: the renderer does not know field ${f}`);
  // A Component's transformers would apply to all its includer has gathered: only its resources and patches are rendered.
  if (k.kind === 'Component')
    for (const f of ['namespace', 'labels', 'images', 'replicas'])
      if (k[f] !== undefined) errors.push(`${file}: a Component's ${f} is not rendered`);
  const out: Resource[] = [];
  const add = (r: Resource) => {
    if (out.some((o) => key(o.doc) === key(r.doc))) errors.push(`${r.file}: ${key(r.doc)} defined twice`);
    else out.push(r);
  };
  for (const ref of k.resources ?? []) {
    const target = path.posix.normalize(path.posix.join(dir, String(ref)));
    if (kustomizationOf(tree, target)) build(tree, target, errors, [...seen, dir]).forEach(add);
    else if (tree.docs.has(target) && !isKustomization(target))
      for (const d of tree.docs.get(target)!) add({ file: target, doc: structuredClone(d) });
    else errors.push(`${file}: resource ${ref} not found`);
  }
  for (const ref of k.components ?? []) {
    const cdir = path.posix.normalize(path.posix.join(dir, String(ref)));
    const c = kustomizationOf(tree, cdir);
    if (c?.k.kind !== 'Component') {
      errors.push(`${file}: component ${ref} is not a kustomize Component`);
      continue;
    }
    build(tree, cdir, errors, [...seen, dir]).forEach(add);
    applyPatches(c.k, cdir, tree, out, errors, c.file);
  }
  if (k.kind !== 'Component') applyPatches(k, dir, tree, out, errors, file);
  for (const r of out) {
    const d = r.doc;
    if (typeof k.namespace === 'string' && !CLUSTER_SCOPED.has(d.kind) && isObject(d.metadata))
      d.metadata.namespace = k.namespace;
    for (const l of k.labels ?? []) {
      if (!isObject(d.metadata)) continue;
      d.metadata.labels = { ...d.metadata.labels, ...l.pairs };
      if (l.includeTemplates && isObject(d.spec?.template?.metadata))
        d.spec.template.metadata.labels = { ...d.spec.template.metadata.labels, ...l.pairs };
      if (l.includeTemplates && d.kind === 'StatefulSet')
        for (const t of d.spec?.volumeClaimTemplates ?? [])
          if (isObject(t)) t.metadata = { ...t.metadata, labels: { ...t.metadata?.labels, ...l.pairs } };
      if (l.includeSelectors) errors.push(`${file}: labels with includeSelectors are not rendered`);
    }
    setImages(k, r);
    for (const rep of k.replicas ?? [])
      if (WORKLOADS.has(d.kind) && d.metadata?.name === rep.name && isObject(d.spec)) d.spec.replicas = rep.count;
  }
  return out;
}

/**
 * The objects a kustomization folder renders to, each with the file it came from, and what could not be rendered.
 * A Component's own patches are applied by the kustomization that includes it, so rendering one alone leaves them out.
 */
export function render(tree: Tree, dir: string): { resources: Resource[]; errors: string[] } {
  const errors: string[] = [];
  const resources = build(tree, dir, errors, []);
  return { resources, errors };
}

/** The kustomizations no other kustomization includes: the overlays a cluster applies (`k8s/overlays/<name>`). */
export function overlays(tree: Tree): string[] {
  const dirs = [...tree.docs.keys()].filter(isKustomization).map((f) => path.posix.dirname(f));
  const included = new Set<string>();
  for (const d of dirs) {
    const k = kustomizationOf(tree, d)?.k;
    for (const ref of [...(k?.resources ?? []), ...(k?.components ?? [])])
      included.add(path.posix.normalize(path.posix.join(d, String(ref))));
  }
  return dirs.filter((d) => !included.has(d) && kustomizationOf(tree, d)?.k.kind !== 'Component').sort();
}
