import net from 'node:net';

/** A TCP forwarder in this (the host's) network namespace: a namespaced node reaches a loopback-only server through it. */
export interface Forwarder {
  port: number;
  /**
   * Stops moving bytes both ways without closing anything (a silent partition: no reset, no answer); new connections
   * are accepted (the host's kernel answers the handshake) but not joined to the server until `resume`.
   */
  stall(): void;
  /** Delivers what was held, in order, and moves bytes again (the partition heals; TCP would retransmit). */
  resume(): void;
  close(): Promise<void>;
}

type Held = () => void;

/** Forwards `listenHost:0` to `target`; the returned port is where it listens. */
export async function startForwarder(listenHost: string, target: { host: string; port: number }): Promise<Forwarder> {
  let stalled = false;
  const held: Held[] = [];
  const sockets = new Set<net.Socket>();
  const later = (fn: Held) => (stalled ? held.push(fn) : fn());

  /** Moves `from`'s bytes to `to`, holding them while stalled; a close is passed on once nothing is held. */
  const link = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      if (stalled) {
        from.pause();
        held.push(() => to.write(chunk));
        return;
      }
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => !stalled && from.resume());
      }
    });
    from.on('end', () => later(() => to.end()));
    from.on('close', (hadError) => hadError && later(() => to.destroy()));
    from.on('error', () => undefined);
  };

  const join = (client: net.Socket) => {
    const server = net.connect(target);
    sockets.add(server);
    server.on('close', () => sockets.delete(server));
    link(client, server);
    link(server, client);
  };

  const listener = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (stalled) {
      client.pause();
      held.push(() => join(client));
    } else join(client);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, listenHost, () => resolve());
  });
  return {
    port: (listener.address() as net.AddressInfo).port,
    stall() {
      stalled = true;
      for (const s of sockets) s.pause();
    },
    resume() {
      stalled = false;
      for (const fn of held.splice(0)) fn();
      for (const s of sockets) s.resume();
    },
    async close() {
      stalled = false;
      held.length = 0;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
