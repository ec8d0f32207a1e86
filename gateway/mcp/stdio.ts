import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { JsonRpcCodes } from '../../contracts/errors.ts';
import type { McpDeps, McpRequestContext } from './context.ts';
import { outboundOver, type WireMessage } from './outbound.ts';
import type { McpServer } from './server.ts';
import type { McpSession } from './session-store.ts';

/**
 * The stdio transport (`service --transport stdio`): newline-delimited JSON-RPC on stdin/stdout, logs on stderr.
 * Messages are handled concurrently, so a `notifications/cancelled` can reach a running call; client responses
 * (answers to server requests) are routed by id. Resolves when stdin ends.
 */
export function runStdio(opts: {
  server: McpServer;
  deps: McpDeps;
  input: Readable;
  output: Writable;
  profile?: string;
}): Promise<void> {
  const { server, deps, output } = opts;
  const write = (msg: WireMessage | object): boolean => output.write(`${JSON.stringify(msg)}\n`);
  const out = outboundOver(write, deps.pending);
  let session: McpSession | undefined;
  let detach = () => {};
  const inflight = new Set<Promise<void>>();

  const onLine = (line: string) => {
    if (!line.trim()) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (err) {
      write({
        jsonrpc: '2.0',
        id: null,
        error: { code: JsonRpcCodes.PARSE_ERROR, message: `Parse error: ${(err as Error).message}` },
      });
      return;
    }
    if (typeof message === 'object' && message !== null && !Array.isArray(message) && !('method' in message)) {
      if (!deps.pending.settle(message as { id?: unknown }))
        deps.log.info({ id: (message as { id?: unknown }).id }, 'client response ignored');
      return;
    }
    const batch = Array.isArray(message);
    const work = (async () => {
      const items = batch ? (message as unknown[]) : [message];
      const responses = [];
      for (const m of items) {
        const ctx: McpRequestContext = { session, sessionKey: 'stdio', transport: 'stdio', out, profile: opts.profile };
        const res = await server.handle(m, ctx);
        if (ctx.newSession) {
          session = ctx.newSession;
          // Resource notifications reach the one stdio session on stdout.
          detach();
          detach = deps.updates.attach(session.id, (method, params) => out.notify(method, params));
        }
        if (res) responses.push(res);
      }
      if (batch && responses.length) write(responses);
      else if (!batch && responses[0]) write(responses[0]);
    })().catch((err: unknown) => deps.log.error({ err }, 'stdio message failed'));
    inflight.add(work);
    void work.finally(() => inflight.delete(work));
  };

  const rl = readline.createInterface({ input: opts.input, crlfDelay: Infinity });
  rl.on('line', onLine);
  return new Promise((resolve) =>
    rl.once('close', () => {
      detach();
      void Promise.allSettled([...inflight]).then(() => resolve());
    }),
  );
}
