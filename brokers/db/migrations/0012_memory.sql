-- Memory reads the sessions tables (README "Memory"); these expression indexes serve its full-text lookups.
-- The expressions must stay identical to the ones in actors/memory/memory.store.ts for the planner to use them.
CREATE INDEX agent_sessions_fts_idx ON agent_sessions
  USING gin (to_tsvector('english', title || ' ' || COALESCE(summary, '')));
CREATE INDEX agent_session_events_fts_idx ON agent_session_events
  USING gin (to_tsvector('english', message));
-- Insights and lessons, newest first.
CREATE INDEX agent_session_events_insights_idx ON agent_session_events (created_at DESC, ord DESC)
  WHERE kind IN ('insight', 'lesson');
