import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { rawRequest, serve } from '../helpers/http.ts';
import { flowOf, startHub } from '../helpers/hub.ts';
import { validateFlow } from '../../lib/config/flow-file.ts';
import { formatIssue } from '../../lib/core/issue.ts';
import { Hub } from '../../lib/hub/hub.ts';

async function site() {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-www-'));
  const root = join(dir, 'www');
  await mkdir(join(root, 'css'), { recursive: true });
  await mkdir(join(root, 'docs'));
  await mkdir(join(root, 'empty'));
  await writeFile(join(root, 'index.html'), '<h1>home</h1>');
  await writeFile(join(root, 'css', 'site.css'), 'body{}');
  await writeFile(join(root, 'docs', 'index.html'), '<h1>docs</h1>');
  await writeFile(join(root, 'app.js'), 'export {}');
  await writeFile(join(root, 'data.json'), '{}');
  await writeFile(join(root, 'image.svg'), '<svg/>');
  await writeFile(join(root, 'a file.txt'), 'spaced');
  await writeFile(join(root, 'blob.unknownext'), 'bytes');
  await writeFile(join(root, 'update'), 'a file named like a built-in path');
  await writeFile(join(dir, 'secret.txt'), 'outside the root');
  await symlink(join(dir, 'secret.txt'), join(root, 'escape.txt'));
  await symlink(dir, join(root, 'escape-dir'));
  await symlink(join(root, 'app.js'), join(root, 'inside-link.js'));
  return { dir, root };
}

test('files below documentRoot are served with a Content-Type from their extension', async (t) => {
  const { root } = await site();
  const { base } = await serve(t, { documentRoot: root });
  for (const [path, type, body] of [
    ['/index.html', 'text/html; charset=utf-8', '<h1>home</h1>'],
    ['/css/site.css', 'text/css; charset=utf-8', 'body{}'],
    ['/app.js', 'text/javascript; charset=utf-8', 'export {}'],
    ['/data.json', 'application/json; charset=utf-8', '{}'],
    ['/image.svg', 'image/svg+xml', '<svg/>'],
    ['/a%20file.txt', 'text/plain; charset=utf-8', 'spaced'],
    ['/blob.unknownext', 'application/octet-stream', 'bytes'],
    ['/inside-link.js', 'text/javascript; charset=utf-8', 'export {}'],
  ] as const) {
    const res = await fetch(`${base}${path}`);
    t.is(res.status, 200, path);
    t.is(res.headers.get('content-type'), type, path);
    t.is(await res.text(), body, path);
  }
});

test('a folder serves its index.html; a missing file or index is 404', async (t) => {
  const { root } = await site();
  const { base } = await serve(t, { documentRoot: root });
  t.is(await (await fetch(`${base}/`)).text(), '<h1>home</h1>');
  t.is(await (await fetch(`${base}/docs/`)).text(), '<h1>docs</h1>');
  t.is(await (await fetch(`${base}/docs`)).text(), '<h1>docs</h1>');
  t.is((await fetch(`${base}/empty/`)).status, 404);
  t.is((await fetch(`${base}/missing.html`)).status, 404);
});

test('a relative documentRoot resolves against the flow file folder', async (t) => {
  const { dir } = await site();
  const hub = await startHub(t, { connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', documentRoot: 'www' } } }, { dir });
  const port = hub.connection('api')?.info.details?.['port'] as number;
  t.is(await (await fetch(`http://127.0.0.1:${port}/`)).text(), '<h1>home</h1>');
});

test('nothing outside the root is ever served: dot-dot, encoded forms, backslashes, NUL, symlinks', async (t) => {
  const { root } = await site();
  const { port } = await serve(t, { documentRoot: root });
  const attempts = [
    '/../secret.txt',
    '/css/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/css%2f..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/%2e%2e%5csecret.txt',
    '/..\\secret.txt',
    '/index.html%00.txt',
    '/%252e%252e/secret.txt',
    '/escape.txt',
    '/escape-dir/secret.txt',
    '//etc/passwd',
    '/%c0%ae%c0%ae/secret.txt',
    '/%ZZ',
  ];
  for (const path of attempts) {
    const res = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    t.is(res.status, 404, path);
    t.false(res.body.includes('outside the root'), path);
    t.false(res.body.includes('root:'), path);
  }
});

test('built-in paths win over files of the same name', async (t) => {
  const { root } = await site();
  const { base } = await serve(t, { documentRoot: root });
  const res = await fetch(`${base}/update`);
  t.is(res.status, 400);
  t.regex(await res.text(), /missing field "parameter"/);
  t.is((await fetch(`${base}/ws`)).status, 426);
});

test('without a documentRoot no file is served', async (t) => {
  const { base } = await serve(t);
  t.is((await fetch(`${base}/`)).status, 404);
  t.is((await fetch(`${base}/index.html`)).status, 404);
});

test('a documentRoot that does not exist is a flow-file mistake', (t) => {
  const result = validateFlow(
    { connections: { api: { type: 'rest-api', port: 0, documentRoot: '/nonexistent/www' } } },
    '/virtual/flow.json5',
  );
  t.deepEqual(result.ok ? [] : result.issues.map(formatIssue), ['connections.api.documentRoot: no such folder: /nonexistent/www']);
});

test('a documentRoot that is gone by the time the hub starts fails the connection with the reason', async (t) => {
  const { dir, root } = await site();
  const flow = flowOf({ connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', documentRoot: 'www' } } }, dir);
  await rm(root, { recursive: true });
  const hub = new Hub({ flow });
  t.teardown(() => hub.stop());
  await hub.start();
  t.like(hub.connection('api')?.status, { status: 'failed', code: 'PB_DOCUMENT_ROOT', reason: `documentRoot ${root} does not exist` });
});
