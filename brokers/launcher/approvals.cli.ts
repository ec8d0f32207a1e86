import { parseArgs } from 'node:util';
import type { ApprovalItem, ApprovalListResponse } from '../../contracts/approvals.ts';
import { formatDecided, formatItem, formatList } from './approvals.format.ts';

/** Exit codes of `service approvals` (README "The approvals command"): what happened, for scripts. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  not_found: 3,
  conflict: 4,
  invalid: 5,
  denied: 6,
  unreachable: 7,
  not_delivered: 8,
} as const;

/** The usage text of the approvals command. */
export const APPROVALS_USAGE = `usage: service approvals <command> [options]

  list [--status pending|decided|all] [--project ID] [--kind KIND]
  show <id>
  decide <id> <approve|reject|retry|rework> [--reason TEXT] [--to-phase PHASE] [--idempotency-key KEY]
         [--if-match ETAG] [--phase PHASE --attempt N] [--override-reason TEXT]

  --url <url>     gateway base URL (default http://127.0.0.1:8765)
  --json          print the gateway's JSON answer (also for errors) instead of a table
  -h, --help      this text

A decision always names what it decides: the ETag, phase and attempt given (as \`show\` prints them), else the item as
the command reads it just before deciding (If-Match with its ETag); a gate that changed meanwhile is refused (exit 4).
Sends X-Service-Surface: cli, or the agent headers when SERVICE_APPROVAL_AGENT and SERVICE_APPROVAL_ON_BEHALF_OF are
both set; SERVICE_AUTH_TOKEN is sent as the bearer token. Exit codes: 0 done, 1 failed, 2 usage, 3 not found,
4 not decidable now (409), 5 invalid (422), 6 not allowed (401, 403), 7 gateway unreachable, 8 recorded but not
delivered or unavailable (503). --override-reason approves a gate over its overridable findings (a hand calculation
over its allowable), recorded with the decision.
`;

/** Where the command writes (the launcher passes the process streams; tests pass their own). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** The request headers of the CLI (SPEC Gateway rule 4): surface cli or the three agent headers, and the token. */
export function cliHeaders(env: NodeJS.ProcessEnv): Record<string, string> {
  const agent = env.SERVICE_APPROVAL_AGENT?.trim();
  const obo = env.SERVICE_APPROVAL_ON_BEHALF_OF?.trim();
  const h: Record<string, string> =
    agent && obo
      ? { 'x-service-surface': 'agent', 'x-service-agent': agent, 'x-service-on-behalf-of': obo }
      : { 'x-service-surface': 'cli' };
  if (env.SERVICE_AUTH_TOKEN) h.authorization = `Bearer ${env.SERVICE_AUTH_TOKEN}`;
  return h;
}

/** The exit code of an HTTP status. */
export function exitOf(status: number): number {
  if (status < 300) return EXIT.ok;
  if (status === 404) return EXIT.not_found;
  if (status === 409) return EXIT.conflict;
  if (status === 422 || status === 400) return EXIT.invalid;
  if (status === 401 || status === 403) return EXIT.denied;
  if (status === 503) return EXIT.not_delivered;
  return EXIT.failed;
}

const KINDS = [
  'gate',
  'flow_proposal',
  'flow_version',
  'flow_patch',
  'tool_call',
  'human_authority',
  'design_change',
  'design_loop',
  'sketch',
  'drawing',
];
const DECISIONS = ['approve', 'reject', 'retry', 'rework'];

function usage(io: CliIo, message: string): number {
  io.err(`service approvals: ${message}\n\n${APPROVALS_USAGE}`);
  return EXIT.usage;
}

/**
 * `service approvals list|show|decide` against a gateway over HTTP (never starts a broker). Readable tables by
 * default, the gateway's JSON with `--json`; the exit code says what happened.
 */
export async function runApprovalsCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        url: { type: 'string', default: 'http://127.0.0.1:8765' },
        json: { type: 'boolean', default: false },
        status: { type: 'string', default: 'pending' },
        project: { type: 'string' },
        kind: { type: 'string' },
        reason: { type: 'string', default: '' },
        'to-phase': { type: 'string', default: '' },
        'override-reason': { type: 'string' },
        'idempotency-key': { type: 'string' },
        'if-match': { type: 'string' },
        phase: { type: 'string' },
        attempt: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    return usage(io, (err as Error).message);
  }
  const {
    values: o,
    positionals: [command, id, decision, ...extra],
  } = parsed;
  if (o.help || !command) {
    io.out(APPROVALS_USAGE);
    return o.help ? EXIT.ok : EXIT.usage;
  }
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    return usage(io, `--url is not a URL: ${o.url}`);
  }
  const base = url.toString().replace(/\/$/, '');
  let method = 'GET';
  let path: string;
  let body: unknown;
  if (command === 'list') {
    if (!['pending', 'decided', 'all'].includes(o.status))
      return usage(io, `--status must be pending, decided or all (got ${o.status})`);
    if (o.kind && !KINDS.includes(o.kind))
      return usage(io, `--kind must be one of ${KINDS.join(', ')} (got ${o.kind})`);
    const q = new URLSearchParams({
      status: o.status,
      ...(o.project ? { project_id: o.project } : {}),
      ...(o.kind ? { kind: o.kind } : {}),
    });
    path = `/v1/approvals?${q}`;
  } else if (command === 'show') {
    if (!id || decision) return usage(io, 'show takes one approval id');
    path = `/v1/approvals/${encodeURIComponent(id)}`;
  } else if (command === 'decide') {
    if (!id || !decision || extra.length) return usage(io, 'decide takes an approval id and a decision');
    if (!DECISIONS.includes(decision))
      return usage(io, `the decision is one of ${DECISIONS.join(', ')} (got ${decision})`);
    method = 'POST';
    path = `/v1/approvals/${encodeURIComponent(id)}/decision`;
    let attempt: number | undefined;
    if (o.attempt !== undefined) {
      attempt = Number(o.attempt);
      if (!Number.isInteger(attempt) || attempt < 1)
        return usage(io, `--attempt must be a whole number from 1 (got ${o.attempt})`);
    }
    body = {
      decision,
      reason: o.reason,
      to_phase: o['to-phase'],
      ...(o.phase ? { phase: o.phase } : {}),
      ...(attempt !== undefined ? { attempt } : {}),
      ...(o['override-reason'] !== undefined ? { override_reason: o['override-reason'] } : {}),
    };
  } else return usage(io, `unknown command ${command}; accepted: list, show, decide`);

  /** One request to the gateway; answers its status, JSON and ETag, or the exit code of a transport failure. */
  const send = async (
    m: string,
    p: string,
    payload: unknown,
    more: Record<string, string> = {},
  ): Promise<number | { status: number; json: unknown; text: string; etag: string | null }> => {
    const headers: Record<string, string> = {
      ...cliHeaders(env),
      ...(payload ? { 'content-type': 'application/json' } : {}),
      ...more,
    };
    let res: Response;
    try {
      res = await fetch(`${base}${p}`, {
        method: m,
        headers,
        body: payload ? JSON.stringify(payload) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      io.err(
        `service approvals: the gateway at ${base} is not reachable: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}\n`,
      );
      return EXIT.unreachable;
    }
    const text = await res.text();
    try {
      return { status: res.status, json: text ? JSON.parse(text) : undefined, text, etag: res.headers.get('etag') };
    } catch {
      io.err(`service approvals: ${res.status} from ${base}${p} is not JSON: ${text.slice(0, 200)}\n`);
      return EXIT.failed;
    }
  };
  /** Prints a refused or failed answer; answers its exit code. */
  const failed = (r: { status: number; json: unknown; text: string }) => {
    if (o.json) io.out(`${JSON.stringify(r.json, null, 2)}\n`);
    const e = (r.json as { error?: { code?: string; message?: string } } | undefined)?.error;
    if (!o.json) io.err(`service approvals: ${r.status} ${e?.code ?? ''}: ${e?.message ?? r.text}\n`);
    return exitOf(r.status);
  };

  const sendHeaders: Record<string, string> = o['idempotency-key'] ? { 'idempotency-key': o['idempotency-key'] } : {};
  let seen: ApprovalItem | undefined;
  if (command === 'decide') {
    if (o['if-match']) sendHeaders['if-match'] = o['if-match'];
    else if (!o.phase && o.attempt === undefined) {
      // No target given: name the item as it is read now, so a gate that opens meanwhile is never decided instead.
      const read = await send('GET', `/v1/approvals/${encodeURIComponent(id!)}`, undefined);
      if (typeof read === 'number') return read;
      if (exitOf(read.status) !== EXIT.ok) return failed(read);
      seen = read.json as ApprovalItem;
      if (read.etag) sendHeaders['if-match'] = read.etag;
    }
  }
  const res = await send(method, path, body, sendHeaders);
  if (typeof res === 'number') return res;
  if (exitOf(res.status) !== EXIT.ok) return failed(res);
  const json = res.json;
  if (o.json) io.out(`${JSON.stringify(json, null, 2)}\n`);
  else if (command === 'list') io.out(`${formatList(json as ApprovalListResponse, Boolean(o.project))}\n`);
  else if (command === 'show') io.out(`${formatItem(json as ApprovalItem)}\n`);
  else io.out(`${formatDecided(json as ApprovalItem, decision!, seen)}\n`);
  return EXIT.ok;
}
