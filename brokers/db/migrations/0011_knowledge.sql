-- Knowledge sources and their chunks: owned by the knowledge actor. Full-text search, no extensions.
CREATE TABLE knowledge_sources (
  id uuid PRIMARY KEY,
  -- Insertion order: breaks ties between sources created in the same millisecond (newest-first lists).
  ord bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  title text NOT NULL,
  uri text,
  project_id text,
  media_type text NOT NULL DEFAULT 'text/plain',
  content_sha256 text NOT NULL,
  bytes integer NOT NULL,
  chunk_count integer NOT NULL,
  created_at timestamptz NOT NULL
);
-- The same content is one source per project; unscoped sources share the '' slot (NULLs would all be distinct).
CREATE UNIQUE INDEX knowledge_sources_content_idx ON knowledge_sources ((COALESCE(project_id, '')), content_sha256);
CREATE INDEX knowledge_sources_created_idx ON knowledge_sources (created_at DESC, ord DESC);
CREATE INDEX knowledge_sources_project_idx ON knowledge_sources (project_id, created_at DESC, ord DESC);

-- Chunks partition the source text exactly: their concatenation in ordinal order is the text.
CREATE TABLE knowledge_chunks (
  source_id uuid NOT NULL REFERENCES knowledge_sources (id) ON DELETE CASCADE,
  ordinal integer NOT NULL CHECK (ordinal >= 0),
  text text NOT NULL,
  tsv tsvector NOT NULL,
  PRIMARY KEY (source_id, ordinal)
);
CREATE INDEX knowledge_chunks_tsv_idx ON knowledge_chunks USING gin (tsv);
