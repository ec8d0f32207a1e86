import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContractChecks, describeExchange, send } from '../../support/openapi-checks.ts';
import { IdPool } from '../../support/openapi-id-pool.ts';
import { hash32, operationsOf, type OpenApiDocument, type Operation } from '../../support/openapi-operations.ts';
import { hostileRequest } from '../../support/openapi-hostile.ts';
import { resolve, validRequest, type FuzzRequest } from '../../support/openapi-requests.ts';
import { useTestNode } from '../../support/node.ts';

// Contract fuzzing from the OpenAPI document (issue 18): for every operation /openapi.json documents (whatever routes
// exist when it runs), requests generated from its own schemas, valid ones and ones with one defect each, go to a real
// gateway; every answer must carry a status the operation declares or one of GENERIC_STATUSES, an error body of the
// one shape, a success body valid under the declared schema, a 4xx for anything the document does not admit, and
// never a 500. Reproduce a run with its seed: FUZZ_SEED=<n> npx vitest run test/integration/gateway/openapi-fuzz.test.ts
// (FUZZ_RUNS=<n> requests per operation and kind, FUZZ_OPS=<regex> to narrow to operations whose key matches).

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : crypto.randomInt(2 ** 31 - 1);
if (!Number.isSafeInteger(SEED)) throw new Error(`FUZZ_SEED must be an integer, not ${process.env.FUZZ_SEED}`);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
/** A guard against a hang, not a speed requirement: it grows with FUZZ_RUNS. */
const TIMEOUT_MS = 120_000 * Math.max(1, RUNS / 20);
const ONLY = new RegExp(process.env.FUZZ_OPS ?? '');
/** FUZZ_VERBOSE=1 prints how often each operation answered each status. */
const VERBOSE = !!process.env.FUZZ_VERBOSE;
/** The fuzz node's body limit: small, so that a body over it is cheap to send. */
const BODY_LIMIT = 256 * 1024;

/**
 * Operations whose valid requests are not sent, each with why: they act outside the test's own data. Their hostile
 * requests still are (validation answers before anything runs), except any the document would admit.
 */
const VALID_SKIPPED: Readonly<Record<string, string>> = {
  'POST /v1/runs': 'starts a design-flow run: the workflow engine runs phases that call models and engines',
  'POST /v1/chat/threads/{id}/messages': 'starts a chat turn, which calls a model',
  'GET /v1/chat/threads/{id}/stream': 'an SSE stream that stays open until its turn ends',
  'POST /v1/harness/credentials': "a stored credential's generated base_url would receive later model calls",
};

const t = useTestNode({ realDb: true, env: { SERVICE_BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
/** Ids the answers named, shared by both kinds (valid requests run first and create things). */
const ids = new IdPool();

type Kind = 'valid' | 'hostile';
const arbitraryFor = (kind: Kind, op: Operation): fc.Arbitrary<FuzzRequest> =>
  kind === 'valid' ? validRequest(op) : hostileRequest(op, BODY_LIMIT);

/** Fuzzes every documented operation with one kind of request; answers the failures, one (shrunk) per operation. */
async function fuzz(kind: Kind): Promise<string[]> {
  const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as OpenApiDocument;
  const checks = new ContractChecks();
  const failures: string[] = [];
  const statuses: Record<number, number> = {};
  const perOp: Record<string, number> = {};
  const ops = operationsOf(doc).filter((op) => ONLY.test(op.key));
  for (const op of ops) {
    const skipped = Object.hasOwn(VALID_SKIPPED, op.key);
    if (kind === 'valid' && skipped) continue;
    // Each operation's seed comes from the run's and its own key: adding a route leaves the others' requests as they were.
    const seed = (SEED ^ hash32(`${kind} ${op.key}`)) | 0;
    const property = fc.asyncProperty(arbitraryFor(kind, op), async (generated) => {
      const req = resolve(op, generated, ids);
      if (skipped) fc.pre(!checks.admits(op, req));
      const ans = await send(t.url, op, req);
      statuses[ans.status] = (statuses[ans.status] ?? 0) + 1;
      if (VERBOSE) perOp[`${op.key} ${ans.status}`] = (perOp[`${op.key} ${ans.status}`] ?? 0) + 1;
      const problems = checks.problems(op, req, ans);
      if (problems.length) throw new Error(`${problems.join('; ')}\n    ${describeExchange(op, req, ans)}`);
      if (ans.status < 300 && ans.contentType.startsWith('application/json')) ids.harvest(op, JSON.parse(ans.text));
    });
    const run = await fc.check(property, { seed, numRuns: RUNS });
    if (run.failed) {
      const why = run.errorInstance instanceof Error ? run.errorInstance.message : String(run.errorInstance);
      failures.push(`${op.key} (seed ${seed}, after ${run.numShrinks} shrinks): ${why}`);
    }
  }
  console.log(
    `openapi fuzz ${kind}: FUZZ_SEED=${SEED}, ${ops.length} operations, statuses ${JSON.stringify(statuses)}`,
  );
  if (VERBOSE)
    console.log(
      Object.entries(perOp)
        .map(([k, n]) => `${k}: ${n}`)
        .join('\n'),
    );
  return failures;
}

describe(`OpenAPI contract fuzz (FUZZ_SEED=${SEED})`, () => {
  it(
    'valid requests get a declared status and a body matching its schema, never a 500',
    async () => {
      const failures = await fuzz('valid');
      expect(failures, `FUZZ_SEED=${SEED}\n${failures.join('\n')}`).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    'hostile requests are refused with a declared 4xx in the error body, never a 500',
    async () => {
      const failures = await fuzz('hostile');
      expect(failures, `FUZZ_SEED=${SEED}\n${failures.join('\n')}`).toEqual([]);
    },
    TIMEOUT_MS,
  );
});
