-- The approvals queue (actor `approvals`): a read model over the sources (runs, the tool-approval ledger, twin nodes)
-- plus the few decisions only the queue can keep.
--
-- approval_decisions, one row per decided target (a gate id):
--   state 'saved'      a reject of a gate whose run (its workflow) no longer exists: saved, no run to signal (SPEC 200 row);
--   state 'delivering' a gate decision recorded while the runs actor could not be reached (SPEC 503 row); the queue
--                      delivers it with its idempotency key once the runs actor is back, and deletes the row when the
--                      run refuses it (a refused decision leaves no entry).
-- The primary key makes concurrent decisions on one gate race on one insert: exactly one wins.
CREATE TABLE approval_decisions (
  approval_id text NOT NULL,
  target_id text NOT NULL,
  kind text NOT NULL,
  state text NOT NULL CHECK (state IN ('saved', 'delivering')),
  project_id text,
  decision jsonb NOT NULL,
  command jsonb NOT NULL DEFAULT '{}'::jsonb,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (approval_id, target_id)
);
CREATE INDEX approval_decisions_delivering_idx ON approval_decisions (created_at) WHERE state = 'delivering';

-- Idempotency-Key of a decision the client sent on a tool or twin item: a repeat answers the item as it stands
-- (gate decisions are deduplicated by the run's own log).
CREATE TABLE approval_idempotency (
  idem text PRIMARY KEY,
  approval_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Read-model indexes over the sources (bench:approvals: 10,000 pending items across kinds and projects).
-- Runs parked at a gate, per project, newest first.
CREATE INDEX runs_gate_open_idx ON runs (project_id, created_at DESC) WHERE status = 'awaiting_approval';
-- Ended runs that may have left a gate undecided (their workflow no longer exists, or they were cancelled at it).
CREATE INDEX runs_ended_gate_idx ON runs (project_id, created_at DESC) WHERE status IN ('cancelled', 'failed');
-- The last gate opened and decided of a run, without reading its whole log.
CREATE INDEX run_events_gates_idx ON run_events (run_id, seq DESC) WHERE type IN ('GateOpened', 'GateDecided');
-- Twin nodes a person approves: design changes, design loops, sketches, technical drawings.
CREATE INDEX twin_nodes_approvals_idx ON twin_nodes (project_id, created_at DESC)
  WHERE node_type IN ('design_change', 'design_loop', 'sketch', 'technical_drawing');
-- Pending ledger records by kind (the kind filter of the queue).
CREATE INDEX tool_approvals_kind_pending_idx ON tool_approvals (kind, project_id, created_at DESC) WHERE status = 'awaiting_approval';
