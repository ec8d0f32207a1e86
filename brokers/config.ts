import path from 'node:path';
import { z } from 'zod';
import { PROFILE_NAMES } from '../contracts/profiles.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Every `SERVICE_*` variable the service reads, its default and meaning. README's configuration table is this list.
 * Parsed once at start; a wrong value stops the launcher with the variable's name.
 */
export const ConfigSchema = z.object({
  SERVICE_HOST: z.string().default('127.0.0.1'),
  SERVICE_PORT: z.coerce.number().int().min(0).max(65535).default(8765),
  SERVICE_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SERVICE_TRANSPORTER: z.string().url().optional(),
  SERVICE_DATABASE_URL: z.string().optional(),
  SERVICE_DATA_DIR: z.string().default('.data'),
  SERVICE_REDIS_URL: z.string().optional(),
  SERVICE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info'),
  SERVICE_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  SERVICE_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  SERVICE_HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(50).default(30_000),
  SERVICE_HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(50).default(300_000),
  SERVICE_HTTP_KEEPALIVE_TIMEOUT_MS: z.coerce.number().int().min(50).default(72_000),
  SERVICE_HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(50).default(120_000),
  SERVICE_HTTP_DRAIN_MS: z.coerce.number().int().min(0).default(10_000),
  SERVICE_DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).default(25_000),
  SERVICE_HISTORY_TOKENS: z.coerce.number().int().min(100).default(12_000),
  SERVICE_CHAT_TWIN_WRITES: bool.default(true),
  SERVICE_CHAT_PROJECT_WRITES: bool.default(true),
  SERVICE_CHAT_APPROVAL_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1800),
  SERVICE_CHAT_MAX_STEPS: z.coerce.number().int().min(1).max(50).default(12),
  SERVICE_CHAT_CONTEXT_TOKENS: z.coerce.number().int().min(1000).max(10_000_000).default(128_000),
  SERVICE_ALLOWED_HOSTS: z.string().default(''),
  SERVICE_NODE_ID: z.string().optional(),
  SERVICE_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .default('svc'),
  SERVICE_DB_POOL_MAX: z.coerce.number().int().min(1).default(10),
  SERVICE_NATS_HEARTBEAT_S: z.coerce.number().min(0.5).default(2),
  SERVICE_NATS_HEARTBEAT_TIMEOUT_S: z.coerce.number().min(1).default(6),
  SERVICE_MCP_API_KEY: z.string().optional(),
  SERVICE_PUBLIC_URL: z.string().url().optional(),
  SERVICE_OAUTH_ISSUER: z.string().url().optional(),
  SERVICE_OAUTH_AUDIENCE: z.string().min(1).optional(),
  SERVICE_OAUTH_SCOPES_CLAIM: z.string().min(1).default('scope'),
  SERVICE_OAUTH_DASHBOARD_CLIENT_ID: z.string().min(1).optional(),
  SERVICE_PROFILE: z
    .string()
    .refine((p) => PROFILE_NAMES.includes(p), {
      message: `unknown profile; valid profiles: ${PROFILE_NAMES.join(', ')}`,
    })
    .optional(),
  SERVICE_ALLOW_TWIN_MUTATIONS: bool.default(false),
  SERVICE_WEB_SEARCH_URL: z.string().url().optional(),
  SERVICE_EXEMPT_LOCAL_WRITES: bool.default(true),
  SERVICE_APPROVAL_HOLD_SECONDS: z.coerce.number().int().min(1).default(100),
  SERVICE_APPROVAL_HOLD_PROGRESS_SECONDS: z.coerce.number().int().min(1).default(180),
  SERVICE_APPROVAL_PROGRESS_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(10),
  SERVICE_DASHBOARD_URL: z.string().url().optional(),
  SERVICE_AUTH_TOKENS_PATH: z.string().min(1).optional(),
  SERVICE_ALLOW_AGENT_HUMAN_AUTHORITY: bool.default(false),
  SERVICE_ELICITATION_APPROVALS: z.enum(['off', 'verified', 'any']).default('verified'),
  SERVICE_WORKSPACE: z.string().optional(),
  SERVICE_DESIGN_FLOW_STALL_STOP: z.coerce.number().int().min(2).default(3),
  SERVICE_RUN_LEASE_MS: z.coerce.number().int().min(500).default(5000),
  SERVICE_UPLOAD_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(200 * 1024 * 1024),
  SERVICE_SIM_FIELD_MAX_BYTES: z.coerce.number().int().min(256).default(1_500_000),
  SERVICE_SOLVER_MAX_NODES: z.coerce.number().int().min(100).default(95_000),
  SERVICE_CAD_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  SERVICE_SOLVER_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  SERVICE_CADSCRIPT_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  SERVICE_CAD_HEAP_RECYCLE_MB: z.coerce.number().int().min(128).default(512),
  SERVICE_CAD_IDLE_MS: z.coerce.number().int().min(0).default(300_000),
  SERVICE_ENGINE_SANDBOX: z.enum(['bwrap', 'off']).default('bwrap'),
  SERVICE_ENGINE_MAX_PROCS: z.coerce.number().int().min(0).default(256),
  SERVICE_ENGINE_MEMORY_MB: z.coerce.number().int().min(0).default(2048),
  SERVICE_ENGINE_CPU_SECONDS: z.coerce.number().int().min(0).default(3600),
  SERVICE_EDA_PYTHON: z.string().min(1).default('/usr/bin/python3'),
  SERVICE_EDA_KICAD_CLI: z.string().min(1).default('kicad-cli'),
  SERVICE_EDA_WORKER_MEMORY_MB: z.coerce.number().int().min(32).default(512),
  SERVICE_MODEL_PRICES_PATH: z.string().min(1).optional(),
  SERVICE_RUN_SPEND_ALERT_USD: z.coerce.number().finite().min(0).default(5),
  SERVICE_CREDENTIALS_PATH: z.string().min(1).optional(),
  SERVICE_HARNESS_ADMIN_TOKEN: z.string().min(1).optional(),
  SERVICE_HARNESS_PRIVATE_BASE_URLS: z.string().default(''),
  SERVICE_HARNESS_MAX_LABEL_VALUES: z.coerce.number().int().min(1).max(10_000).default(100),
  SERVICE_MODEL_ROUTES_PATH: z.string().min(1).optional(),
  SERVICE_PHASE_BRAIN: z.enum(['deterministic', 'model']).default('deterministic'),
});
/** `routeVars`: the `SERVICE_ROUTE_<ROLE>` variables (harness model routes, SPEC rule 11), as set. */
export type ServiceConfig = z.infer<typeof ConfigSchema> & { dataDir: string; routeVars?: Record<string, string> };

/** One line per variable, for README and `service --help`. */
export const CONFIG_DOC: Record<keyof z.infer<typeof ConfigSchema>, string> = {
  SERVICE_HOST: 'address the gateway listens on (127.0.0.1; 0.0.0.0 in a container)',
  SERVICE_PORT: 'gateway HTTP port (8765; 0 picks a free port)',
  SERVICE_METRICS_PORT:
    "port on SERVICE_HOST where every node serves its own Prometheus metrics at GET /metrics (unset = none: the gateway's /metrics serves only the gateway's process; 9464 in the cluster)",
  SERVICE_TRANSPORTER: 'NATS URL such as nats://127.0.0.1:4222; unset = one process, no transporter',
  SERVICE_DATABASE_URL: 'PostgreSQL URL; unset = embedded PGlite in SERVICE_DATA_DIR',
  SERVICE_DATA_DIR: 'folder for the embedded database and workspace (.data); memory:// keeps the database in memory',
  SERVICE_REDIS_URL: 'Redis URL for the Moleculer cacher and shared session state; unset = memory',
  SERVICE_LOG_LEVEL: 'pino level (info)',
  SERVICE_BODY_LIMIT_BYTES: 'largest JSON body accepted by the gateway (10 MB); larger is 413',
  SERVICE_REQUEST_TIMEOUT_MS: 'default timeout of one actor call (10000)',
  SERVICE_HTTP_HEADERS_TIMEOUT_MS:
    'a client must send its request headers within this (30000 ms); else 408 and the connection closes',
  SERVICE_HTTP_REQUEST_TIMEOUT_MS:
    'a client must send its whole request, body included, within this (300000 ms); else 408',
  SERVICE_HTTP_KEEPALIVE_TIMEOUT_MS: 'an idle keep-alive connection is closed after this (72000 ms)',
  SERVICE_HTTP_IDLE_TIMEOUT_MS: 'a connection silent this long with no request being answered is closed (120000 ms)',
  SERVICE_HTTP_DRAIN_MS:
    'on stop, requests in flight get this long to finish before every connection is closed (10000 ms)',
  SERVICE_DRAIN_TIMEOUT_MS:
    "on SIGTERM an adapter node leaves the balancer, refuses new calls retryably and lets its calls in flight finish for up to this (25000 ms; k8s sets it from the adapter's call timeout); calls still running then are aborted as TOOL_UNAVAILABLE",
  SERVICE_HISTORY_TOKENS: 'tokens of thread history sent with a chat turn, newest exchanges first (12000)',
  SERVICE_CHAT_TWIN_WRITES: '0 leaves the twin write tools out of chat (read-only twin); default 1',
  SERVICE_CHAT_PROJECT_WRITES: '0 leaves the project write tools out of chat; default 1',
  SERVICE_CHAT_APPROVAL_TIMEOUT_SECONDS: 'a chat tool call held for a person is denied after this (1800 s)',
  SERVICE_CHAT_MAX_STEPS: 'model calls at most in one chat turn (12)',
  SERVICE_CHAT_CONTEXT_TOKENS:
    "the chat model's context window: past 60% of it a turn folds older tool results (128000)",
  SERVICE_ALLOWED_HOSTS: 'extra Host/Origin names accepted besides localhost, 127.0.0.1 and [::1] (comma separated)',
  SERVICE_NODE_ID: 'Moleculer node id (hostname-pid)',
  SERVICE_NAMESPACE: 'bus namespace; nodes only see nodes of the same namespace (svc)',
  SERVICE_DB_POOL_MAX: 'PostgreSQL pool size per process (10)',
  SERVICE_NATS_HEARTBEAT_S: 'bus heartbeat interval in seconds (2)',
  SERVICE_NATS_HEARTBEAT_TIMEOUT_S: 'a node silent this long is declared dead (6)',
  SERVICE_MCP_API_KEY: 'shared key required as Bearer on /mcp and /mcp/sse; unset = open',
  SERVICE_PUBLIC_URL:
    'canonical base URL clients reach the service at, e.g. https://design.example.com; the OAuth resource is <url>/mcp (required with SERVICE_OAUTH_ISSUER)',
  SERVICE_OAUTH_ISSUER:
    'OAuth 2.1 / OpenID issuer whose JWT access tokens the tool server accepts beside the shared key (docs/identity.md); unset = no OAuth',
  SERVICE_OAUTH_AUDIENCE: 'the aud an access token must carry (the resource URI <public url>/mcp)',
  SERVICE_OAUTH_SCOPES_CLAIM:
    'access-token claim holding the scopes, a space-separated string or a list (scope; scp for Entra ID)',
  SERVICE_OAUTH_DASHBOARD_CLIENT_ID:
    'client id of the dashboard at the issuer: a public client (no secret, PKCE) whose redirect URI is <public url>/auth/callback; with SERVICE_OAUTH_ISSUER set, people sign in to the dashboard (unset = no sign-in)',
  SERVICE_PROFILE: 'tool profile served by default (all 97 tools when unset)',
  SERVICE_ALLOW_TWIN_MUTATIONS: 'permit writes through twin.query_cypher (false)',
  SERVICE_WEB_SEARCH_URL:
    'SearxNG-compatible JSON search endpoint for web.search (GET <url>?q=&format=json); unset = web.search fails naming it',
  SERVICE_DESIGN_FLOW_STALL_STOP:
    'identical not-ready findings this many times in a row end a run as a design failure (3, minimum 2)',
  SERVICE_RUN_LEASE_MS: "how long a node holds a run without renewing; a dead node's runs move after this (5000)",
  SERVICE_WORKSPACE: 'shared adapter workspace where tools read and write files (<data dir>/workspace)',
  SERVICE_UPLOAD_LIMIT_BYTES: 'largest multipart upload (twin import, conversion), 200 MB; larger is 413',
  SERVICE_SIM_FIELD_MAX_BYTES:
    'cap on a solver result field payload, gzip bytes (1500000); over it the surface is simplified until it fits',
  SERVICE_SOLVER_MAX_NODES:
    'largest mesh the solver accepts, in nodes (95000: ~2 GB for SPOOLES with second-order tets); larger is refused',
  SERVICE_CAD_THREADS: 'OpenCascade kernel threads per process for the CAD adapters and sessions (the number of cores)',
  SERVICE_SOLVER_CONCURRENCY:
    'solver calls one adapter node runs at once (the number of cores: one ccx per core); past it a call is refused, retryable, and goes to another replica or waits',
  SERVICE_CADSCRIPT_CONCURRENCY:
    'cadscript calls one adapter node runs at once (SERVICE_CAD_THREADS); past it a call is refused, retryable, and goes to another replica or waits',
  SERVICE_CAD_HEAP_RECYCLE_MB: 'a CAD kernel thread whose wasm heap passes this is replaced between tasks (512)',
  SERVICE_CAD_IDLE_MS:
    'a CAD kernel thread starts on first use and is released after this long without a task (300000 ms; 0 keeps it)',
  SERVICE_ENGINE_SANDBOX:
    'bwrap (default): engines (ccx, gmsh, ngspice) run under bubblewrap, only their scratch folder writable, no network, no other process visible; off only where each adapter runs in a locked-down container of its own (k8s)',
  SERVICE_ENGINE_MAX_PROCS:
    'processes and threads one sandboxed engine run may have at once (256; 0: no cap): RLIMIT_NPROC, and a pids cgroup of its own where one is writable',
  SERVICE_ENGINE_MEMORY_MB:
    'address space of each process of a sandboxed engine run, MB (2048; 0: no limit): RLIMIT_AS',
  SERVICE_ENGINE_CPU_SECONDS:
    'CPU time of each process of a sandboxed engine run, seconds (3600; 0: no limit): RLIMIT_CPU, then killed',
  SERVICE_EDA_PYTHON:
    "the Python interpreter that imports KiCad's board engine pcbnew (/usr/bin/python3, Debian's kicad package); without it eda.auto_route is unavailable",
  SERVICE_EDA_KICAD_CLI:
    "KiCad 9's command line (kicad-cli on PATH; Debian's kicad from bookworm-backports); missing or older than 9, eda.run_drc and export_gerber are unavailable",
  SERVICE_EDA_WORKER_MEMORY_MB:
    "heap (old generation) of the eda adapter's worker thread that reads KiCad files, MB (512); a file that exhausts it is a tool error and the thread is replaced, the node goes on",
  SERVICE_EXEMPT_LOCAL_WRITES:
    'stdio callers run writing tools without a hold (true); false holds them like remote callers',
  SERVICE_APPROVAL_HOLD_SECONDS: 'how long a held call waits for a person when it carries no progress token (100)',
  SERVICE_APPROVAL_HOLD_PROGRESS_SECONDS:
    'how long a held call with a progress token waits for a person (180; an explicit gate timeout caps it)',
  SERVICE_APPROVAL_PROGRESS_INTERVAL_SECONDS:
    'seconds between progress notifications of a held call with a progress token (10)',
  SERVICE_DASHBOARD_URL:
    'base URL of the dashboard: held calls link its Approvals page (<url>/approvals); unset = named, not linked',
  SERVICE_AUTH_TOKENS_PATH:
    'JSON file mapping gateway bearer tokens to principals ({"<token>": "<principal>"}, owner-only permissions); unset = gateway auth off',
  SERVICE_ALLOW_AGENT_HUMAN_AUTHORITY:
    'agents (surface agent) may decide human_authority and design_loop approvals (false)',
  SERVICE_ELICITATION_APPROVALS:
    "whether an MCP client's elicitation answer may decide a held call or a gate: off, verified (only a verified person's session: an OAuth token of a person holding approvals:decide; with no authentication at all, a loopback or stdio node's local person, unverified) or any (default verified)",
  SERVICE_MODEL_PRICES_PATH:
    'JSON price table of model calls, USD per million tokens per provider and model (the shipped default table); a bad file stops the start',
  SERVICE_RUN_SPEND_ALERT_USD:
    "a run's model spend reaching this many USD bumps service_llm_run_spend_exceeded_total once for the run (5)",
  SERVICE_CREDENTIALS_PATH:
    'JSON file of the harness model-provider credentials, written owner-only (mode 600) by POST /v1/harness/credentials (<data dir>/credentials.json; memory only with a memory:// data dir)',
  SERVICE_HARNESS_ADMIN_TOKEN:
    'when set, POST /v1/harness/credentials and the PUT harness routes need it in the header X-Service-Admin-Token (unset = not required)',
  SERVICE_HARNESS_PRIVATE_BASE_URLS:
    'hosts (or host:port) a credential base_url may name although they are private, loopback or link-local, comma separated, e.g. 127.0.0.1:11434 for Ollama (empty = none: such a base_url is refused)',
  SERVICE_HARNESS_MAX_LABEL_VALUES:
    'distinct model names and provider ids the harness metrics keep as label values; later ones are counted under other (100)',
  SERVICE_MODEL_ROUTES_PATH:
    'JSON file of per-role model routes ({"<role>": "<provider>:<model>"}); above SERVICE_ROUTE_<ROLE>=<provider>:<model> variables (role upper-cased, : and - as _), both above the selection',
  SERVICE_PHASE_BRAIN:
    'deterministic (default): a phase with a deterministic handler runs it; model: every phase runs as a model-driven turn when a phase_brain route is configured, its handler the fallback',
};

/** Reads the configuration from an environment map; throws a readable error naming the bad variables. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const parsed = ConfigSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([k, v]) => k.startsWith('SERVICE_') && v !== '')),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const dir = parsed.data.SERVICE_DATA_DIR;
  const routeVars = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[0].startsWith('SERVICE_ROUTE_') && !!e[1]),
  );
  return { ...parsed.data, dataDir: dir.startsWith('memory://') ? dir : path.resolve(dir), routeVars };
}

/** A local (never serialised) start-up error: bad flags, bad variables, unknown roles. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
