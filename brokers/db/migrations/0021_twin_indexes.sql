-- Indexes for the twin's HTTP views (bench:twin: 10,000 items, 100,000 revisions).
-- Stale nodes of a project: the current view marks stale heads without joining every revision.
CREATE INDEX twin_nodes_stale_idx ON twin_nodes (project_id) WHERE stale;
-- GET /v1/twin/nodes?project_id=: newest first within a project without sorting all its revisions.
CREATE INDEX twin_nodes_project_created_idx ON twin_nodes (project_id, created_at DESC, id);
-- GET /v1/simulation/results without a project filter: results newest first.
CREATE INDEX twin_nodes_type_created_idx ON twin_nodes (node_type, created_at DESC, id);
