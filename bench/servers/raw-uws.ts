/**
 * Baseline: raw uWebSockets.js doing the minimal same work as the hub — a map of values,
 * GET /parameters/<address>, GET /update that stores and publishes `{"p","v"}` to every
 * WebSocket, and a snapshot on connect. The practical ceiling on this machine.
 */
import { nativeBinaryLoaded, uws } from '../../lib/http/uws.ts';

if (!nativeBinaryLoaded) throw new Error('the native uWS binary did not load');
const count = Number(process.env['PARAMETERS'] ?? 1000);
const values = new Map<string, string>();
for (let i = 0; i < count; i++) values.set(`bench/p${i}`, '0');
const message = (p: string, v: string) => `{"p":${JSON.stringify(p)},"v":${JSON.stringify(v)}}`;

const app = uws.App();
// `?only=<address>` narrows the snapshot to one value, like a client filter on the hub.
app.ws<{ only: string }>('/ws', {
  maxBackpressure: 32 * 1024 * 1024,
  idleTimeout: 120,
  upgrade(res, req, context) {
    const only = new URLSearchParams(req.getQuery() ?? '').get('only') ?? '';
    res.upgrade(
      { only },
      req.getHeader('sec-websocket-key'),
      req.getHeader('sec-websocket-protocol'),
      req.getHeader('sec-websocket-extensions'),
      context,
    );
  },
  open(ws) {
    const { only } = ws.getUserData();
    ws.cork(() => {
      for (const [p, v] of values) if (!only || p === only) ws.send(message(p, v));
      ws.subscribe('all');
    });
  },
});
app.get('/parameters/*', (res, req) => {
  const value = values.get(req.getUrl().slice(12));
  if (value === undefined) res.writeStatus('404 Not Found').end('unknown');
  else res.writeHeader('Content-Type', 'text/plain; charset=utf-8').end(value);
});
app.get('/update', (res, req) => {
  const query = new URLSearchParams(req.getQuery() ?? '');
  const p = query.get('parameter') ?? '';
  const v = query.get('value') ?? '';
  if (!values.has(p)) return void res.writeStatus('404 Not Found').end('unknown');
  if (values.get(p) !== v) {
    values.set(p, v);
    app.publish('all', message(p, v));
  }
  res.writeHeader('Content-Type', 'text/plain; charset=utf-8').end('OK');
});
app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) throw new Error('cannot listen');
  console.log(`ready ${uws.us_socket_local_port(socket as never)}`);
});
