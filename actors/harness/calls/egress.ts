import dns from 'node:dns';
import net from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * Where the harness may send a provider request (issue 27, finding 7): a base URL whose host is, or resolves to, a
 * private, loopback, link-local or otherwise non-public address is refused unless its host (or host:port) is in
 * SERVICE_HARNESS_PRIVATE_BASE_URLS (a local Ollama at 127.0.0.1:11434 is the legitimate use). Checked when a
 * credential is added, and again at every connection: the SDKs fetch through an undici Agent whose lookup refuses
 * such an address, so a name that resolves elsewhere later (DNS rebinding) or a redirect gains nothing.
 */

const blocked = new net.BlockList();
for (const [a, p] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(a, p, 'ipv4');
for (const [a, p] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(a, p, 'ipv6');

/** True for an address no public provider has: private, loopback, link-local, CGNAT, documentation, multicast. */
export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 4) return blocked.check(ip, 'ipv4');
  if (family !== 6) return true; // not an address at all: never trusted
  const mapped = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  return blocked.check(ip, 'ipv6');
}

export interface EgressPolicy {
  /** Null when the URL may be called; else why not (a sentence naming the host, never a response). */
  check(url: string): Promise<string | null>;
  /** The fetch the provider SDKs use: every connection's resolved address passes the same rule. */
  fetch: typeof globalThis.fetch;
  /** Drops the pooled connections, aborting any request still open (the actor stops). */
  close(): Promise<void>;
}

const bare = (host: string) => host.replace(/^\[|\]$/g, '').toLowerCase();

/** The allow-list: `host` or `host:port` entries, comma separated (`[::1]:8080` for IPv6 with a port). */
export function parseAllowList(text: string): { host: string; port: string | null }[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
      return m ? { host: bare(m[1]!), port: m[2] ?? null } : { host: bare(entry), port: null };
    });
}

/** The code of a connection refused for its address (errors.ts reports it as an environment failure). */
export const EPRIVATE = 'EPRIVATE';
const privateError = (message: string) => Object.assign(new Error(message), { code: EPRIVATE });

export function createEgressPolicy(allowListText: string): EgressPolicy {
  const allow = parseAllowList(allowListText);
  const allowed = (host: string, port: string) =>
    allow.some((a) => a.host === bare(host) && (a.port === null || a.port === port));
  const refusal = (host: string, port: string, address: string) =>
    `base_url host ${host} is (or resolves to) the non-public address ${address}; a private, loopback or link-local endpoint needs its host or host:port in SERVICE_HARNESS_PRIVATE_BASE_URLS`;

  const portOf = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');

  async function check(raw: string): Promise<string | null> {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      return `base_url ${raw} is not an absolute URL`;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `base_url scheme ${u.protocol} is not http or https`;
    if (u.username || u.password) return 'base_url must not carry credentials';
    const host = bare(u.hostname);
    const port = portOf(u);
    if (allowed(host, port)) return null;
    let addresses: string[];
    try {
      addresses = net.isIP(host) ? [host] : (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
    } catch (err) {
      return `base_url host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    const bad = addresses.find(isPrivateAddress);
    return bad ? refusal(host, port, bad) : null;
  }

  // The connection's own lookup: the addresses a socket is about to use, checked as they are resolved.
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (bad) return callback(privateError(refusal(hostname, '', bad.address)), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
  const guardedAgent = new Agent({ connect: { lookup } });
  const allowedAgent = new Agent(); // the allow-listed hosts: private on purpose

  const guarded = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const host = bare(url.hostname);
    const ok = allowed(host, portOf(url));
    // An address literal is never looked up: it is checked here.
    if (!ok && net.isIP(host) && isPrivateAddress(host))
      throw Object.assign(new TypeError('fetch failed'), { cause: privateError(refusal(host, portOf(url), host)) });
    const dispatcher = ok ? allowedAgent : guardedAgent;
    return undiciFetch(input as never, { ...(init as object), redirect: 'error', dispatcher } as never);
  }) as unknown as typeof globalThis.fetch;

  const close = async () => void (await Promise.all([guardedAgent.destroy(), allowedAgent.destroy()]));
  return { check, fetch: guarded, close };
}
