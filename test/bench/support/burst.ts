// A client process for bench:approvals: sends a list of POSTs (one JSON file of {path, body}) to a server, either all at
// once or with a fixed number in flight, and times each from the request's first byte written to the end of its answer.
// It runs in its own process so the client's work never shares the server's loop, and the same client measures the
// baselines (bare-server.ts, bare-write-server.ts) and the service. It is deliberately lean: one raw TCP socket per
// request slot (opened and used once by a warm-up GET before the timed requests, so the figure is the requests, not
// handshakes), each request serialized to bytes before the clock starts, and an answer read only as far as its status
// line and Content-Length (the servers measured answer with Content-Length, never chunked).
// argv: baseUrl requests.json inFlight|all [warmPath] [extra headers as JSON]. Prints one JSON line {ms, status, span}: span is the timed window, first request to last answer.
import fs from 'node:fs';
import net from 'node:net';

const [base, file, mode, warmPath = '/warm-up', headersJson = '{}'] = process.argv.slice(2);
const work = JSON.parse(fs.readFileSync(file, 'utf8')) as { path: string; body: unknown }[];
const slots = mode === 'all' ? work.length : Number(mode);
const url = new URL(base);
const extra = Object.entries(JSON.parse(headersJson) as Record<string, string>)
  .map(([k, v]) => `${k}: ${v}\r\n`)
  .join('');

function request(method: string, path: string, body = ''): Buffer {
  const head =
    `${method} ${path} HTTP/1.1\r\nhost: ${url.host}\r\n${extra}` +
    (body ? `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` : '');
  return Buffer.from(`${head}\r\n${body}`);
}

/** One keep-alive connection that sends a request and resolves with the answer's status once its body is complete. */
class Conn {
  private buf: Buffer = Buffer.alloc(0);
  private waiting?: { resolve(status: number): void; reject(e: Error): void };
  private readonly socket: net.Socket;
  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.read(chunk));
    socket.on('error', (e) => this.waiting?.reject(e));
    socket.on('close', () => this.waiting?.reject(new Error('the server closed the connection')));
  }
  static open(): Promise<Conn> {
    return new Promise((resolve, reject) => {
      const s = net.connect(Number(url.port), url.hostname, () => resolve(new Conn(s)));
      s.once('error', reject);
    });
  }
  send(bytes: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(bytes);
    });
  }
  private read(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buf.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buf.length < end + 4 + length) return;
    this.buf = this.buf.subarray(end + 4 + length);
    const w = this.waiting;
    this.waiting = undefined;
    w?.resolve(Number(head.slice(9, 12)));
  }
  close(): void {
    this.socket.destroy();
  }
}

const conns = await Promise.all(Array.from({ length: slots }, () => Conn.open()));
await Promise.all(conns.map((c) => c.send(request('GET', warmPath))));
const bytes = work.map((w) => request('POST', w.path, JSON.stringify(w.body)));
const ms = new Array<number>(work.length);
const status = new Array<number>(work.length);
const start = performance.now();
const one = async (c: Conn, i: number) => {
  const t0 = performance.now();
  status[i] = await c.send(bytes[i]);
  ms[i] = performance.now() - t0;
};
if (mode === 'all') await Promise.all(work.map((_, i) => one(conns[i], i)));
else {
  let next = 0;
  await Promise.all(
    conns.map(async (c) => {
      for (let i = next++; i < work.length; i = next++) await one(c, i);
    }),
  );
}
const span = performance.now() - start;
for (const c of conns) c.close();
process.stdout.write(`${JSON.stringify({ ms, status, span })}\n`);
