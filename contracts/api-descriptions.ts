/**
 * The spec's words for each HTTP route (SPEC.md route tables, kept as data): the OpenAPI document's summaries.
 * Keyed by method and path with parameters as `{}` (names differ between the spec and the routes).
 */
export const API_DESCRIPTIONS: Record<string, string> = {
  'GET /v1/approvals': 'returns approval list response; decided means every item that is not pending',
  'GET /v1/approvals/{}': 'one approval item',
  'POST /v1/approvals/{}/decision': 'body {decision, reason, to_phase}; returns the updated item',
  'POST /v1/approvals/{}/inline-decision':
    "gate decision a person gave in the client's own prompt; body adds approver and approver_verified; gates only",
  'POST /v1/runs/{}/approval': 'run gate decision body',
  'POST /v1/chat/tool_approvals/{}':
    'held tool call decision; also GET and POST /v1/chat/tool_approvals[/{run_id}] to list and resolve',
  'GET /v1/chat/tool_approvals': 'held tool calls, to list and resolve',
  'GET /v1/chat/tool_approvals/{}': 'held tool calls, to list and resolve',
  'POST /v1/chat/tool_approvals': 'held tool calls, to list and resolve',
  'POST /api/v1/assistant/proposals/{}/decide': 'assistant proposal decision body',
  'POST /v1/assistant/proposals/{}/decide': 'assistant proposal decision body',
  'POST /v1/design-loop/{}/approve': 'design-loop approval body',
  'POST /v1/twin/nodes/{}/approve-sketch': 'sketch approval body',
  'POST /v1/twin/nodes/{}/approve-technical-drawing': 'drawing approval body',
  'GET /v1/projects': 'list',
  'POST /v1/projects': 'create',
  'GET /v1/projects/{}': 'one project',
  'POST /v1/runs':
    'design-flow request with design_flow (hardware_v1 or mech_v1) and start: true; the dashboard then opens the run',
  'GET /v1/runs': 'runs of a project; every run carries project_id as a real field',
  'GET /v1/runs/{}': 'one run, with usage',
  'GET /v1/runs/{}/flow-state':
    'flow state with usage on the run and on each phase; state query also reports mode, running, skipped',
  'GET /v1/runs/usage/summary': 'trailing-window usage summary (24 used in the dashboard)',
  'GET /v1/runs/{}/lifecycle': 'lifecycle view, limits on what could be read, nextStep sentence',
  'GET /v1/twin/runs/{}/changes':
    'item revisions the run produced and what each gate did (approved into a baseline, waiting, closed)',
  'POST /v1/runs/{}/patches': 'propose a patch; saves a new version and holds a flow_patch approval',
  'POST /v1/runs/{}/patches/{}/apply':
    'apply an approved patch; refused until approved; signals the change with its re-run set; refused as stale when the flow moved on',
  'POST /v1/design-flows/intent': 'compiles the intent model from a request and context',
  'GET /v1/design-flows/{}/capabilities': 'capability report',
  'GET /v1/design-flows/versions/{}/capabilities': 'capability report for a version',
  'GET /v1/sessions': 'captured agent sessions',
  'GET /v1/sessions/{}': 'captured agent sessions',
  'GET /v1/twin/current-view': 'current item revisions grouped by type',
  'GET /v1/twin/items/{}/revisions': 'history and comparison',
  'GET /v1/twin/items/{}/diff': 'history and comparison',
  'GET /v1/twin/items/{}/prd': 'derived requirements document (prose plus current intent, needs and requirement table)',
  'GET /v1/twin/projects/{}/prd': 'rendered prd',
  'GET /v1/twin/baselines': 'baseline list and diff (diff of two baselines, or one against current)',
  'GET /v1/twin/baselines/diff': 'baseline list and diff (diff of two baselines, or one against current)',
  'GET /v1/twin/nodes': 'graph reads; node carries assemblyParts for assemblies',
  'GET /v1/twin/nodes/{}': 'graph reads; node carries assemblyParts for assemblies',
  'GET /v1/twin/relationships': 'graph reads; node carries assemblyParts for assemblies',
  'GET /v1/twin/links': 'graph reads; node carries assemblyParts for assemblies',
  'GET /v1/twin/revision-index': 'graph reads; node carries assemblyParts for assemblies',
  'GET /v1/twin/nodes/{}/model': 'converted 3D model (STEP to GLB)',
  'GET /v1/twin/nodes/{}/file': 'stored file; solver formats: frd and dat as text, vtu as XML',
  'GET /v1/twin/nodes/{}/versions': 'versions',
  'POST /v1/twin/import': 'multipart import form',
  'POST /v1/convert': 'multipart upload, answers conversion result',
  'GET /v1/simulation/load-cases': 'reusable boundary conditions',
  'POST /v1/simulation/load-cases': 'reusable boundary conditions',
  'POST /v1/simulation/named-faces': 'named faces',
  'GET /v1/simulation/results': 'result listing',
  'GET /v1/simulation/results/{}/field':
    "payload with Content-Type application/vnd.service.sim-field+json, Content-Encoding gzip, ETag equal to the field's content hash; 404 with text field not stored for a result without a field (a normal state)",
  'GET /v1/bom': 'BOM list',
  'GET /v1/compliance/{}/checklist':
    'compliance: checklist response (project_id, target_markets, total_items, evidenced_items, coverage_percent, items)',
  'GET /v1/compliance/{}/coverage':
    'compliance: coverage response (project_id, total_items, evidenced_items, coverage_percent)',
  'GET /v1/compliance/{}/evidence': 'compliance: the evidence of the checklist',
  'GET /v1/knowledge/sources':
    'ingested sources (also exposed as the tool-server resource service://knowledge/sources)',
  'POST /v1/memory/consolidate': 'consolidation trigger request',
  'POST /api/v1/assistant/request': 'assistant request',
  'POST /v1/assistant/request': 'assistant request',
  'POST /v1/harness/credentials': 'store a provider credential (admin token header semantics follow Authentication)',
  'PUT /v1/harness/selection': 'choose provider and model; 400 when the model does not fit the provider family',
  'GET /v1/harness/providers': 'providers with configured status, last_fallback, fallback_count',
  'GET /v1/harness/routing':
    'effective routes, each marked configured, plus problems; roles absent run on default_provider / default_model',
  'GET /health': 'gateway roll-up; open',
  'GET /v1/chat/threads/{}/stream': 'SSE stream of a chat turn',
  'POST /mcp':
    'JSON-RPC request: answer is application/json, or 204 for a notification; initialize issues an Mcp-Session-Id the client echoes afterwards. A JSON-RPC response posted here (the client answering a server request such as elicitation/create) is routed by id and acknowledged 202. Optional query ?profile=<name>',
  'GET /mcp/sse':
    'SSE transport (launch with transport sse); each response arrives as an event: response block, terminated by one event: done block',
};

/**
 * This service's own words for the routes the spec leaves unnamed (README names them): its choices, never the spec's.
 */
export const SERVICE_DESCRIPTIONS: Record<string, string> = {
  'PATCH /v1/projects/{}': 'rename a project or change its description',
  'DELETE /v1/projects/{}': 'delete a project (204)',
  'GET /v1/chat/threads': 'chat threads, newest first',
  'POST /v1/chat/threads': 'create a chat thread',
  'GET /v1/chat/threads/{}': 'one chat thread with its messages',
  'POST /v1/chat/threads/{}/messages': "post a message; its turn runs on (202), follow it on the thread's stream",
  'GET /v1/convert/{}': 'a converted model (GLB) by its content hash, as the conversion result names it',
  'PUT /v1/harness/routing/projects/{}': "a project's model route per role (admin)",
  'GET /v1/knowledge/sources/{}': 'one ingested source with its text',
  'GET /v1/twin/baselines/{}': 'one baseline with its item revisions',
  'POST /v1/twin/constraints': "add a constraint to the project's constraint set (its next revision)",
  'POST /v1/runs/{}/cancel':
    "cancel a run {reason}: its running phase's engine calls are aborted, its open gate reads canceled, what it recorded stays; 409 once ended (decision 0140)",
  'GET /v1/auth/config':
    "the dashboard's sign-in settings: sign_in false without an issuer, else issuer, public client id, scopes, resource",
};

/** A route's key: method and path with its parameters as `{}` (`:id` and `{id}` alike), no trailing slash. */
const keyOf = (method: string, url: string) =>
  `${method.toUpperCase()} ${url.replace(/:[A-Za-z0-9_]+|\{[^}]*\}/g, '{}').replace(/(.)\/$/, '$1')}`;

/** The spec's description of a route, if it names one. */
export const apiDescription = (method: string, url: string): string | undefined =>
  Object.hasOwn(API_DESCRIPTIONS, keyOf(method, url)) ? API_DESCRIPTIONS[keyOf(method, url)] : undefined;

/** The summary a route's documentation carries: the spec's words, else this service's own. */
export const routeSummary = (method: string, url: string): string | undefined =>
  apiDescription(method, url) ??
  (Object.hasOwn(SERVICE_DESCRIPTIONS, keyOf(method, url)) ? SERVICE_DESCRIPTIONS[keyOf(method, url)] : undefined);

/** The area a route belongs to in the reference (its first segment under /v1 or /api/v1; `health`). */
export const routeTag = (url: string): string => /^\/(?:api\/)?v1\/([^/?]+)/.exec(url)?.[1] ?? url.replace(/^\//, '');
