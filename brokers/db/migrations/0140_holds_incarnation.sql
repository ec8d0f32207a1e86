-- A hold belongs to its client's connection (issue 32 point 7, decision 0141). A held call records the incarnation of
-- the holds actor's node that waits on it (node_instance: the broker's instance id, new at every start even under the
-- same SERVICE_NODE_ID) and the gateway node holding the caller's stream with its incarnation (client_node,
-- client_instance). A start, a node leaving, or a node coming back as a new incarnation orphans the held calls of the
-- incarnation that is gone. Rows from before have NULL incarnations: only their node ids are compared.
ALTER TABLE tool_approvals ADD COLUMN node_instance text;
ALTER TABLE tool_approvals ADD COLUMN client_node text;
ALTER TABLE tool_approvals ADD COLUMN client_instance text;
CREATE INDEX tool_approvals_client_node_idx ON tool_approvals (client_node) WHERE status = 'awaiting_approval';
