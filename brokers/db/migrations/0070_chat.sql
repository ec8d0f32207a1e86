-- The chat actor's tables (issue 16): threads, their messages and the events of their turns, owned by the chat actor.
--
-- chat_threads: a conversation, optionally bound to a project and a design-flow run.
CREATE TABLE chat_threads (
  id text PRIMARY KEY,
  project_id text,
  run_id text,
  title text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX chat_threads_project_idx ON chat_threads (project_id, updated_at DESC);

-- chat_messages: the conversation as the model sees it, numbered per thread (user, assistant, tool).
CREATE TABLE chat_messages (
  thread_id text NOT NULL REFERENCES chat_threads (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  role text NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
  content text NOT NULL,
  tool_calls jsonb NOT NULL DEFAULT '[]',
  tool_call_id text,
  turn_id text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (thread_id, seq)
);

-- chat_turns: one model turn per posted message; at most one running per thread.
CREATE TABLE chat_turns (
  id text PRIMARY KEY,
  thread_id text NOT NULL REFERENCES chat_threads (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  started_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE UNIQUE INDEX chat_turns_one_running ON chat_turns (thread_id) WHERE status = 'running';

-- chat_events: what the stream carries, numbered per thread (the SSE event id), so a reconnecting client resumes.
CREATE TABLE chat_events (
  thread_id text NOT NULL REFERENCES chat_threads (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  turn_id text NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (thread_id, seq)
);
CREATE INDEX chat_events_turn_idx ON chat_events (turn_id, seq);
