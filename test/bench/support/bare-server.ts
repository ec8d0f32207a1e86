// A bare node:http server answering one fixed JSON body: the baseline every gateway benchmark is compared with.
// Run as a child process: `node bare-server.ts <json>`; prints the port on stdout.
import http from 'node:http';

const body = process.argv[2] ?? '{}';
const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const out = req.method === 'POST' && raw ? echo(raw) : body;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  });
});
/** JSON-RPC echo for POST bodies (the tool-call baseline). */
function echo(raw: string): string {
  try {
    const msg = JSON.parse(raw) as { id?: unknown };
    return JSON.stringify({ jsonrpc: '2.0', id: msg.id ?? null, result: JSON.parse(body) });
  } catch {
    return body;
  }
}
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
