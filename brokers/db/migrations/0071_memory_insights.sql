-- The memory actor's consolidated insights (issue 16, SPEC "Consolidation trigger request"): owned by the memory
-- actor, written only by `memory.consolidate` (one transaction per run), read by `memory.insights` and
-- `memory.similar`. The verbatim insights stay where they were logged, in the sessions actor's tables.
--
-- memory_insights, one row per accepted insight: its theme and text, its tier (llm_inferred: written by the
-- summarisation model; verbatim insights never come here), the model's own certainty (high, medium, low) and the
-- importance it gave, the sessions and events it came from (sources: [{session_id, seq}], seq null for a whole
-- session), the model that served the call and the harness ledger record of that call (record_id).
CREATE TABLE memory_insights (
  id text PRIMARY KEY,
  project_id text,
  theme text NOT NULL,
  text text NOT NULL,
  confidence text NOT NULL CHECK (confidence IN ('llm_inferred', 'derived')),
  certainty text NOT NULL CHECK (certainty IN ('high', 'medium', 'low')),
  importance double precision NOT NULL CHECK (importance >= 0 AND importance <= 1),
  sources jsonb NOT NULL,
  model text NOT NULL,
  record_id text NOT NULL,
  created_at timestamptz NOT NULL,
  ord bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);
CREATE INDEX memory_insights_project_idx ON memory_insights (project_id, created_at DESC, ord DESC);
-- memory.similar's full-text match; the expression must stay identical to the one in actors/memory/memory.store.ts.
CREATE INDEX memory_insights_fts_idx ON memory_insights USING gin (to_tsvector('english', text));
