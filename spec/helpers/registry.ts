import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { ExecutionContext } from 'ava';

/**
 * A registry as npm reads one, on 127.0.0.1: each package's document (its versions with their
 * manifests and where the archive is, with its checksums) and the archives. Resolves with its
 * address and the requests it was sent.
 */
export async function registry(t: ExecutionContext, archives: Record<string, { manifest: Record<string, unknown>; file: string }>) {
  const asked: string[] = [];
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(request.url ?? '/').slice(1);
    asked.push(path);
    const archive = Object.entries(archives).find(([name]) => path === `${name}/-/${name}-1.0.0.tgz`)?.[1];
    if (archive) return void response.end(await readFile(archive.file));
    const listed = archives[path];
    if (!listed) {
      response.writeHead(404, { 'content-type': 'application/json' });
      return void response.end('{"error":"Not found"}');
    }
    const bytes = await readFile(listed.file);
    const { port } = server.address() as { port: number };
    const version = {
      ...listed.manifest,
      dist: {
        tarball: `http://127.0.0.1:${port}/${path}/-/${path}-1.0.0.tgz`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
      },
    };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ name: path, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': version } }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => void server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, asked };
}
