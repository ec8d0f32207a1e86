// A client process for bench:twin: sequential GETs against the server under test, timed here so the client's own
// work (reading megabytes of body) never shares the server's event loop. Prints one JSON line {ms, bytes}.
// argv: url runs [warmUp] [expectStatus] [sha256 of the body to check] [If-None-Match value]
import crypto from 'node:crypto';
import http from 'node:http';

const [url, runs, warm = '3', expect = '200', sha = '', inm = ''] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: inm ? { 'if-none-match': inm } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const ms: number[] = [];
let bytes = 0;
for (let i = 0; i < Number(warm) + Number(runs); i++) {
  const t0 = performance.now();
  const res = await get();
  const took = performance.now() - t0;
  if (res.status !== Number(expect))
    throw new Error(`GET ${url}: status ${res.status}, expected ${expect}: ${res.body.toString('utf8', 0, 300)}`);
  if (sha && crypto.createHash('sha256').update(res.body).digest('hex') !== sha)
    throw new Error(`GET ${url}: bytes out differ from bytes stored`);
  bytes = res.body.length;
  if (i >= Number(warm)) ms.push(took);
}
agent.destroy();
process.stdout.write(`${JSON.stringify({ ms, bytes })}\n`);
