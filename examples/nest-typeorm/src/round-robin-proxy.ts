/**
 * A tiny round-robin HTTP proxy for trying several instances of the app behind one port (a stand-in for a real load
 * balancer): each request goes to the next upstream in turn, streamed both ways, so SSE streams pass through too.
 *
 *   PROXY_PORT=3000 UPSTREAMS=3001,3002 pnpm proxy
 */
import { createServer, request } from 'node:http';

const port = Number(process.env['PROXY_PORT'] ?? 3000);
const upstreams = (process.env['UPSTREAMS'] ?? '3001,3002').split(',').map((value) => Number(value.trim()));
let next = 0;

createServer((incoming, outgoing) => {
  const upstream = upstreams[next++ % upstreams.length]!;
  const forward = request(
    { host: '127.0.0.1', port: upstream, method: incoming.method, path: incoming.url, headers: incoming.headers },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-upstream': String(upstream) });
      answer.pipe(outgoing);
    },
  );
  forward.on('error', () => {
    if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
    outgoing.end(`Upstream ${upstream} is not answering.\n`);
  });
  outgoing.on('close', () => forward.destroy());
  incoming.pipe(forward);
}).listen(port, () => {
  console.log(`Round-robin proxy on http://localhost:${port} -> ${upstreams.map((p) => `:${p}`).join(', ')}`);
});
