import { isObject, selects, type Resource, type Y } from './k8s-support.ts';

/**
 * The autoscaling and scraping rules of one rendered overlay (k8s-rules.ts `check` calls `checkScaling`): every
 * adapter Deployment has exactly one autoscaler, either the CPU HorizontalPodAutoscaler of the base or a KEDA
 * ScaledObject (components/keda) that keeps the CPU target and adds its pool's backlog; no Deployment has two; and
 * when ScaledObjects read Prometheus, a ServiceMonitor brings the gateway's /metrics there.
 */

/** A pod of an adapter Deployment: its name, role names and where to report it. */
export interface AdapterPod {
  name: string;
  roles: string[];
  where: string;
}

/** The metrics the adapter backlog is read from, each filtered by the adapter's id. */
export const BACKLOG_METRICS = ['service_tool_calls_in_flight', 'service_tool_calls_waiting'];
const CPU_TARGET = 70;
const MIN_REPLICAS = 1;
const MAX_REPLICAS = 8;

const where = (r: Resource) => `${r.file}: ${r.doc.kind} ${r.doc.metadata?.name}`;

/** `metric{... adapter="id" ...}` somewhere in a PromQL query. */
const readsBacklog = (query: string, metric: string, id: string) =>
  new RegExp(`\\b${metric}\\{[^}]*\\badapter="${id}"[^}]*\\}`).test(query);

function checkHpa(h: Resource, deployments: Set<string>, v: string[]): void {
  const ref = h.doc.spec?.scaleTargetRef;
  if (ref?.kind !== 'Deployment' || !deployments.has(ref?.name))
    v.push(`${where(h)}: targets ${ref?.kind} ${ref?.name}, not an existing Deployment`);
  const cpu = (h.doc.spec?.metrics ?? []).find((m: Y) => m?.type === 'Resource' && m.resource?.name === 'cpu');
  if (cpu?.resource?.target?.averageUtilization !== CPU_TARGET) v.push(`${where(h)}: no CPU ${CPU_TARGET}% target`);
  if (!(h.doc.spec?.minReplicas >= 1) || !(h.doc.spec?.maxReplicas >= h.doc.spec?.minReplicas))
    v.push(`${where(h)}: bad replica bounds`);
}

function checkScaledObject(s: Resource, deployments: Set<string>, v: string[]): void {
  const ref = s.doc.spec?.scaleTargetRef;
  if ((ref?.kind ?? 'Deployment') !== 'Deployment' || !deployments.has(ref?.name))
    v.push(`${where(s)}: targets ${ref?.kind ?? 'Deployment'} ${ref?.name}, not an existing Deployment`);
  const triggers: Y[] = s.doc.spec?.triggers ?? [];
  const cpu = triggers.find((t) => t?.type === 'cpu');
  if (cpu?.metricType !== 'Utilization' || cpu?.metadata?.value !== String(CPU_TARGET))
    v.push(`${where(s)}: no CPU ${CPU_TARGET}% trigger (the HPA's target, kept)`);
  const min = s.doc.spec?.minReplicaCount ?? 0;
  if (!(min >= 1) || !(s.doc.spec?.maxReplicaCount >= min)) v.push(`${where(s)}: bad replica bounds`);
}

/** The ServiceMonitors that scrape /metrics from a Service reaching the gateway pods. */
function checkMonitors(resources: Resource[], v: string[]): Resource[] {
  const services = resources.filter((r) => r.doc.kind === 'Service');
  const scraping: Resource[] = [];
  for (const m of resources.filter((r) => r.doc.kind === 'ServiceMonitor')) {
    const picked = services.filter((s) => selects(m.doc.spec?.selector?.matchLabels, s.doc.metadata?.labels));
    if (picked.length === 0) {
      v.push(`${where(m)}: selects no Service`);
      continue;
    }
    for (const e of m.doc.spec?.endpoints ?? []) {
      const named = picked.filter((s) => (s.doc.spec?.ports ?? []).some((p: Y) => p?.name === e?.port));
      if (typeof e?.port !== 'string' || named.length === 0)
        v.push(`${where(m)}: endpoint port ${e?.port} is no named port of the Services it selects`);
      else if (e.path !== '/metrics') v.push(`${where(m)}: endpoint path ${e.path} is not /metrics`);
      else if (named.some((s) => s.doc.metadata?.name === 'gateway')) scraping.push(m);
    }
  }
  return scraping;
}

/** Every autoscaling and scraping rule of one rendered overlay; violations appended to `v`. */
export function checkScaling(resources: Resource[], adapters: AdapterPod[], v: string[]): void {
  const deployments = new Set(resources.filter((r) => r.doc.kind === 'Deployment').map((r) => r.doc.metadata?.name));
  const hpas = resources.filter((r) => r.doc.kind === 'HorizontalPodAutoscaler');
  const scaled = resources.filter((r) => r.doc.kind === 'ScaledObject');
  for (const h of hpas) checkHpa(h, deployments, v);
  for (const s of scaled) checkScaledObject(s, deployments, v);

  const scalers = [...hpas, ...scaled];
  const target = (r: Resource) => r.doc.spec?.scaleTargetRef?.name;
  for (const d of deployments) {
    const on = scalers.filter((r) => target(r) === d);
    if (on.length > 1)
      v.push(
        `Deployment ${d} is scaled by ${on.length} autoscalers (${on.map((r) => `${r.doc.kind} ${r.doc.metadata?.name}`).join(', ')})`,
      );
  }
  for (const a of adapters) {
    const on = scalers.filter((r) => target(r) === a.name);
    if (on.length === 0) v.push(`${a.where}: no HorizontalPodAutoscaler or ScaledObject`);
    for (const r of on) {
      const hpa = r.doc.kind === 'HorizontalPodAutoscaler';
      const [min, max] = hpa
        ? [r.doc.spec?.minReplicas, r.doc.spec?.maxReplicas]
        : [r.doc.spec?.minReplicaCount, r.doc.spec?.maxReplicaCount];
      if (min !== MIN_REPLICAS || max !== MAX_REPLICAS)
        v.push(`${where(r)}: adapter ${hpa ? 'HPA' : 'ScaledObject'} is not ${MIN_REPLICAS}..${MAX_REPLICAS}`);
      if (hpa) continue;
      const queries: string[] = (r.doc.spec?.triggers ?? [])
        .filter((t: Y) => t?.type === 'prometheus' && isObject(t.metadata))
        .map((t: Y) => String(t.metadata.query ?? ''));
      for (const id of a.roles.filter((x) => x.startsWith('adapter:')).map((x) => x.slice('adapter:'.length)))
        for (const metric of BACKLOG_METRICS)
          if (!queries.some((q) => readsBacklog(q, metric, id)))
            v.push(`${where(r)}: no prometheus trigger reads ${metric}{adapter="${id}"}`);
    }
  }
  const scraping = checkMonitors(resources, v);
  if (
    scaled.some((s) => (s.doc.spec?.triggers ?? []).some((t: Y) => t?.type === 'prometheus')) &&
    scraping.length === 0
  )
    v.push('ScaledObjects read Prometheus, but no ServiceMonitor scrapes /metrics from the gateway Service');
}
