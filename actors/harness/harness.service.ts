import type { ServiceSchema } from 'moleculer';
import type { Infra } from '../../brokers/infra.ts';
import type { HarnessContext, HarnessPart } from './context.ts';
import { createCallsPart } from './calls/index.ts';
import { configOf, createConfigPart } from './config/index.ts';
import { createEgressPolicy } from './calls/egress.ts';
import { createRedactor, redactingActions, redactingLogger } from './redact.ts';
import { createUsagePart } from './usage/index.ts';

/**
 * The `harness` actor: the only place the service talks to a language model (SPEC part 6). Its parts contribute
 * actions (`calls/`, `config/`, `usage/`); each part starts what it needs in `started`.
 */
export function createHarnessService(infra: Infra): ServiceSchema {
  const redact = createRedactor();
  const h: HarnessContext = {
    infra: { ...infra, log: redactingLogger(infra.log, redact) },
    redact,
    egress: createEgressPolicy(infra.config.SERVICE_HARNESS_PRIVATE_BASE_URLS),
  };
  const parts: HarnessPart[] = [
    createConfigPart(h),
    createUsagePart(h),
    createCallsPart(h, { config: () => configOf(h) }),
  ];
  return {
    name: 'harness',
    // Every error thrown out of an action passes the one redactor too (its log lines already do).
    actions: redactingActions(Object.assign({}, ...parts.map((p) => p.actions)), redact),
    async started() {
      for (const p of parts) await p.started?.();
    },
    async stopped() {
      for (const p of parts.toReversed()) await p.stopped?.();
      await h.egress.close();
    },
  };
}
