-- The harness actor's call ledger (issue 15, SPEC "Usage totals", "Observability signals"): owned by the harness
-- actor's usage part.
--
-- harness_llm_calls, one row per model call, keyed by the call's own id so a retried record changes nothing. Tokens
-- as the provider reported them (usage_reported false when it reported none); cost_usd from the price table at
-- record time, null when the model had no price (priced false) or no usage was reported; subscription marks calls
-- covered by a flat plan (cost 0).
CREATE TABLE harness_llm_calls (
  id text PRIMARY KEY,
  at timestamptz NOT NULL,
  provider text NOT NULL,
  model text NOT NULL,
  role text NOT NULL,
  phase text,
  run_id text,
  project_id text,
  credential_id text,
  prompt_tokens integer NOT NULL CHECK (prompt_tokens >= 0),
  completion_tokens integer NOT NULL CHECK (completion_tokens >= 0),
  cached_input_tokens integer NOT NULL CHECK (cached_input_tokens >= 0),
  usage_reported boolean NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('ok', 'failed')),
  failure_class text,
  latency_ms double precision NOT NULL,
  priced boolean NOT NULL,
  subscription boolean NOT NULL,
  cost_usd double precision CHECK (cost_usd >= 0),
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX harness_llm_calls_at_idx ON harness_llm_calls (at);
CREATE INDEX harness_llm_calls_run_idx ON harness_llm_calls (run_id) WHERE run_id IS NOT NULL;

-- A run's priced spend so far, one row per run, and when it first crossed SERVICE_RUN_SPEND_ALERT_USD: the upsert
-- that adds a call's cost locks the row, so exactly one record (across concurrent records and nodes) sets
-- alerted_at, and a restart never alerts again.
CREATE TABLE harness_run_spend (
  run_id text PRIMARY KEY,
  spend_usd double precision NOT NULL DEFAULT 0,
  alerted_at timestamptz,
  alert_role text,
  updated_at timestamptz NOT NULL
);
