/**
 * `GET /openapi.json` (R-DS1): the OpenAPI 3.1 description of a rest-api connection's HTTP
 * API, made from the descriptions its routes are declared with and the shapes of
 * `core/api-shapes.ts`, never written by hand. Every error a route may answer is listed under its status, with
 * the codes of the error table; what the edge answers for any request is added to each.
 * With `?parameters=1` it also has a path for each parameter the client may read, its value
 * typed by what the parameter says of itself (R-PK6).
 */
import { createHash } from 'node:crypto';
import type { TSchema } from '@sinclair/typebox';
import { ConnectionInfo, ErrorAnswer, ParameterListing, Problem, RuleListing } from '../core/api-shapes.ts';
import { type ErrorCode, errorTable, statusOf } from '../core/errors.ts';
import type { Reading } from '../core/graph.ts';
import { type Argument, headline, type ParameterMeta } from '../core/parameter-meta.ts';
import { EDGE_ERRORS, errorAnswerOf, type OperationDescription } from './operation-shapes.ts';
import { JSON_TYPE, TEXT } from './respond.ts';
import { type DescribedRoute, operationsOf } from './route.ts';
import { type Producer, slices } from './stream.ts';

type Json = Record<string, unknown>;

/** Shapes named once under `components.schemas` and referred to wherever they appear. */
const named = new Map<TSchema, string>([
  [ConnectionInfo, 'ConnectionInfo'],
  [ParameterListing, 'ParameterListing'],
  [Problem, 'Problem'],
  [RuleListing, 'RuleListing'],
  [ErrorAnswer, 'ErrorAnswer'],
]);

/** A schema as JSON, each named shape inside it a `$ref` (TypeBox's own symbol keys fall away). */
function schemaJson(schema: TSchema, top = true): Json {
  return JSON.parse(
    JSON.stringify(schema, function (this: unknown, key, value: unknown) {
      if ((key !== '' || !top) && named.has(value as TSchema)) return { $ref: `#/components/schemas/${named.get(value as TSchema)}` };
      return value;
    }),
  ) as Json;
}

/** The OpenAPI path of a route: its variable part (`*`, `:version`) as `{name}`. */
function openPath(path: string, operation: OperationDescription): string {
  const name = operation.variable?.name;
  return name === undefined ? path : path.replace(/\*$|:[a-z]+/, `{${name}}`);
}

const content = (bodies: Readonly<Record<string, TSchema>>) =>
  Object.fromEntries(Object.entries(bodies).map(([type, schema]) => [type, { schema: schemaJson(schema, false) }]));

/** The error answers of an operation, one per status, each naming its codes and what they mean. */
function errorAnswers(operation: OperationDescription): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...operation.errors, ...EDGE_ERRORS])) {
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      String(status),
      {
        description: codes.map((code) => `\`${code}\`: ${errorTable[code].text}`).join('\n\n'),
        headers: { 'X-Patchbay-Code': { description: 'The code, for clients that read text.', schema: { type: 'string' } } },
        content: {
          'application/json': { schema: schemaJson(errorAnswerOf(codes, operation.errorFields), false) },
          'text/plain; charset=utf-8': { schema: { type: 'string' } },
        },
      },
    ]),
  );
}

/** `getParametersAddress`: the method and the path's words, its variable part included, so no two operations share one. */
const operationIdOf = (method: string, path: string) =>
  `${method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase()) || 'Root'}`;

function describeOperation(path: string, method: string, operation: OperationDescription): Json {
  const parameters: Json[] = [];
  if (operation.variable)
    parameters.push({
      name: operation.variable.name,
      in: 'path',
      required: true,
      description: operation.variable.description,
      schema: operation.variable.schema ? schemaJson(operation.variable.schema, false) : { type: 'string' },
    });
  for (const [name, query] of Object.entries(operation.query ?? {}))
    parameters.push({
      name,
      in: 'query',
      required: query.required ?? false,
      description: query.description,
      schema: query.repeats ? { type: 'array', items: schemaJson(query.schema, false) } : schemaJson(query.schema, false),
      ...(query.repeats ? { style: 'form', explode: true } : {}),
    });
  const answers = Object.fromEntries(
    Object.entries(operation.answers).map(([status, answer]) => [
      status,
      {
        description: answer.description,
        ...(answer.headers
          ? {
              headers: Object.fromEntries(
                Object.entries(answer.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
              ),
            }
          : {}),
        ...(answer.content ? { content: content(answer.content) } : {}),
      },
    ]),
  );
  return {
    operationId: operationIdOf(method, openPath(path, operation)),
    summary: operation.summary,
    description: operation.description,
    tags: [operation.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body ? { requestBody: { required: true, content: content(operation.body) } } : {}),
    responses: { ...answers, ...errorAnswers(operation) },
  };
}

/** The document of `routes`, for the hub of `version` whose session cookie is `cookie`. */
export function openApiDocument(
  routes: readonly DescribedRoute[],
  { version, cookie }: { readonly version: string; readonly cookie: string },
): Json {
  const paths: Record<string, Json> = {};
  for (const { path, method, operation } of operationsOf(routes)) {
    const at = openPath(path, operation);
    paths[at] = { ...paths[at], [method]: describeOperation(path, method, operation) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'patchbay',
      version,
      description:
        'The HTTP API of a patchbay rest-api connection: its parameters, connections, rules and flow file. `HEAD` is answered on every path that answers `GET`; `OPTIONS` gives CORS preflight answers for `allowedOrigins`. The WebSocket `/ws` is described in `/asyncapi.json`. Reference: docs/reference/http.md.',
    },
    tags: [
      { name: 'values', description: 'Read and write parameters (R-H1–R-H3, R-H7).' },
      { name: 'hub', description: 'Connections, problems, rules, health and metrics.' },
      { name: 'flow', description: 'The flow file (R-ED2, R-ED3).' },
      { name: 'files', description: 'The console and hosted files.' },
      { name: 'descriptions', description: 'These descriptions (R-DS1).' },
    ],
    paths,
    components: {
      schemas: Object.fromEntries([...named].map(([schema, name]) => [name, schemaJson(schema)])),
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'The rest-api `username` and `password`.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The rest-api `token`, or a scoped token of `tokens` (R-A1).' },
        accessToken: {
          type: 'apiKey',
          in: 'query',
          name: 'access_token',
          description: 'A token in the address: signs a browser in (a session cookie) and opens the WebSocket (R-H5, R-H11).',
        },
        session: { type: 'apiKey', in: 'cookie', name: cookie, description: 'The session of a browser signed in with `?access_token=`.' },
      },
    },
    // Any one of them; none at all on a hub without credentials.
    security: [{ basic: [] }, { bearer: [] }, { accessToken: [] }, { session: [] }, {}],
  };
}

const JSON_TYPES = { S: 'string', I: 'integer', F: 'number', B: 'boolean' } as const;

/** A value of `type` as JSON Schema, with what the parameter says of itself (R-PK6) as its words, range and choices. */
function valueSchema(type: keyof typeof JSON_TYPES, meta: ParameterMeta | Argument | undefined): Json {
  const schema: Json = { type: JSON_TYPES[type] };
  if (meta === undefined) return schema;
  if (meta.label !== undefined) schema['title'] = meta.label;
  if (meta.description !== undefined) schema['description'] = meta.description;
  if (meta.minimum !== undefined) schema['minimum'] = meta.minimum;
  if (meta.maximum !== undefined) schema['maximum'] = meta.maximum;
  // Not JSON Schema's words: a unit is no check, and a step is a slider's, not held against writes.
  if (meta.unit !== undefined) schema['x-unit'] = meta.unit;
  if ('step' in meta && meta.step !== undefined) schema['x-step'] = meta.step;
  if (meta.choices !== undefined) schema['oneOf'] = meta.choices.map(({ value, label }) => ({ const: value, title: label }));
  if ('arguments' in meta && meta.arguments !== undefined) {
    // A command's value is the JSON text of its arguments (R-PK8).
    const named = Object.entries(meta.arguments);
    schema['contentMediaType'] = JSON_TYPE;
    schema['contentSchema'] = {
      type: 'object',
      properties: Object.fromEntries(named.map(([name, argument]) => [name, valueSchema(argument.type, argument)])),
      required: named.filter(([, argument]) => argument.optional !== true).map(([name]) => name),
      additionalProperties: false,
    };
  }
  return schema;
}

/**
 * The document with a path for each parameter `listed` gives an access (R-PK6 in OpenAPI):
 * `GET /parameters/<address>` answering its value typed, ranged and labelled as it says of
 * itself, beside the general `/parameters/{address}`. Made as chunks — the document up to its
 * paths at once, then the parameters' paths as they are read — so describing a hub of
 * 100,000 parameters holds no other client. A trigger and a write-only parameter have no
 * value to read and no path of their own; every parameter is written through `/update`.
 */
export function withParameters(
  document: Json,
  readings: Iterator<Reading>,
  listed: (reading: Reading) => Reading['access'] | undefined,
): Producer {
  const { paths, tags, components, ...rest } = document as { paths: Record<string, Json>; tags: Json[]; components: Json } & Json;
  const read = paths['/parameters/{address}']?.['get'] as Json;
  const { parameters: _variable, responses, ...general } = read;
  // A read's answers but its value are those of every read: written once, referred to from each path.
  const errors = Object.entries(responses as Json).filter(([status]) => status !== '200');
  const shared = Object.fromEntries(errors.map(([status, answer]) => [`readParameter${status}`, answer]));
  const referred = Object.fromEntries(errors.map(([status]) => [status, { $ref: `#/components/responses/readParameter${status}` }]));
  const tagged = [...tags, { name: 'parameters', description: 'Each parameter this client may read, as it says of itself (R-PK6).' }];
  // The object's last member is its paths, left open for the parameters' own.
  const head = { ...rest, tags: tagged, components: { ...components, responses: shared } };
  const open = `${JSON.stringify(head).slice(0, -1)},"paths":${JSON.stringify(paths).slice(0, -1)}`;
  const entry = (reading: Reading) => {
    const access = listed(reading);
    if (access === undefined || access === 'write-only' || reading.type === 'T') return undefined;
    const path = `/parameters/${reading.address.split('/').map(encodeURIComponent).join('/')}`;
    const words = reading.meta === undefined ? '' : headline(reading.meta);
    const writes =
      access === 'read-write'
        ? ` Written with \`POST /update\` (\`{"parameter": ${JSON.stringify(reading.address)}, "value": …}\`).`
        : ' Read-only.';
    const get = {
      ...general,
      operationId: parameterOperationId(reading.address),
      summary: words === '' ? reading.address : `${reading.address}: ${words}`,
      description: `The value of \`${reading.address}\` (R-H1), typed as the parameter says of itself.${writes}`,
      tags: ['parameters'],
      'x-patchbay-parameter': { address: reading.address, type: reading.type, access },
      responses: {
        200: {
          description: 'The value.',
          content: { [TEXT]: { schema: { type: 'string' } }, [JSON_TYPE]: { schema: valueSchema(reading.type, reading.meta) } },
        },
        ...referred,
      },
    };
    return `${JSON.stringify(path)}:${JSON.stringify({ get })}`;
  };
  return slices(open, readings, entry, '}}', true);
}

/**
 * A parameter's operation id, the same whatever else is listed (a client generator names a
 * function after it): `getParameter_mixer_fader_1`; an address with other characters than
 * letters, digits and `/` gets a hash of itself after `__`, which no plain address makes.
 */
function parameterOperationId(address: string): string {
  if (/^[A-Za-z0-9]+(\/[A-Za-z0-9]+)*$/.test(address)) return `getParameter_${address.replaceAll('/', '_')}`;
  const hash = createHash('sha256').update(address).digest('hex').slice(0, 8);
  return `getParameter_${address.replace(/[^A-Za-z0-9]+/g, '_')}__${hash}`;
}
