-- The harness actor's config part (issue 15, SPEC part 6, "Chat and harness rules" 10-11): the durable selection
-- and the projects' model routes. Credentials are not here: they live in the owner-only file at
-- SERVICE_CREDENTIALS_PATH.
--
-- harness_selection: one row (id = 'default'), the provider and model of every role without a route. Stored as
-- given; a selection that no longer fits its provider is ignored on read and reported as a problem.
CREATE TABLE harness_selection (
  id text PRIMARY KEY CHECK (id = 'default'),
  provider text NOT NULL,
  model text NOT NULL,
  updated_at timestamptz NOT NULL
);

-- harness_project_routes: a project's per-role routes (rule 11's "the project's routes"), written by
-- PUT /v1/harness/routing/projects/{project_id}. project_id is the project's id as the caller gave it (projects belong
-- to another actor: no foreign key across actors).
CREATE TABLE harness_project_routes (
  project_id text NOT NULL,
  role text NOT NULL,
  provider text NOT NULL,
  model text NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, role)
);
