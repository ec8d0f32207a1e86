/**
 * The run page's Cancel control (decision 0140): a required reason and a Cancel button, sent as
 * `POST /v1/runs/{id}/cancel {reason}`. Shown while the run has not ended; a refusal (409: it ended meanwhile) is shown
 * in words. On success the run and everything that follows it are read again, so the page reads cancelled at once.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, describeError } from '../api/gateway.ts';
import type { RunView } from '../api/runs.ts';
import { Section } from '../ui/section.tsx';

export function CancelRun(props: { run: RunView }) {
  const { run } = props;
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = useId();
  const client = useQueryClient();
  const cancel = useMutation({
    mutationFn: (why: string) =>
      api<RunView>(`/v1/runs/${encodeURIComponent(run.id)}/cancel`, { method: 'POST', body: { reason: why } }),
    onSuccess: (answer) => {
      client.setQueryData(['runs', run.id], (old: object | undefined) => ({ ...old, ...answer }));
      void client.invalidateQueries({ queryKey: ['runs'] });
      void client.invalidateQueries({ queryKey: ['approvals'] });
    },
  });

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!reason.trim()) {
      setProblem('A reason is required to cancel the run: write why in the reason box.');
      return;
    }
    setProblem(null);
    cancel.mutate(reason.trim());
  };

  return (
    <Section id={`${ids}-h`} testId="run-cancel" panel title="Cancel the run">
      <p className="muted">
        Stops the running phase (its engine calls are aborted) and closes the open gate. Everything the run recorded
        stays.
      </p>
      <form onSubmit={submit} aria-label="Cancel the run">
        <label style={{ display: 'flex' }}>
          Reason (required)
          <textarea name="cancel-reason" value={reason} maxLength={2000} onChange={(e) => setReason(e.target.value)} />
        </label>
        <button type="submit" className="danger" disabled={cancel.isPending}>
          Cancel run
        </button>
      </form>
      {problem && (
        <div className="note error" role="alert">
          {problem}
        </div>
      )}
      {cancel.error && (
        <div className="note error" role="alert">
          The run was not cancelled: {describeError(cancel.error)}
        </div>
      )}
    </Section>
  );
}
