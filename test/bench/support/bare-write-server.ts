// A bare node:http server that makes one durable PostgreSQL write per POST: the floor for "a request that records
// something" on this machine, with no framework, no bus and no decision logic. Each POST updates one row of its own
// table (the row is the request's path, so distinct requests touch distinct rows, as distinct decisions do) in an
// autocommit statement on a pg pool of the service's size, then answers 200 with a fixed JSON body.
// Run as a child process: `node bare-write-server.ts <database url> <rows> <pool size>`; prints the port on stdout.
import http from 'node:http';
import pg from 'pg';

const [url, rowsArg = '3000', poolArg = '20'] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: Number(poolArg) });
await pool.query('DROP TABLE IF EXISTS bench_floor');
await pool.query('CREATE TABLE bench_floor (path text PRIMARY KEY, decided_at timestamptz, body jsonb)');
await pool.query("INSERT INTO bench_floor (path) SELECT '/row/' || g FROM generate_series(0, $1::int - 1) g", [
  Number(rowsArg),
]);

const out = JSON.stringify({ status: 'decided' });
const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const done = (status: number) => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    };
    if (req.method !== 'POST') return done(200);
    pool
      .query('UPDATE bench_floor SET decided_at = now(), body = $2 WHERE path = $1 AND decided_at IS NULL', [
        req.url,
        raw || '{}',
      ])
      .then(
        (r) => done(r.rowCount === 1 ? 200 : 409),
        () => done(500),
      );
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
