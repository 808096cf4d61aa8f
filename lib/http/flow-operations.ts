/**
 * What the flow routes (`flow-routes.ts`, R-ED1–ED4) take and answer, for the OpenAPI
 * description: the flow file read and saved, its draft, schema and kept versions.
 */
import { Type } from '@sinclair/typebox';
import type { ErrorCode } from '../core/errors.ts';
import { JSON_TYPE, JSON5, ok, type Operations } from './operation-shapes.ts';

const flowVersion = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  savedAt: Type.Number({ description: 'Milliseconds since the epoch.' }),
  by: Type.String({ description: 'Who saved it: `token ops from 10.0.0.5`, or `on disk` for the file as a save found it.' }),
  bytes: Type.Integer({ minimum: 0 }),
  etag: Type.String(),
  current: Type.Boolean({ description: "Whether it is the file's text now." }),
});

const issue = Type.Object({
  path: Type.Array(Type.Union([Type.String(), Type.Integer({ minimum: 0 })]), { description: 'Where in the flow file.' }),
  message: Type.String(),
});

/** What a refused save says besides its code: the mistakes, and the tag of the file now. */
const saveErrorFields = {
  issues: Type.Array(issue, { description: 'With PB_FLOW_INVALID: each mistake at its path.' }),
  etag: Type.String({ description: "With PB_FLOW_CHANGED: the file's tag now." }),
};

const saved = ok(
  'Written and applied by a live reload.',
  { [JSON_TYPE]: Type.Object({ ok: Type.Literal(true), etag: Type.String(), version: Type.Integer({ minimum: 1 }) }) },
  { ETag: "The new text's tag." },
);

const saveErrors: readonly ErrorCode[] = [
  'PB_FORBIDDEN',
  'PB_FLOW_READ_ONLY',
  'PB_FLOW_CHANGED',
  'PB_FLOW_INVALID',
  'PB_BODY_TOO_LARGE',
  'PB_BAD_REQUEST',
];

const version = { name: 'version', description: 'A kept version, as `GET /flow/history` lists it.', schema: Type.Integer({ minimum: 1 }) };

const forEditors = 'Full access or a token with `admin: true`.';

export const flowOperations: Operations = {
  '/flow': {
    get: {
      summary: 'Read the flow file',
      description: `The flow file's text as written (\`application/json5\`), with its \`ETag\`; \`X-Patchbay-Read-Only\` (URL-encoded) says why it may not be saved, when it may not (R-ED3). ${forEditors}`,
      tag: 'flow',
      answers: {
        200: ok(
          'The text.',
          { [JSON5]: Type.String() },
          { ETag: "The text's tag, for `If-Match`.", 'X-Patchbay-Read-Only': 'Why it may not be saved, URL-encoded; absent when it may.' },
        ),
      },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY'],
    },
    put: {
      summary: 'Save the flow file',
      description: `The new text, with \`If-Match: <ETag>\`: 200 \`{"ok":true,"etag","version"}\` once checked as \`patchbay validate\` checks, written atomically and applied by a live reload (R-ED2, R-ED3); 412 \`PB_FLOW_CHANGED\` when the file changed since (\`etag\` the one it has now); 422 \`PB_FLOW_INVALID\` with \`issues: [{ path, message }]\`; 428 without \`If-Match\`. ${forEditors}`,
      tag: 'flow',
      body: { [JSON5]: Type.String({ description: 'The new text.' }) },
      answers: { 200: saved },
      errors: [...saveErrors, 'PB_IF_MATCH_REQUIRED', 'PB_CROSS_ORIGIN'],
      errorFields: saveErrorFields,
    },
  },
  '/flow/draft': {
    post: {
      summary: 'Make and check edits, writing nothing',
      description: `\`{"text", "edits": [{"op": "set" | "add" | "remove", "path", "value"?}]}\`: the edits made in the text and checked, nothing written: 200 \`{"text", "issues": [{path, message, from, to}], "document"}\`. ${forEditors}`,
      tag: 'flow',
      body: {
        [JSON_TYPE]: Type.Object({
          text: Type.String(),
          edits: Type.Optional(
            Type.Array(
              Type.Object({
                op: Type.Union([Type.Literal('set'), Type.Literal('add'), Type.Literal('remove')]),
                path: Type.Array(Type.Union([Type.String(), Type.Integer({ minimum: 0 })])),
                value: Type.Optional(Type.Unknown()),
              }),
            ),
          ),
        }),
      },
      answers: {
        200: ok('The text with the edits made, its mistakes placed in it, and its document.', {
          [JSON_TYPE]: Type.Object({
            text: Type.String(),
            issues: Type.Array(Type.Composite([issue, Type.Object({ from: Type.Integer(), to: Type.Integer() })])),
            document: Type.Optional(Type.Unknown({ description: 'The parsed document; absent when the text does not parse.' })),
          }),
        }),
      },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY', 'PB_BAD_REQUEST', 'PB_BODY_TOO_LARGE', 'PB_CROSS_ORIGIN'],
    },
  },
  '/flow/schema': {
    get: {
      summary: 'The flow-file schema',
      description: `The JSON Schema of flow files for the types this hub runs, its packages' included. ${forEditors}`,
      tag: 'flow',
      answers: { 200: ok('The schema.', { 'application/schema+json': Type.Object({}, { additionalProperties: true }) }) },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY'],
    },
  },
  '/flow/history': {
    get: {
      summary: 'List the kept versions',
      description: `The kept versions (the last 20) \`[{version, savedAt, by, bytes, etag, current}]\`, oldest first. ${forEditors}`,
      tag: 'flow',
      answers: { 200: ok('The versions.', { [JSON_TYPE]: Type.Array(flowVersion) }) },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY'],
    },
  },
  '/flow/history/:version': {
    get: {
      summary: 'Read a kept version',
      description: `One kept version's text. ${forEditors}`,
      tag: 'flow',
      variable: version,
      answers: { 200: ok('The text.', { [JSON5]: Type.String() }) },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY', 'PB_NOT_FOUND'],
    },
  },
  '/flow/restore/:version': {
    post: {
      summary: 'Bring a kept version back',
      description: `A save of the kept version's text, with the answers of \`PUT /flow\`. ${forEditors}`,
      tag: 'flow',
      variable: version,
      answers: { 200: saved },
      errors: [...saveErrors, 'PB_NOT_FOUND', 'PB_CROSS_ORIGIN'],
      errorFields: saveErrorFields,
    },
  },
};
