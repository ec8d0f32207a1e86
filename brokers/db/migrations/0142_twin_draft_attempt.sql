-- Every effect of a run is fenced and scoped (issue 32 point 6, decision 0142): a draft records the attempt of the
-- phase that wrote it, so a gate's commit takes only the drafts of its own phase and attempt, and a retry's close only
-- the drafts of the attempts before it. Drafts from before have a NULL attempt: they belong to the run as a whole, as
-- every draft did then (any gate's commit or close of their run takes them).
ALTER TABLE twin_nodes ADD COLUMN attempt integer;
