/**
 * `revise` (decision 0100: a run's items are its own): the other runs' items a run is started to revise. The new-run
 * page takes the keys, shows them with their owners before the run starts and sends them; the run page shows them
 * near its header. Owners come from the item history (`GET /v1/twin/items/{key}/revisions`, its `origin_run_id`).
 */
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, describeError } from '../api/gateway.ts';
import type { ItemHistoryResult } from '../../../contracts/twin.ts';
import { Section } from '../ui/section.tsx';

/** Each key's owning run as the twin answers it: the run id, null (no run owns it), or undefined while unknown. */
function useOwners(keys: readonly string[]) {
  return useQueries({
    queries: keys.map((key) => ({
      queryKey: ['twin-item', key],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        api<ItemHistoryResult>(`/v1/twin/items/${encodeURIComponent(key)}/revisions`, { signal }),
      retry: false,
      staleTime: 30_000,
    })),
  });
}

function Owner(props: { owner: ReturnType<typeof useOwners>[number]; currentRun?: string }) {
  const q = props.owner;
  if (q.isPending) return <span className="muted">(owner being read…)</span>;
  if (q.isError) return <span className="muted">(owner not known: {describeError(q.error)})</span>;
  const run = q.data.origin_run_id ?? null;
  if (!run) return <span className="muted">(owned by no run)</span>;
  if (run === props.currentRun) return <span className="muted">(owned by this run)</span>;
  return (
    <span>
      (owned by run <Link to={`/runs/${encodeURIComponent(run)}`}>{run}</Link>)
    </span>
  );
}

/** The keys listed with their owners, one sentence each (`what`: "This run revises" or "The run will revise"). */
function ReviseList(props: { keys: readonly string[]; what: string; currentRun?: string; testId: string }) {
  const owners = useOwners(props.keys);
  return (
    <ul data-testid={props.testId}>
      {props.keys.map((key, i) => (
        <li key={key} data-key={key}>
          {props.what} <span className="mono">{key}</span> <Owner owner={owners[i]!} currentRun={props.currentRun} />
        </li>
      ))}
    </ul>
  );
}

/** The run page's note: shown only when the run was started with `revise`. */
export function RunRevises(props: { runId: string; revise: readonly string[] }) {
  if (!props.revise.length) return null;
  return (
    <div className="note warn" data-testid="run-revise">
      Started to revise items of earlier runs (its request asked for it):
      <ReviseList keys={props.revise} what="This run revises" currentRun={props.runId} testId="run-revise-list" />
    </div>
  );
}

/** The new-run page's field: keys, comma-separated or one per line. */
export function ReviseField(props: { value: string; onChange: (v: string) => void }) {
  return (
    <label style={{ display: 'flex' }}>
      Revise items of earlier runs (optional: item keys, comma-separated or one per line)
      <textarea
        name="revise"
        rows={2}
        value={props.value}
        maxLength={20_000}
        onChange={(e) => props.onChange(e.target.value)}
        placeholder="CAD-BRACKET-7K2Q"
      />
    </label>
  );
}

/** The confirmation before start: what the run will revise, with each item's owner, or that it revises nothing. */
export function RevisePlan(props: { keys: readonly string[] }) {
  return (
    <Section id="revise-h" testId="revise-plan" panel style={{ marginTop: 8 }} title="Items of earlier runs">
      {props.keys.length ? (
        <>
          <p>Starting records this choice on the run; its design phases draft the next revision of each item.</p>
          <ReviseList keys={props.keys} what="The run will revise" testId="revise-plan-list" />
        </>
      ) : (
        <p className="muted">This run revises no other run's items: it makes its own.</p>
      )}
    </Section>
  );
}
