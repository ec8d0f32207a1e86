-- Design-flow runs: owned by the runs actor. A run is its ordered event log; `runs` holds the folded projection
-- and the ownership lease (owner, epoch fencing token, lease_until).
CREATE TABLE flow_versions (
  version_id text PRIMARY KEY,
  flow_id text NOT NULL,
  content_hash text NOT NULL,
  definition jsonb NOT NULL,
  facts jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE runs (
  id text PRIMARY KEY,
  project_id text,
  design_flow text NOT NULL,
  version_id text NOT NULL,
  status text NOT NULL,
  seq integer NOT NULL DEFAULT 0,
  epoch bigint NOT NULL DEFAULT 0,
  owner text,
  lease_until timestamptz,
  state jsonb NOT NULL,
  request jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX runs_project_idx ON runs (project_id, created_at DESC);
CREATE INDEX runs_status_idx ON runs (status) WHERE status IN ('running', 'awaiting_approval');
CREATE INDEX runs_owner_idx ON runs (owner) WHERE owner IS NOT NULL;

CREATE TABLE run_events (
  run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  type text NOT NULL,
  payload jsonb NOT NULL,
  epoch bigint NOT NULL,
  node text,
  idem text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, seq)
);
-- A command carrying an idempotency key is applied once per run.
CREATE UNIQUE INDEX run_events_idem_idx ON run_events (run_id, idem) WHERE idem IS NOT NULL;
