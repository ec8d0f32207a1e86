-- A baseline pins every current item of its project: one row of parallel arrays per baseline instead of one row per
-- item, so a gate approval pins 10,000 items with one small insert (row-per-item inserts dominated the commit).
CREATE TABLE twin_baseline_pins (
  baseline_id uuid PRIMARY KEY REFERENCES twin_baselines (id) ON DELETE CASCADE,
  keys text[] NOT NULL,
  item_types text[] NOT NULL,
  names text[] NOT NULL,
  node_ids uuid[] NOT NULL,
  revisions integer[] NOT NULL,
  item_count integer NOT NULL
);
INSERT INTO twin_baseline_pins (baseline_id, keys, item_types, names, node_ids, revisions, item_count)
SELECT baseline_id, array_agg(key ORDER BY key), array_agg(item_type ORDER BY key), array_agg(name ORDER BY key),
       array_agg(node_id ORDER BY key), array_agg(revision ORDER BY key), count(*)
FROM twin_baseline_items GROUP BY baseline_id;
DROP TABLE twin_baseline_items;
