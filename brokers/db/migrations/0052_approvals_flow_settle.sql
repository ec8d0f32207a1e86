-- Decided flow approvals by time: the approvals queue writes their decision into flow_patches / flow_proposals and,
-- when that write failed part-way, writes it again on its next pass (the last ten minutes, the whole ledger at start).
CREATE INDEX tool_approvals_flow_decided_idx ON tool_approvals (updated_at)
  WHERE kind IN ('flow_patch', 'flow_version', 'flow_proposal') AND status IN ('approved', 'rejected');
