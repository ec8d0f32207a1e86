-- Flow patches and flow proposals: owned by the runs actor. A patch or proposal is a new frozen flow version
-- (flow_versions) held for a person: kind flow_patch (a run's flow) or flow_version (a tailored flow to start runs
-- on). `status` is the approval's state; the approvals work writes approved or rejected, the runs actor applied/stale.
CREATE TABLE flow_patches (
  run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  version integer NOT NULL,
  version_id text NOT NULL REFERENCES flow_versions (version_id),
  base_hash text NOT NULL,
  content_hash text NOT NULL,
  operations jsonb NOT NULL,
  affected text[] NOT NULL DEFAULT '{}',
  reason text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'applied', 'stale')),
  status_reason text,
  decided_by text,
  decided_at timestamptz,
  rerun text[] NOT NULL DEFAULT '{}',
  applied_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, version)
);
CREATE INDEX flow_patches_pending_idx ON flow_patches (created_at) WHERE status = 'pending';

CREATE TABLE flow_proposals (
  version_id text PRIMARY KEY REFERENCES flow_versions (version_id),
  flow_id text NOT NULL,
  operations jsonb NOT NULL DEFAULT '[]'::jsonb,
  reason text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  decided_by text,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flow_proposals_pending_idx ON flow_proposals (created_at) WHERE status = 'pending';
