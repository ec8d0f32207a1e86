-- The harness call ledger names the principal a call was made for (issue 29 point 3, decision 0113): a run's model
-- calls carry the subject and client id of who started the run; calls made for no principal leave both null.
ALTER TABLE harness_llm_calls ADD COLUMN principal_subject text;
ALTER TABLE harness_llm_calls ADD COLUMN principal_client_id text;
CREATE INDEX harness_llm_calls_subject_idx ON harness_llm_calls (principal_subject, at) WHERE principal_subject IS NOT NULL;
