-- A running chat turn's lease (chat actor): the node running it renews heartbeat_at; a turn whose lease lapsed has no
-- node running it any more (its process stopped) and is ended by any chat node's sweep. A node starting next to one
-- still running (a rolling update) leaves that node's turns alone.
ALTER TABLE chat_turns ADD COLUMN heartbeat_at timestamptz;
UPDATE chat_turns SET heartbeat_at = started_at WHERE heartbeat_at IS NULL;
ALTER TABLE chat_turns ALTER COLUMN heartbeat_at SET NOT NULL;
CREATE INDEX chat_turns_running_idx ON chat_turns (heartbeat_at) WHERE status = 'running';
