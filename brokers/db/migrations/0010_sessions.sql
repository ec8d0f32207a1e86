-- Captured agent sessions: owned by the sessions actor (read by the memory actor).
CREATE TABLE agent_sessions (
  id uuid PRIMARY KEY,
  -- Insertion order: breaks ties between rows created in the same millisecond (newest-first lists).
  ord bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  project_id text,
  title text NOT NULL,
  client text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed')),
  summary text,
  event_count integer NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL,
  completed_at timestamptz,
  CHECK ((status = 'completed') = (completed_at IS NOT NULL))
);
CREATE INDEX agent_sessions_started_idx ON agent_sessions (started_at DESC, ord DESC);
CREATE INDEX agent_sessions_project_idx ON agent_sessions (project_id, started_at DESC, ord DESC);

-- One row per event; seq counts from 1 per session without gaps (assigned under the session's row lock).
CREATE TABLE agent_session_events (
  -- Insertion order across sessions (newest-first insight lists).
  ord bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  session_id uuid NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
  seq integer NOT NULL CHECK (seq >= 1),
  kind text NOT NULL CHECK (kind IN ('note', 'decision', 'tool_call', 'insight', 'lesson', 'error')),
  message text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (session_id, seq)
);
