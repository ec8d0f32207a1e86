-- The approvals actor's transactional outbox and its own projection of gate items (issue 13 points 1 and 5).
--
-- approval_outbox, one row per decision effect that must reach another actor, written in the same transaction as the
-- queue's record of the decision (approval_decisions 'delivering' for a gate) or before the ledger decision (a flow
-- approval's state). One deliverer sends due rows (next_at at or before the injected clock) with the row's idempotency
-- key, deletes the row once the owner took or refused it, and otherwise moves next_at by an exponential backoff.
CREATE TABLE approval_outbox (
  key text PRIMARY KEY,
  effect text NOT NULL CHECK (effect IN ('runs.decide', 'runs.settleFlow')),
  approval_id text NOT NULL,
  target_id text NOT NULL,
  payload jsonb NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_at timestamptz NOT NULL,
  last_error text,
  created_at timestamptz NOT NULL
);
CREATE INDEX approval_outbox_due_idx ON approval_outbox (next_at);

-- The gate rows (run view at a log position, last gate event) the queue last read from the runs actor's query
-- actions: what the queue shows of gates while the runs actor is not reachable (its decisions then wait, the 503 row).
CREATE TABLE approval_gate_rows (
  run_id text PRIMARY KEY,
  project_id text,
  seq integer NOT NULL,
  row jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX approval_gate_rows_project_idx ON approval_gate_rows (project_id);
