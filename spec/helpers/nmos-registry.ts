/**
 * An IS-04 v1.3 Registration API written for the specs: a real HTTP server that keeps what
 * it is told, answers as a registry does (201 for a new resource, 200 for one it holds, 404
 * to a heartbeat of a node it does not hold), checks every body against the shapes of
 * resource-shapes.ts, and records each request in order. `script` makes it answer otherwise:
 * a status of its own, or `hang` (no answer at all).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';
import { Value } from '@sinclair/typebox/value';
import { type ResourceKind, shapeOf } from '../../lib/connections/nmos/resource-shapes.ts';

export type Answering = (method: string, path: string) => number | 'hang' | undefined;

/**
 * A registry: `requests` in order (`POST node`, `POST /health/nodes/<id>`, `DELETE sources/<id>`), `held` by id.
 * Registries given the same `held` are members of one cluster: what one is told, all hold.
 */
export async function registry(t: ExecutionContext, script: Answering = () => undefined, held = new Map<string, { kind: string }>()) {
  const requests: string[] = [];
  const invalid: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', (): void => {
      const path = (req.url ?? '').replace('/x-nmos/registration/v1.3', '');
      const answer = (status: number): void => void res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      const scripted = script(req.method ?? '', path);
      if (scripted === 'hang') return void requests.push(`${req.method} ${path} (hung)`);
      if (req.method === 'POST' && path === '/resource') {
        const { type, data } = JSON.parse(Buffer.concat(chunks).toString()) as { type: ResourceKind; data: { id: string } };
        requests.push(`POST ${type}`);
        if (scripted !== undefined) return answer(scripted);
        const shape = shapeOf[type];
        if (!shape || !Value.Check(shape, data)) {
          invalid.push(`${type}: ${JSON.stringify(shape && [...Value.Errors(shape, data)][0])}`);
          return answer(400);
        }
        const known = held.has(data.id);
        held.set(data.id, { kind: type });
        return answer(known ? 200 : 201);
      }
      const health = /^\/health\/nodes\/(.+)$/.exec(path);
      if (req.method === 'POST' && health) {
        requests.push('heartbeat');
        if (scripted !== undefined) return answer(scripted);
        return answer(held.has(health[1] as string) ? 200 : 404);
      }
      const deleted = /^\/resource\/(\w+)s\/(.+)$/.exec(path);
      if (req.method === 'DELETE' && deleted) {
        requests.push(`DELETE ${deleted[1]}`);
        if (scripted !== undefined) return answer(scripted);
        return answer(held.delete(deleted[2] as string) ? 204 : 404);
      }
      requests.push(`${req.method} ${path}`);
      return answer(404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())).then(() => server.closeAllConnections()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** The requests from the `from`-th on, heartbeats left out. */
  const told = (from = 0) => requests.slice(from).filter((request) => request !== 'heartbeat');
  return { url, requests, told, invalid, held };
}
