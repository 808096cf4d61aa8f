import { Parser } from '@asyncapi/parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import test from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Authenticator } from '../../lib/http/auth.ts';
import { httpReferenceCurrent } from '../../lib/http/http-reference.ts';
import { RestServer } from '../../lib/http/server.ts';
import { Graph } from '../../lib/core/graph.ts';
import { realTime } from '../../lib/core/scheduler.ts';
import { capturedLog } from '../helpers/hub.ts';
import { serve } from '../helpers/http.ts';

type Operation = {
  summary: string;
  operationId: string;
  'x-patchbay-parameter'?: { address: string; type: string; access: string };
  responses: Record<string, { description: string; content: Record<string, { schema: unknown }> }>;
};
type Components = { components: { responses: Record<string, { description: string }> } };

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

test('GET /openapi.json?parameters=1 describes each parameter the client may read, its value typed, ranged and labelled as it says (R-PK6)', async (t) => {
  const described = {
    studio: {
      type: 'dummy',
      parameters: ['fader/{1..2},F,-10', 'source,I,1', 'cue,S', 'go,T', 'hidden/level,I,0', 'hidden/a_b,S'],
      describe: {
        'fader/{1..2}': { label: 'Fader', unit: 'dB', minimum: -90, maximum: 10, step: 0.5 },
        source: {
          label: 'Source',
          choices: [
            { value: 1, label: 'Camera 1' },
            { value: 2, label: 'Camera 2' },
          ],
        },
        cue: { label: 'Cue', arguments: { clip: { type: 'I', minimum: 1 }, at: { type: 'S', optional: true } } },
      },
    },
  };
  const viewer = {
    name: 'viewer',
    token: 'view',
    read: ['studio/fader/#', 'studio/source', 'studio/cue', 'studio/go'],
    write: ['studio/source'],
  };
  const { base } = await serve(t, { token: 'secret', tokens: [viewer] }, described);
  const read = async (query: string, token = 'view') => {
    const answer = await fetch(`${base}/openapi.json${query}`, { headers: { authorization: `Bearer ${token}` } });
    t.is(answer.status, 200, query);
    return (await answer.json()) as Document & Components & { paths: Record<string, { get: Operation }> };
  };
  const document = await read('?parameters=1');
  const result = await new Validator().validate(document as never);
  t.true(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  const own = Object.keys(document.paths).filter((path) => path.startsWith('/parameters/') && !path.includes('{'));
  // The token reads neither hidden/level nor a value of the trigger.
  t.deepEqual(own, ['/parameters/studio/fader/1', '/parameters/studio/fader/2', '/parameters/studio/source', '/parameters/studio/cue']);
  const schemaOf = (path: string) => document.paths[path]?.get.responses['200']?.content['application/json']?.schema;
  t.deepEqual(schemaOf('/parameters/studio/fader/2'), {
    type: 'number',
    title: 'Fader',
    minimum: -90,
    maximum: 10,
    'x-unit': 'dB',
    'x-step': 0.5,
  });
  t.is(document.paths['/parameters/studio/source']?.get.summary, 'studio/source: Source');
  t.deepEqual(document.paths['/parameters/studio/source']?.get['x-patchbay-parameter'], {
    address: 'studio/source',
    type: 'I',
    access: 'read-write',
  });
  t.is(document.paths['/parameters/studio/fader/1']?.get['x-patchbay-parameter']?.access, 'read-only', 'as the token has it');
  // Every read's error answers are written once and referred to: a path a parameter stays small.
  t.deepEqual(document.paths['/parameters/studio/source']?.get.responses['404'], { $ref: '#/components/responses/readParameter404' });
  t.regex(document.components.responses['readParameter404']?.description ?? '', /PB_UNKNOWN_PARAMETER/);
  // An operation's id is its address's, whatever else is listed.
  t.is(document.paths['/parameters/studio/fader/1']?.get.operationId, 'getParameter_studio_fader_1');
  // What a client checks a value with, by an independent JSON Schema implementation: the hub's value holds, one outside does not.
  const ajv = new Ajv2020({ strict: false });
  const source = ajv.compile(schemaOf('/parameters/studio/source') as object);
  t.true(
    source(
      await (
        await fetch(`${base}/parameters/studio/source`, { headers: { authorization: 'Bearer view', accept: 'application/json' } })
      ).json(),
    ),
  );
  t.false(source(3), 'not one of its choices');
  t.false(ajv.compile(schemaOf('/parameters/studio/fader/1') as object)(20), 'over its maximum');
  const cue = schemaOf('/parameters/studio/cue') as { contentSchema: object };
  t.true(ajv.compile(cue.contentSchema)({ clip: 3 }));
  t.false(ajv.compile(cue.contentSchema)({ clip: 0, at: '00:00:01:00' }), 'a clip below its minimum');
  // Narrowed as GET /parameters is; without the flag the document is the API's alone.
  t.deepEqual(
    Object.keys((await read('?parameters=1&filter=source$')).paths).filter((path) => path.startsWith('/parameters/studio')),
    ['/parameters/studio/source'],
  );
  t.false(Object.keys((await read('')).paths).some((path) => path.startsWith('/parameters/studio')));
  const full = await read('?parameters=1', 'secret');
  t.true(Object.keys(full.paths).includes('/parameters/studio/hidden/level'), 'the full token reads it');
  const oddId = full.paths['/parameters/studio/hidden/a_b']?.get.operationId ?? '';
  t.regex(oddId, /^getParameter_studio_hidden_a_b__[0-9a-f]{8}$/);
  t.is((await read('?parameters=1&filter=a_b', 'secret')).paths['/parameters/studio/hidden/a_b']?.get.operationId, oddId);
  const refused = await fetch(`${base}/openapi.json?parameters=yes`, { headers: { authorization: 'Bearer view' } });
  t.is(refused.status, 400);
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
