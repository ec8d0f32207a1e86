import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { ProtocolSkewSchema } from '../../contracts/health.ts';
import { PrincipalSchema } from '../../contracts/principal.ts';

/** One MCP session: what `initialize` negotiated. Shared by every gateway replica when Redis is configured. */
export const McpSessionSchema = z.object({
  id: z.string(),
  protocol_version: z.string(),
  requested_version: z.string(),
  client_info: z.looseObject({ name: z.string().optional(), version: z.string().optional() }),
  can_elicit: z.boolean(),
  transport: z.enum(['http', 'sse', 'stdio']),
  log_level: z.string().default('info'),
  protocol_skew: ProtocolSkewSchema.optional(),
  created_at: z.string(),
  /** The verified principal whose access token opened the session (decision 0112); unset for the shared key. */
  principal: PrincipalSchema.optional(),
});
export type McpSession = z.infer<typeof McpSessionSchema>;

/**
 * Where sessions live: memory (one gateway) or Redis (several gateway replicas serve one session). A session's resource
 * subscriptions (MCP `resources/subscribe`) live and end with it: deleting or expiring the session drops them.
 */
export interface SessionStore {
  create(s: Omit<McpSession, 'id'>): Promise<McpSession>;
  get(id: string): Promise<McpSession | undefined>;
  update(s: McpSession): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Adds a subscription; false when the session is gone or already holds MAX_SUBSCRIPTIONS. */
  subscribe(id: string, uri: string): Promise<boolean>;
  unsubscribe(id: string, uri: string): Promise<void>;
  subscriptions(id: string): Promise<string[]>;
}

/** Most resources one session may subscribe to (each is checked on every change the gateway hears of). */
export const MAX_SUBSCRIPTIONS = 1000;

/** Idle sessions expire after this long (clients such as the conformance suite never send DELETE). */
export const SESSION_IDLE_MS = 60 * 60 * 1000;

const newId = () => crypto.randomUUID();

export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, { s: McpSession; seen: number; subs: Set<string> }>();

  async create(s: Omit<McpSession, 'id'>): Promise<McpSession> {
    this.sweep();
    const session = { ...s, id: newId() };
    this.sessions.set(session.id, { s: session, seen: Date.now(), subs: new Set() });
    return session;
  }

  async get(id: string): Promise<McpSession | undefined> {
    const e = this.sessions.get(id);
    if (!e) return undefined;
    if (Date.now() - e.seen > SESSION_IDLE_MS) {
      this.sessions.delete(id);
      return undefined;
    }
    e.seen = Date.now();
    return e.s;
  }

  async update(s: McpSession): Promise<void> {
    this.sessions.set(s.id, { s, seen: Date.now(), subs: this.sessions.get(s.id)?.subs ?? new Set() });
  }

  async delete(id: string): Promise<boolean> {
    return this.sessions.delete(id);
  }

  async subscribe(id: string, uri: string): Promise<boolean> {
    const e = this.sessions.get(id);
    if (!e || (e.subs.size >= MAX_SUBSCRIPTIONS && !e.subs.has(uri))) return false;
    e.subs.add(uri);
    return true;
  }

  async unsubscribe(id: string, uri: string): Promise<void> {
    this.sessions.get(id)?.subs.delete(uri);
  }

  async subscriptions(id: string): Promise<string[]> {
    const e = this.sessions.get(id);
    return e && Date.now() - e.seen <= SESSION_IDLE_MS ? [...e.subs] : [];
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, e] of this.sessions) if (now - e.seen > SESSION_IDLE_MS) this.sessions.delete(id);
  }
}

export class RedisSessionStore implements SessionStore {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redis: Redis, namespace: string) {
    this.redis = redis;
    this.prefix = `${namespace}:mcp:session:`;
  }

  async create(s: Omit<McpSession, 'id'>): Promise<McpSession> {
    const session = { ...s, id: newId() };
    await this.redis.set(this.prefix + session.id, JSON.stringify(session), 'PX', SESSION_IDLE_MS);
    return session;
  }

  async get(id: string): Promise<McpSession | undefined> {
    const [raw] = await Promise.all([
      this.redis.getex(this.prefix + id, 'PX', SESSION_IDLE_MS),
      // The subscriptions expire with the session: every use of the session keeps both.
      this.redis.pexpire(this.subsKey(id), SESSION_IDLE_MS),
    ]);
    if (!raw) return undefined;
    const parsed = McpSessionSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }

  async update(s: McpSession): Promise<void> {
    await this.redis.set(this.prefix + s.id, JSON.stringify(s), 'PX', SESSION_IDLE_MS);
  }

  async delete(id: string): Promise<boolean> {
    const [deleted] = await Promise.all([this.redis.del(this.prefix + id), this.redis.del(this.subsKey(id))]);
    return deleted > 0;
  }

  async subscribe(id: string, uri: string): Promise<boolean> {
    if (!(await this.redis.exists(this.prefix + id))) return false;
    const key = this.subsKey(id);
    if ((await this.redis.scard(key)) >= MAX_SUBSCRIPTIONS && !(await this.redis.sismember(key, uri))) return false;
    await this.redis.multi().sadd(key, uri).pexpire(key, SESSION_IDLE_MS).exec();
    return true;
  }

  async unsubscribe(id: string, uri: string): Promise<void> {
    await this.redis.srem(this.subsKey(id), uri);
  }

  async subscriptions(id: string): Promise<string[]> {
    return this.redis.smembers(this.subsKey(id));
  }

  private subsKey(id: string): string {
    return `${this.prefix}${id}:subs`;
  }
}
