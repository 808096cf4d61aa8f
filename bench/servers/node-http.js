/**
 * Baseline: what a user would write by hand with node:http and the `ws` package — the
 * same map of values, routes, snapshot and broadcast (a loop of `send`).
 */
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
const count = Number(process.env['PARAMETERS'] ?? 1000);
const values = new Map();
for (let i = 0; i < count; i++)
    values.set(`bench/p${i}`, '0');
const message = (p, v) => `{"p":${JSON.stringify(p)},"v":${JSON.stringify(v)}}`;
const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/parameters/')) {
        const value = values.get(url.pathname.slice(12));
        res.writeHead(value === undefined ? 404 : 200, { 'Content-Type': 'text/plain; charset=utf-8' }).end(value ?? 'unknown');
    }
    else if (url.pathname === '/update') {
        const p = url.searchParams.get('parameter') ?? '';
        const v = url.searchParams.get('value') ?? '';
        if (!values.has(p))
            return void res.writeHead(404).end('unknown');
        if (values.get(p) !== v) {
            values.set(p, v);
            const text = message(p, v);
            for (const client of sockets.clients)
                client.send(text);
        }
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('OK');
    }
    else {
        res.writeHead(404).end();
    }
});
const sockets = new WebSocketServer({ server, path: '/ws' });
sockets.on('connection', (ws) => {
    for (const [p, v] of values)
        ws.send(message(p, v));
});
server.listen(0, '127.0.0.1', () => console.log(`ready ${server.address().port}`));
