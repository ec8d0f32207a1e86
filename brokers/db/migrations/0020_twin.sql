-- The digital twin: owned by the twin actor.
-- Nodes are typed work products; an item is a revisioned definition whose revisions are nodes (KEY@n).
CREATE TABLE twin_nodes (
  id uuid PRIMARY KEY,
  project_id text,
  node_type text NOT NULL,
  name text NOT NULL,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- item revision fields (null for append-only records such as decisions and documents)
  item_key text,
  revision integer,
  revision_status text CHECK (revision_status IN ('committed', 'draft', 'approved', 'rejected', 'abandoned')),
  base_revision integer,
  run_id text,
  phase text,
  gate text,
  change_reason text,
  draft_note text,
  status_reason text,
  author text,
  approved_by text,
  approved_at timestamptz,
  -- validity
  stale boolean NOT NULL DEFAULT false,
  stale_reason text,
  -- primary file
  object_key text,
  content_hash text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX twin_nodes_project_type_idx ON twin_nodes (project_id, node_type, created_at DESC);
CREATE INDEX twin_nodes_item_idx ON twin_nodes (item_key, revision);
CREATE INDEX twin_nodes_run_idx ON twin_nodes (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX twin_nodes_created_idx ON twin_nodes (created_at DESC, id);

CREATE TABLE twin_items (
  key text PRIMARY KEY,
  project_id text,
  item_type text NOT NULL,
  name text NOT NULL,
  head_revision integer NOT NULL DEFAULT 0,
  head_node_id uuid REFERENCES twin_nodes (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- With no key given, the same name in the same project (and type) is the same item.
CREATE UNIQUE INDEX twin_items_identity_idx ON twin_items (COALESCE(project_id, ''), item_type, name);
CREATE INDEX twin_items_project_idx ON twin_items (project_id, item_type);

CREATE TABLE twin_edges (
  id bigserial PRIMARY KEY,
  src uuid NOT NULL REFERENCES twin_nodes (id) ON DELETE CASCADE,
  dst uuid NOT NULL REFERENCES twin_nodes (id) ON DELETE CASCADE,
  rel_type text NOT NULL,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX twin_edges_src_idx ON twin_edges (src, rel_type);
CREATE INDEX twin_edges_dst_idx ON twin_edges (dst, rel_type);

-- One change set per design-flow run: its drafts are committed or closed together.
CREATE TABLE twin_change_sets (
  id text PRIMARY KEY,
  project_id text,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'committed', 'rejected', 'abandoned')),
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz
);

CREATE TABLE twin_baselines (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  project_id text,
  gate_id text,
  run_id text,
  approved_by text[] NOT NULL DEFAULT '{}',
  reason text NOT NULL DEFAULT '',
  source text NOT NULL DEFAULT 'manual',
  created_at timestamptz NOT NULL DEFAULT now()
);
-- A gate approval records one baseline per (project, gate, run).
CREATE UNIQUE INDEX twin_baselines_gate_idx ON twin_baselines (COALESCE(project_id, ''), gate_id, run_id) WHERE gate_id IS NOT NULL;
CREATE INDEX twin_baselines_project_idx ON twin_baselines (project_id, created_at DESC);

CREATE TABLE twin_baseline_items (
  baseline_id uuid NOT NULL REFERENCES twin_baselines (id) ON DELETE CASCADE,
  key text NOT NULL,
  item_type text NOT NULL,
  name text NOT NULL DEFAULT '',
  node_id uuid NOT NULL,
  revision integer NOT NULL,
  PRIMARY KEY (baseline_id, key)
);

CREATE TABLE twin_baseline_members (
  baseline_id uuid NOT NULL REFERENCES twin_baselines (id) ON DELETE CASCADE,
  entity_kind text NOT NULL,
  entity_id text NOT NULL,
  revision integer,
  PRIMARY KEY (baseline_id, entity_kind, entity_id)
);

-- Content-addressed blobs (SHA-256) and the object keys that name them.
CREATE TABLE blobs (
  sha256 text PRIMARY KEY,
  size_bytes bigint NOT NULL,
  media_type text NOT NULL DEFAULT 'application/octet-stream',
  content bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE blob_objects (
  object_key text PRIMARY KEY,
  sha256 text NOT NULL REFERENCES blobs (sha256),
  node_id uuid,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blob_objects_node_idx ON blob_objects (node_id);

-- Reusable boundary conditions for simulations.
CREATE TABLE simulation_load_cases (
  id uuid PRIMARY KEY,
  project_id text,
  name text NOT NULL,
  spec jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
