-- The run fence of twin writes, owned by the runs actor (README "Run fence"). The twin's write transaction calls
-- run_fence_epoch(run_id) instead of reading the runs table: the function takes the run row FOR SHARE and answers the
-- epoch the run is held under (NULL when there is no such run). The share lock lasts until the caller's transaction
-- ends, so a takeover (an UPDATE of the epoch) is ordered entirely before or entirely after the write.
CREATE FUNCTION run_fence_epoch(p_run_id text) RETURNS bigint
  LANGUAGE sql VOLATILE
  AS $$ SELECT epoch FROM runs WHERE id = p_run_id FOR SHARE $$;
