// A client process for bench:approvals: sends a list of POSTs (one JSON file of {path, body}) to a server, either all at
// once or with a fixed number in flight, and times each from the request's start to the end of its answer. Runs in its
// own process on node:http keep-alive sockets (lighter than fetch), so the client's work never shares the server's loop
// and the same client measures the baseline (bare-server.ts) and the service. The sockets are opened by a warm-up round
// (GET <warm path>, any status) before the timed requests: the figure is the requests, not TCP handshakes.
// argv: baseUrl requests.json inFlight|all [warmPath] [extra headers as JSON]. Prints one JSON line {ms, status}.
import fs from 'node:fs';
import http from 'node:http';

const [base, file, mode, warmPath = '/warm-up', headersJson = '{}'] = process.argv.slice(2);
const work = JSON.parse(fs.readFileSync(file, 'utf8')) as { path: string; body: unknown }[];
const sockets = mode === 'all' ? work.length : Number(mode);
const agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
const url = new URL(base);
const extra = JSON.parse(headersJson) as Record<string, string>;

function send(method: string, path: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...extra };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    const req = http.request({ host: url.hostname, port: url.port, path, method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

await Promise.all(Array.from({ length: sockets }, () => send('GET', warmPath)));
const ms = new Array<number>(work.length);
const status = new Array<number>(work.length);
const one = async (i: number) => {
  const t0 = performance.now();
  status[i] = await send('POST', work[i].path, JSON.stringify(work[i].body));
  ms[i] = performance.now() - t0;
};
if (mode === 'all') await Promise.all(work.map((_, i) => one(i)));
else {
  let next = 0;
  await Promise.all(Array.from({ length: sockets }, async () => {
    for (let i = next++; i < work.length; i = next++) await one(i);
  }));
}
agent.destroy();
process.stdout.write(`${JSON.stringify({ ms, status })}\n`);
