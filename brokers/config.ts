import path from 'node:path';
import { z } from 'zod';
import { PROFILE_NAMES } from '../contracts/profiles.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Every `SERVICE_*` variable the service reads and its default; their meanings are in `config-doc.ts`, and
 * docs/configuration.md's table is generated from both (`npm run docs:config`).
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
  SERVICE_DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(60_000),
  SERVICE_DB_IDLE_TX_TIMEOUT_MS: z.coerce.number().int().min(0).default(5000),
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
