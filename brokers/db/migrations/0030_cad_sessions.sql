-- CAD sessions: owned by the cadsessions actor. A session's feature history (cad_session_features) is the source of
-- truth of its document; a kernel thread that lost the document (recycled, crashed, another node) replays it.
CREATE TABLE cad_sessions (
  id uuid PRIMARY KEY,
  project_id text,
  name text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  -- Number of recorded features; the next one gets seq = feature_count + 1 (appends are conditional on it).
  feature_count integer NOT NULL DEFAULT 0 CHECK (feature_count >= 0),
  -- The node that last applied a command (placement only; the conditional append is what keeps writers apart).
  owner_node text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  closed_at timestamptz,
  CHECK ((status = 'closed') = (closed_at IS NOT NULL))
);
CREATE INDEX cad_sessions_project_idx ON cad_sessions (project_id, created_at DESC);

-- One row per recorded operation, seq from 1 without gaps.
CREATE TABLE cad_session_features (
  session_id uuid NOT NULL REFERENCES cad_sessions (id) ON DELETE CASCADE,
  seq integer NOT NULL CHECK (seq >= 1),
  op text NOT NULL,
  args jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (session_id, seq)
);

-- Files a session imported, by content hash (a replay needs the bytes even when the workspace file is gone).
CREATE TABLE cad_session_files (
  sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  content bytea NOT NULL,
  size_bytes integer NOT NULL,
  created_at timestamptz NOT NULL
);

-- The export stash (SPEC Twin rule 6): the latest STEP export_model wrote per (session, obj_id).
CREATE TABLE cad_session_exports (
  session_id uuid NOT NULL REFERENCES cad_sessions (id) ON DELETE CASCADE,
  obj_id text NOT NULL,
  step bytea NOT NULL,
  sha256 text NOT NULL,
  feature_seq integer NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (session_id, obj_id)
);
