-- A run's items are its own (decision 0100, issue 28 point 1): an item records the run that created it, a name written
-- by a run resolves among that run's items and the items no run owns, and a run revises another run's item only when
-- its start request listed the key (twin_run_revisions).
ALTER TABLE twin_items ADD COLUMN origin_run_id text;
-- Items written before this migration belong to the run of their first revision (none when a person created them).
UPDATE twin_items i SET origin_run_id = f.run_id
FROM (SELECT DISTINCT ON (item_key) item_key, run_id FROM twin_nodes WHERE item_key IS NOT NULL
      ORDER BY item_key, created_at, id) f
WHERE f.item_key = i.key AND f.run_id IS NOT NULL;
-- The same name in the same project is the same item within one run (or among items no run owns): two runs may each
-- own an item of the same name.
DROP INDEX twin_items_identity_idx;
CREATE UNIQUE INDEX twin_items_identity_idx ON twin_items (COALESCE(project_id, ''), item_type, name, COALESCE(origin_run_id, ''));
CREATE INDEX twin_items_origin_run_idx ON twin_items (origin_run_id) WHERE origin_run_id IS NOT NULL;

-- The other runs' items a run's start request asked to revise (`revise`), validated and recorded before it starts.
CREATE TABLE twin_run_revisions (
  run_id text NOT NULL,
  item_key text NOT NULL REFERENCES twin_items (key),
  project_id text,
  declared_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, item_key)
);
