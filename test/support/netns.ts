import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { startForwarder, type Forwarder } from './netns-forwarder.ts';

const run = promisify(execFile);
const ip = (...args: string[]) => run('ip', args);

/** The links a namespaced node has: one to each server (through a forwarder), one the test reaches it by. */
export type ServerLink = 'nats' | 'pg';
/** How a link is cut: the host end of its veth goes down (packets vanish), or its forwarder holds every byte. */
export type CutKind = 'link' | 'stall';

/**
 * A network namespace of its own for one node, joined to this host by three veth pairs in 198.18.0.0/15 (RFC 2544,
 * the benchmarking range): `nats` and `pg` lead to forwarders on the host ends (the servers listen on loopback only),
 * `ctl` is how the test reaches the node's gateway and is never cut. Names carry this process's pid, so a later run
 * removes what a crashed one left.
 */
export interface Netns {
  name: string;
  /** Where the node's gateway listens (SERVICE_HOST), inside the namespace, on the `ctl` link. */
  ctlAddress: string;
  /** `ip netns exec <name>`: the spawn prefix that runs the node inside. */
  prefix: string[];
  /** The node's environment: the NATS and database URLs pointed at the forwarders, its gateway on `ctlAddress`. */
  env(natsUrl: string, dbUrl: string): Record<string, string>;
  cut(links: ServerLink[], kind: CutKind): Promise<void>;
  /** Undoes every cut. */
  heal(): Promise<void>;
  /** Kills what still runs inside, removes the namespace (its veths go with it) and closes the forwarders. */
  destroy(): Promise<void>;
}

const NS_PREFIX = 'ptns-';

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Removes namespaces (and what runs in them) that a test process no longer alive left behind. */
async function removeLeftovers(): Promise<void> {
  const { stdout } = await ip('netns', 'list');
  for (const line of stdout.split('\n')) {
    const name = line.split(' ')[0];
    const m = /^ptns-(\d+)-/.exec(name);
    if (m && !pidAlive(Number(m[1]))) await removeNamespace(name);
  }
}

async function removeNamespace(name: string): Promise<void> {
  const pids = await ip('netns', 'pids', name).then(
    (r) => r.stdout.split('\n').filter(Boolean).map(Number),
    () => [],
  );
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  await ip('netns', 'del', name).catch(() => undefined);
}

/**
 * Why a namespace cannot be made here (not root, no `ip`, no veth support), or undefined when it can: tries the real
 * thing once with a throwaway namespace and veth pair.
 */
export async function netnsUnavailable(): Promise<string | undefined> {
  const tag = crypto.randomBytes(3).toString('hex');
  const name = `${NS_PREFIX}${process.pid}-probe${tag}`;
  try {
    await removeLeftovers();
    await ip('netns', 'add', name);
    await ip('link', 'add', `pq${tag}a`, 'type', 'veth', 'peer', 'name', `pq${tag}b`, 'netns', name);
    return undefined;
  } catch (err) {
    return `cannot make a network namespace with a veth pair: ${(err as Error).message.split('\n')[0]}`;
  } finally {
    await ip('netns', 'del', name).catch(() => undefined);
    await ip('link', 'del', `pq${tag}a`).catch(() => undefined);
  }
}

/** A free /24 of 198.18.0.0/15 (not on any interface of this host): its /30s number the three links. */
async function freeSubnet(): Promise<string> {
  const { stdout } = await ip('-4', '-o', 'addr');
  for (;;) {
    const n = crypto.randomInt(512);
    const net24 = `198.${18 + (n >> 8)}.${n & 255}`;
    if (!stdout.includes(`${net24}.`)) return net24;
  }
}

/** Makes the namespace, its three veth pairs and the two forwarders (to `nats` and `pg` on 127.0.0.1). */
export async function createNetns(targets: Record<ServerLink, { host: string; port: number }>): Promise<Netns> {
  const tag = crypto.randomBytes(3).toString('hex');
  const name = `${NS_PREFIX}${process.pid}-${tag}`;
  const net24 = await freeSubnet();
  const links = { nats: 0, pg: 4, ctl: 8 } as const;
  const hostEnd = (l: keyof typeof links) => `pt${tag}${l[0]}a`;
  const addr = (l: keyof typeof links, side: 1 | 2) => `${net24}.${links[l] + side}`;
  const forwarders: Partial<Record<ServerLink, Forwarder>> = {};
  const cuts: { link: ServerLink; kind: CutKind }[] = [];
  const onExit = () => {
    try {
      execFileSync('ip', ['netns', 'del', name], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);
  const destroy = async () => {
    process.removeListener('exit', onExit);
    await removeNamespace(name);
    for (const l of Object.keys(links))
      await ip('link', 'del', hostEnd(l as keyof typeof links)).catch(() => undefined);
    await Promise.all(Object.values(forwarders).map((f) => f.close()));
  };
  try {
    await ip('netns', 'add', name);
    await ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
    for (const l of Object.keys(links) as (keyof typeof links)[]) {
      const nsEnd = `pt${tag}${l[0]}b`;
      await ip('link', 'add', hostEnd(l), 'type', 'veth', 'peer', 'name', nsEnd, 'netns', name);
      await ip('addr', 'add', `${addr(l, 1)}/30`, 'dev', hostEnd(l));
      await ip('link', 'set', hostEnd(l), 'up');
      await ip('netns', 'exec', name, 'ip', 'addr', 'add', `${addr(l, 2)}/30`, 'dev', nsEnd);
      await ip('netns', 'exec', name, 'ip', 'link', 'set', nsEnd, 'up');
    }
    forwarders.nats = await startForwarder(addr('nats', 1), targets.nats);
    forwarders.pg = await startForwarder(addr('pg', 1), targets.pg);
  } catch (err) {
    await destroy();
    throw err;
  }
  const natsFwd = forwarders.nats;
  const pgFwd = forwarders.pg;
  return {
    name,
    ctlAddress: addr('ctl', 2),
    prefix: ['ip', 'netns', 'exec', name],
    env(natsUrl, dbUrl) {
      const nats = new URL(natsUrl);
      nats.hostname = addr('nats', 1);
      nats.port = String(natsFwd.port);
      const db = new URL(dbUrl);
      db.hostname = addr('pg', 1);
      db.port = String(pgFwd.port);
      return {
        SERVICE_TRANSPORTER: nats.toString(),
        SERVICE_DATABASE_URL: db.toString(),
        SERVICE_HOST: addr('ctl', 2),
      };
    },
    async cut(which, kind) {
      for (const link of which) {
        if (kind === 'link') await ip('link', 'set', hostEnd(link), 'down');
        else forwarders[link]!.stall();
        cuts.push({ link, kind });
      }
    },
    async heal() {
      for (const c of cuts.splice(0)) {
        if (c.kind === 'link') await ip('link', 'set', hostEnd(c.link), 'up');
        else forwarders[c.link]!.resume();
      }
    },
    destroy,
  };
}
