import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { PodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import type { Resource, Y } from './k8s-support.ts';

/**
 * Validation of rendered objects against Kubernetes' own schemas: the OpenAPI schemas of the Kubernetes API
 * (kubernetes-models, whose schemas carry the fields of Kubernetes 1.34) and the CRD schemas of KEDA
 * (@kubernetes-models/keda) and the Prometheus operator (@kubernetes-models/prometheus-operator), precompiled by Ajv.
 * The packages are pinned to exact versions in package.json (k8s/README.md names them); no network is needed.
 * Types, enums, formats and required fields are checked; like the API server's non-strict mode, an unknown field is
 * not (the schemas leave additionalProperties open).
 */

type Model = new (data: Y) => { validate(): void };

/** `apiVersion/kind` -> its model, for every kind the manifests use; another kind is an error until it is listed. */
export const MODELS: Record<string, Model> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PodMonitor': PodMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
};

/** The schema violations of rendered objects, one line each (empty = valid). */
export function validate(resources: Resource[]): string[] {
  const v: string[] = [];
  for (const { file, doc } of resources) {
    const at = `${file}: ${doc?.kind} ${doc?.metadata?.name}`;
    const Model = MODELS[`${doc?.apiVersion}/${doc?.kind}`];
    if (!Model) {
      v.push(`${at}: no schema for apiVersion ${doc?.apiVersion} kind ${doc?.kind} (k8s-schemas.ts MODELS)`);
      continue;
    }
    try {
      new Model(doc).validate();
    } catch (err) {
      v.push(`${at}: ${(err as Error).message}`);
    }
  }
  return v;
}
