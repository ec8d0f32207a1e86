import type { z } from 'zod';
import type { ConfigSchema } from './config.ts';

/**
 * The meaning of every `SERVICE_*` variable of `ConfigSchema` (markdown), and for a variable with no default in the
 * schema what leaving it unset means. With the schema this is the one definition of the configuration:
 * `npm run docs:config` writes docs/configuration.md's table from both, and test/unit/readme-config.test.ts keeps
 * the two equal. The type makes a variable without a line here (or a line without a variable) a compile error.
 */
export interface ConfigDocLine {
  /** Shown as the default when the schema has none: `(unset)`, or what the service derives. */
  unset?: string;
  meaning: string;
}

export const CONFIG_DOC: Record<keyof z.infer<typeof ConfigSchema>, ConfigDocLine> = {
  SERVICE_HOST: { meaning: 'address the gateway listens on (0.0.0.0 in a container)' },
  SERVICE_PORT: { meaning: 'gateway HTTP port (0 picks a free port)' },
  SERVICE_METRICS_PORT: {
    unset: 'unset',
    meaning:
      "port on SERVICE_HOST where every node serves its own Prometheus metrics at `GET /metrics` (unset: none, the gateway's `/metrics` serves only the gateway's process; 9464 in the cluster, scraped by the PodMonitor)",
  },
  SERVICE_TRANSPORTER: {
    unset: '(unset)',
    meaning: 'NATS URL such as `nats://127.0.0.1:4222`; unset = one process, no transporter',
  },
  SERVICE_DATABASE_URL: { unset: '(unset)', meaning: 'PostgreSQL URL; unset = embedded PGlite in `SERVICE_DATA_DIR`' },
  SERVICE_DATA_DIR: {
    meaning: 'folder for the embedded database and workspace; `memory://` keeps the database in memory',
  },
  SERVICE_REDIS_URL: {
    unset: '(unset)',
    meaning: 'Redis URL for the Moleculer cacher and shared session state; unset = memory',
  },
  SERVICE_LOG_LEVEL: { meaning: 'pino level: fatal, error, warn, info, debug, trace' },
  SERVICE_BODY_LIMIT_BYTES: { meaning: 'largest JSON body the gateway accepts (10 MB); larger is 413' },
  SERVICE_REQUEST_TIMEOUT_MS: { meaning: 'default timeout of one actor call' },
  SERVICE_HTTP_HEADERS_TIMEOUT_MS: {
    meaning:
      'a client must send its request headers within this, else 408 `REQUEST_TIMEOUT` and the connection closes (capped by the next)',
  },
  SERVICE_HTTP_REQUEST_TIMEOUT_MS: {
    meaning:
      'a client must send its whole request, body included, within this, else 408 (uploads: 200 MB needs about 0.7 MB/s)',
  },
  SERVICE_HTTP_KEEPALIVE_TIMEOUT_MS: { meaning: 'an idle keep-alive connection is closed after this' },
  SERVICE_HTTP_IDLE_TIMEOUT_MS: {
    meaning:
      'a connection silent this long while none of its requests is being answered is closed (a held call or a long solve keeps its connection)',
  },
  SERVICE_HTTP_DRAIN_MS: {
    meaning:
      'on stop, SSE streams end at once (clients reconnect to another node) and other requests in flight get this long to finish; then every connection is closed, so a stop never waits on a client',
  },
  SERVICE_DRAIN_TIMEOUT_MS: {
    meaning:
      "on SIGTERM an adapter node leaves the balancer (other nodes stop picking it), refuses a call that still reaches it with a retryable SERVICE_NOT_AVAILABLE before it runs (the registry runs it on another replica), and lets its calls in flight finish for up to this; calls still running then are aborted and answer TOOL_UNAVAILABLE (may be run again); then it leaves the bus. k8s sets it from the adapter's longest call (`actors/adapters/kit/call-timeout.ts`), inside `terminationGracePeriodSeconds`",
  },
  SERVICE_HISTORY_TOKENS: {
    meaning:
      'thread history sent with a chat turn: the newest whole exchanges within this many tokens (estimated at 4 characters a token)',
  },
  SERVICE_CHAT_TWIN_WRITES: {
    meaning: "0 leaves the twin's write tools out of chat's offer (chat reads the twin only)",
  },
  SERVICE_CHAT_PROJECT_WRITES: { meaning: "0 leaves the project write tools out of chat's offer" },
  SERVICE_CHAT_APPROVAL_TIMEOUT_SECONDS: { meaning: 'a chat tool call held for a person is denied after this' },
  SERVICE_CHAT_MAX_STEPS: { meaning: 'model calls at most in one chat turn' },
  SERVICE_CHAT_CONTEXT_TOKENS: {
    meaning:
      "the chat model's context window; once a turn's request passes 60% of it, the turn's older tool results travel folded (tool, status and the ids they named), the latest step's whole",
  },
  SERVICE_ALLOWED_HOSTS: {
    meaning: 'extra Host/Origin names accepted besides localhost, 127.0.0.1 and [::1] (comma separated)',
  },
  SERVICE_NODE_ID: { unset: 'hostname-pid-rand', meaning: 'Moleculer node id' },
  SERVICE_NAMESPACE: { meaning: 'bus namespace; nodes only see nodes of the same namespace' },
  SERVICE_DB_POOL_MAX: { meaning: 'PostgreSQL pool size per process' },
  SERVICE_DB_STATEMENT_TIMEOUT_MS: {
    meaning:
      "PostgreSQL `statement_timeout` of the service's connections: a statement running longer is cancelled (0 = none; migrations are exempt). Not applied on PGlite",
  },
  SERVICE_DB_IDLE_TX_TIMEOUT_MS: {
    meaning:
      "PostgreSQL `idle_in_transaction_session_timeout` of the service's connections: a session idle this long inside a transaction (a paused or hung process holding a run's row) is ended by the server and its transaction rolled back, so another node can take the run over (0 = none, decision 0142). Not applied on PGlite (one process)",
  },
  SERVICE_NATS_HEARTBEAT_S: { meaning: 'bus heartbeat interval, seconds' },
  SERVICE_NATS_HEARTBEAT_TIMEOUT_S: { meaning: 'a node silent this long is declared dead, seconds' },
  SERVICE_MCP_API_KEY: {
    unset: '(unset)',
    meaning: 'shared key required as `Authorization: Bearer` on `/mcp` and `/mcp/sse`; unset = open',
  },
  SERVICE_PUBLIC_URL: {
    unset: '(unset)',
    meaning:
      'canonical base URL clients reach the service at (`https://design.example.com`); the OAuth protected resource is `<url>/mcp`; required with `SERVICE_OAUTH_ISSUER`',
  },
  SERVICE_OAUTH_ISSUER: {
    unset: '(unset)',
    meaning:
      'OAuth 2.1 / OpenID issuer whose JWT access tokens `/mcp` and `/mcp/sse` accept beside the shared key (RFC 9728 metadata at `/.well-known/oauth-protected-resource`, scopes `mcp:read`, `mcp:write`, `approvals:decide`; see [identity.md](identity.md)); unset = no OAuth',
  },
  SERVICE_OAUTH_AUDIENCE: {
    unset: '`<public url>/mcp`',
    meaning: 'the `aud` an access token must carry; a token for any other audience is refused',
  },
  SERVICE_OAUTH_SCOPES_CLAIM: {
    meaning: 'access-token claim holding the granted scopes, a space-separated string or a list (`scp` for Entra ID)',
  },
  SERVICE_OAUTH_DASHBOARD_CLIENT_ID: {
    unset: '(unset)',
    meaning:
      "the dashboard's client id at the issuer: a public client (no secret; authorization code with PKCE) registered with the redirect URI `<public url>/auth/callback`; with `SERVICE_OAUTH_ISSUER` set, people sign in to the dashboard and their decisions are credited to them (docs/decisions/0120); unset = no sign-in, the dashboard works as without OAuth",
  },
  SERVICE_PROFILE: { unset: '(unset)', meaning: 'tool profile served by default (all 97 tools when unset)' },
  SERVICE_ALLOW_TWIN_MUTATIONS: { meaning: 'permit writes through `twin.query_cypher`' },
  SERVICE_WEB_SEARCH_URL: {
    unset: '(unset)',
    meaning:
      'SearxNG-compatible JSON search endpoint for `web.search` (`GET <url>?q=<query>&format=json`); unset = `web.search` fails naming this variable',
  },
  SERVICE_EXEMPT_LOCAL_WRITES: {
    meaning:
      "stdio callers run writing tools without a hold (the spec's `exempt_local_writes`); false holds them like remote callers",
  },
  SERVICE_APPROVAL_HOLD_SECONDS: {
    meaning:
      'how long a held tool call waits for a person when the call carries no progress token (below common client time-outs); then it ends `timed_out` without running',
  },
  SERVICE_APPROVAL_HOLD_PROGRESS_SECONDS: {
    meaning:
      'hold window of a call that carries `_meta.progressToken` (progress keeps the client waiting); an explicit gate timeout caps it',
  },
  SERVICE_APPROVAL_PROGRESS_INTERVAL_SECONDS: {
    meaning: 'seconds between the `notifications/progress` of a held call with a progress token',
  },
  SERVICE_DASHBOARD_URL: {
    unset: '(unset)',
    meaning:
      "base URL of the dashboard; a held call's progress message and error link `<url>/approvals`; unset = the page is named, not linked",
  },
  SERVICE_AUTH_TOKENS_PATH: {
    unset: '(unset)',
    meaning:
      'gateway authentication of the approval routes: a JSON file `{"<bearer token>": "<principal>"}` (tokens of 16+ characters) that only its owner may read (mode 600, else the start stops with status 2); unset = off',
  },
  SERVICE_ALLOW_AGENT_HUMAN_AUTHORITY: {
    meaning:
      'agents (`X-Service-Surface: agent`) may decide `human_authority` and `design_loop` approvals; read by the process hosting `approvals`',
  },
  SERVICE_ELICITATION_APPROVALS: {
    meaning:
      "whether an MCP client's answer to its own prompt (`elicitation/create`) may decide a held call or a gate (`flow.await_gate`): `off` never asks in the client (the Approvals queue decides); `verified` asks only a session that belongs to a verified person: an OAuth session whose token is a person's holding `approvals:decide`, recorded as that subject, verified (docs/decisions/0113); a shared-key session never, so with `SERVICE_MCP_API_KEY`, `SERVICE_AUTH_TOKENS_PATH` or `SERVICE_OAUTH_ISSUER` set no other session is asked, and with neither set a loopback or stdio node asks its one local person, recorded `local:elicitation` unverified (docs/decisions/0020); `any` always asks (unverified). Decisions answered there are recorded with surface `mcp`",
  },
  SERVICE_WORKSPACE: {
    unset: '`<data dir>/workspace`',
    meaning:
      'shared adapter workspace: tools read and write files by path relative to it; paths that escape it, symlinks included, are refused (see "Workspace confinement")',
  },
  SERVICE_DESIGN_FLOW_STALL_STOP: {
    meaning:
      'identical not-ready findings this many times in a row end a run as a design failure (minimum 2; twice marks the gate `stalled`)',
  },
  SERVICE_RUN_LEASE_MS: {
    meaning:
      "how long a node holds a design-flow run without renewing its lease; a dead node's runs move to another node after this",
  },
  SERVICE_UPLOAD_LIMIT_BYTES: { meaning: 'largest multipart upload (twin import, conversion), 200 MB; larger is 413' },
  SERVICE_SIM_FIELD_MAX_BYTES: {
    meaning:
      'cap on a solver result field payload (gzip bytes); over it the surface is simplified by vertex clustering until it fits',
  },
  SERVICE_SOLVER_MAX_NODES: {
    meaning:
      'largest mesh `solver.*` accepts, in nodes (CalculiX/SPOOLES needs ~2 GB for 95k second-order tet nodes); larger is refused before solving',
  },
  SERVICE_CAD_THREADS: {
    unset: 'number of cores',
    meaning: 'OpenCascade kernel threads per process (CAD adapters and sessions)',
  },
  SERVICE_SOLVER_CONCURRENCY: {
    unset: 'number of cores',
    meaning:
      'solver calls one adapter node runs at once (one `ccx` per core); a call past it is refused before it starts with a retryable `QUEUE_FULL` and the registry sends it to the replica with a free slot or holds it until one frees (`service_tool_calls_waiting`)',
  },
  SERVICE_CADSCRIPT_CONCURRENCY: {
    unset: '`SERVICE_CAD_THREADS`',
    meaning: 'the same for cadscript calls (one per kernel thread)',
  },
  SERVICE_CAD_HEAP_RECYCLE_MB: {
    meaning: 'a CAD kernel thread whose wasm heap passes this is replaced between tasks (the heap never shrinks)',
  },
  SERVICE_CAD_IDLE_MS: {
    meaning:
      'a CAD kernel thread (about 250 MB each) starts on the first CAD call and is released after this many ms without a task, so an idle node holds none (a session on a released thread replays its history on its next call); 0 keeps started threads until the node stops',
  },
  SERVICE_ENGINE_SANDBOX: {
    meaning:
      '`bwrap`: every engine subprocess (ccx, gmsh, ngspice) runs under bubblewrap (see "Engine sandbox"); `off`: engines run bare, only for deployments that isolate each adapter in a locked-down container of its own (the k8s manifests)',
  },
  SERVICE_ENGINE_MAX_PROCS: {
    meaning:
      'processes and threads one sandboxed engine run may have at once (RLIMIT_NPROC by `prlimit` inside bwrap, and a pids cgroup of the run where one is writable); 0: no cap. Off with the sandbox: the pod limits it',
  },
  SERVICE_ENGINE_MEMORY_MB: {
    meaning:
      'address space of each process of a sandboxed engine run, MB (RLIMIT_AS; KiCad DRC of the video demo fits in 768); 0: no limit',
  },
  SERVICE_ENGINE_CPU_SECONDS: {
    meaning:
      'CPU time of each process of a sandboxed engine run, seconds (RLIMIT_CPU: SIGXCPU, then killed; the longest call is 3600 s); 0: no limit',
  },
  SERVICE_EDA_PYTHON: {
    meaning:
      "the interpreter that imports KiCad's board engine `pcbnew` (Debian `kicad`), for `eda.auto_route`'s board edits; without it `auto_route` fails with TOOL_UNAVAILABLE naming the package",
  },
  SERVICE_EDA_KICAD_CLI: {
    meaning:
      "KiCad 9's command line (Debian `kicad` from `bookworm-backports`); missing or older than 9, the eda adapter is degraded: `eda.run_drc` and `export_gerber` fail with TOOL_UNAVAILABLE naming the package and suite, the schematic tools still work",
  },
  SERVICE_EDA_WORKER_MEMORY_MB: {
    meaning:
      "heap (old generation) of the eda adapter's worker thread, MB, where KiCad files are read and all the schematic tools' work runs (connectivity, ERC, netlists, BOM, pin map; decision 0040); a design that exhausts it is a tool error saying so and the thread is replaced, the node goes on",
  },
  SERVICE_MODEL_PRICES_PATH: {
    unset: '(shipped table)',
    meaning:
      'JSON price table of model calls: USD per million tokens (`input`, `cached_input`, `output`) per provider id and exact model name, or `{"subscription": true}` for a flat plan; the default is `actors/harness/usage/model-prices.default.json` (dated, sources named in it); a model not listed is recorded with `cost_usd: null`; a missing or malformed file stops the start naming the file and the problem',
  },
  SERVICE_RUN_SPEND_ALERT_USD: {
    meaning:
      "a run's priced model spend reaching this many USD bumps `service_llm_run_spend_exceeded_total{role}` once for that run (decided in the database, so once across nodes and restarts)",
  },
  SERVICE_CREDENTIALS_PATH: {
    unset: '`<data dir>/credentials.json`',
    meaning:
      "the harness's model-provider credentials (several per provider), written by `POST /v1/harness/credentials` atomically with owner-only permissions (mode 600); never answered in full (id, provider, label, last 4 characters, status); with a `memory://` data dir they are kept in memory only",
  },
  SERVICE_HARNESS_ADMIN_TOKEN: {
    unset: '(unset)',
    meaning:
      'when set, the harness write routes (`POST /v1/harness/credentials`, `PUT /v1/harness/selection`, `PUT /v1/harness/routing/projects/{id}`) need it in the header `X-Service-Admin-Token`: missing is 401 `AUTH_REQUIRED`, wrong is 403 `FORBIDDEN`',
  },
  SERVICE_HARNESS_PRIVATE_BASE_URLS: {
    meaning:
      'hosts, or `host:port`, that a credential `base_url` may name although they are private, loopback or link-local (comma separated; e.g. `127.0.0.1:11434` for a local Ollama); the host name is resolved, at `POST /v1/harness/credentials` and again at every connection (DNS rebinding counts), and any other such address is refused with 422 (docs/decisions/0010)',
  },
  SERVICE_HARNESS_MAX_LABEL_VALUES: {
    meaning:
      'distinct model names and provider ids (caller-given: selection, routes) the harness metrics keep as label values; later ones are counted under `other` (docs/decisions/0011)',
  },
  SERVICE_MODEL_ROUTES_PATH: {
    unset: '(unset)',
    meaning:
      'JSON file of per-role model routes, `{"<role>": "<provider>:<model>"}` (roles `flow_generator`, `phase_brain`, `phase_brain:<discipline>`, `gate_check`, `classification`, `summarisation`, `chat`); it ranks above the `SERVICE_ROUTE_<ROLE>=<provider>:<model>` variables (role upper-cased, `:` and `-` as `_`, e.g. `SERVICE_ROUTE_PHASE_BRAIN_MECHANICAL`), which rank above the durable selection; an invalid route is a routing configuration error, never dropped',
  },
  SERVICE_PHASE_BRAIN: {
    meaning:
      '`deterministic`: a design-flow phase with a deterministic handler runs it; `model`: every phase runs as a model-driven turn (the phase brain) when its `phase_brain` route is configured, its handler the fallback without one (see "Model-driven phases")',
  },
};

export const CONFIG_TABLE_START = '<!-- config-table:start (npm run docs:config writes this table) -->';
export const CONFIG_TABLE_END = '<!-- config-table:end -->';

/** The default column: the schema's default, else the doc line's `unset`. */
function defaultCell(schema: z.ZodType, line: ConfigDocLine): string {
  const r = schema.safeParse(undefined);
  if (!r.success || r.data === undefined) return line.unset ?? '(unset)';
  if (r.data === '') return '(empty)';
  return String(r.data);
}

/** The markdown table of every variable, in the schema's order: variable, default, meaning. */
export function renderConfigTable(shape: Record<string, z.ZodType>, doc: Record<string, ConfigDocLine>): string {
  const rows = Object.entries(shape).map(([key, schema]) => {
    const line = doc[key];
    if (!line) throw new Error(`${key} has no line in CONFIG_DOC`);
    return `| \`${key}\` | ${defaultCell(schema, line)} | ${line.meaning} |`;
  });
  return ['| variable | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** `text` with the part between the markers replaced by `table`; throws when the markers are missing. */
export function withConfigTable(text: string, table: string): string {
  const a = text.indexOf(CONFIG_TABLE_START);
  const b = text.indexOf(CONFIG_TABLE_END);
  if (a < 0 || b < a) throw new Error('docs/configuration.md lacks the config-table markers');
  return `${text.slice(0, a + CONFIG_TABLE_START.length)}\n\n${table}\n\n${text.slice(b)}`;
}
