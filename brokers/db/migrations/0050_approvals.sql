-- The tool-approval ledger: owned by the holds actor. Hold windows and progress are timer rows (deadline,
-- next_progress_at) activated by a reaper, never in-memory timeouts.
CREATE TABLE tool_approvals (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('tool_call', 'human_authority', 'flow_proposal', 'flow_version', 'flow_patch')),
  status text NOT NULL CHECK (status IN ('awaiting_approval', 'approved', 'rejected', 'expired', 'canceled', 'failed')),
  tool_id text,
  title text NOT NULL,
  arguments jsonb NOT NULL DEFAULT '{}'::jsonb,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  project_id text,
  requested_by text,
  reason_held text,
  route text CHECK (route IN ('dashboard', 'elicitation')),
  source text NOT NULL DEFAULT 'mcp',
  call_id text,
  session_id text,
  node text,
  window_seconds integer,
  deadline timestamptz,
  next_progress_at timestamptz,
  decision jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tool_approvals_pending_idx ON tool_approvals (project_id, created_at DESC) WHERE status = 'awaiting_approval';
CREATE INDEX tool_approvals_deadline_idx ON tool_approvals (deadline) WHERE status = 'awaiting_approval';
CREATE INDEX tool_approvals_created_idx ON tool_approvals (created_at DESC, id);
