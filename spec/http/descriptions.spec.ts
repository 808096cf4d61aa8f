import { Parser } from '@asyncapi/parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import test from 'ava';
import { Authenticator } from '../../lib/http/auth.ts';
import { httpReferenceCurrent } from '../../lib/http/http-reference.ts';
import { RestServer } from '../../lib/http/server.ts';
import { Graph } from '../../lib/core/graph.ts';
import { realTime } from '../../lib/core/scheduler.ts';
import { capturedLog } from '../helpers/hub.ts';
import { serve } from '../helpers/http.ts';

type Document = {
  paths: Record<string, Record<string, { responses: Record<string, unknown>; operationId: string }>>;
  channels: Record<string, { bindings: { ws: { query: { properties: Record<string, unknown> } } } }>;
};

const studio = { studio: { type: 'dummy', parameters: ['level,I,0'] } };

test('GET /openapi.json is an OpenAPI 3.1 document an independent validator accepts (R-DS1)', async (t) => {
  const { base } = await serve(t, { token: 'secret' }, studio);
  const answer = await fetch(`${base}/openapi.json`, { headers: { authorization: 'Bearer secret' } });
  t.is(answer.status, 200);
  t.regex(answer.headers.get('content-type') ?? '', /^application\/json/);
  const document = (await answer.json()) as Document & { openapi: string; info: { version: string } };
  t.is(document.openapi, '3.1.0');
  const validator = new Validator();
  const result = await validator.validate(document as never);
  t.true(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  // Client generators name a function after each operation: no two may share an id.
  const ids = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
  t.is(new Set(ids).size, ids.length, `operationIds repeated: ${ids.filter((id, i) => ids.indexOf(id) !== i)}`);
  // Each error status names its codes with the error table's statuses.
  const read = document.paths['/parameters/{address}']?.['get']?.responses as Record<string, { description: string }>;
  t.regex(read['404']?.description ?? '', /PB_UNKNOWN_PARAMETER/);
  t.regex(read['503']?.description ?? '', /PB_STATE_UNKNOWN/);
  t.regex(read['401']?.description ?? '', /PB_UNAUTHORIZED/);
});

test('GET /asyncapi.json is an AsyncAPI 3.0 document @asyncapi/parser finds no error in, with every option the upgrade reads (R-DS1)', async (t) => {
  const { base } = await serve(t, {}, studio);
  const document = (await (await fetch(`${base}/asyncapi.json`)).json()) as Document;
  const diagnostics = await new Parser().validate(document as never);
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 0);
  t.deepEqual(
    errors.map((e) => `${e.path.join('.')}: ${e.message}`),
    [],
  );
  const options = Object.keys(document.channels['values']?.bindings.ws.query.properties ?? {}).sort();
  t.deepEqual(options, ['access_token', 'batch', 'events', 'filter', 'log', 'maxHz', 'meta', 'origins', 'resume', 'seq']);
});

test('every method and path the server routes is in /openapi.json, and nothing it does not route (R-DS1)', async (t) => {
  const server = new RestServer({
    graph: new Graph(),
    auth: new Authenticator({ username: '', password: '', token: '' }),
    files: undefined,
    wsFilters: [],
    connections: () => [],
    problems: () => [],
    rules: () => [],
    scheduler: realTime,
    log: capturedLog().log,
  });
  t.teardown(() => server.stop());
  const port = await server.listen('127.0.0.1', 0);
  const document = (await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json()) as Document;
  // HEAD answers as GET, OPTIONS gives preflights, `any` and a POST path's GET refuse (405): none is an operation of its own.
  const routed = new Set(
    server.routed
      .filter(({ method, refuses }) => !refuses && !['head', 'options', 'any'].includes(method))
      .map(({ method, path }) => `${method} ${openPath(path)}`),
  );
  const described = new Set(
    Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${openPath(path)}`)),
  );
  t.deepEqual(
    [...routed].filter((route) => !described.has(route)),
    [],
    'routed, not described',
  );
  t.deepEqual(
    [...described].filter((route) => !routed.has(route)),
    [],
    'described, not routed',
  );
});

/** A path with its variable part written one way: `/parameters/*`, `/flow/history/:version` and `{name}` alike. */
const openPath = (path: string) => path.replace(/\{[a-z]+\}|:[a-z]+|\*$/, '{}');

test('the table of requests in docs/reference/http.md is what the operations make (run npm run docs)', (t) => {
  t.true(httpReferenceCurrent(), 'docs/reference/http.md is stale: run npm run docs');
});
