/**
 * The flow file over HTTP (R-ED1–ED3), for the console's editor and any other: `GET /flow`
 * its text with an `ETag`; `PUT /flow` with `If-Match` saves a new text — 200 once applied,
 * 412 when the file changed since, 422 with its mistakes as `[{ path, message }]`, 409 when
 * the hub may not write it; `POST /flow/draft` makes an editor's edits in a text and checks
 * it without writing anything (the console's forms and its marks), and `GET /flow/schema` is
 * the flow-file JSON Schema its forms are made from. Each change is logged with who made it.
 */
import { Type } from '@sinclair/typebox';
import { Draft, DraftRequest, type FlowEdit, saveRefusalFields } from '../core/flow-shapes.ts';
import { checkSize, decodeUtf8 } from './body.ts';
import { answerSaved, editorsOnly, FLOW_TYPE, forEditors, later, MAX_FLOW_BYTES, saveAnswered, saveErrors, who } from './flow-handling.ts';
import { answerLater, readBody } from './handling.ts';
import { JSON5, ok } from './operation-shapes.ts';
import { JSON_TYPE, sendError, sendOk } from './respond.ts';
import type { Route } from './route.ts';

const readFlow = forEditors((res, _req, flow, json, _access, context) =>
  later(res, json, context, async () => {
    const [{ text, etag }, readOnly] = await Promise.all([flow.read(), flow.readOnly()]);
    const headers: [string, string][] = [
      ['ETag', etag],
      ['Cache-Control', 'no-store'],
      // Where the file is on the hub's machine, for the console's first-run page (R-ST1).
      ['X-Patchbay-Flow-File', encodeURIComponent(flow.path)],
    ];
    // Said beside the text, so an editor can say why it will not save before anyone edits.
    if (readOnly) headers.push(['X-Patchbay-Read-Only', encodeURIComponent(readOnly)]);
    return (res) => sendOk(res, FLOW_TYPE, text, headers);
  }),
);

const saveFlow = forEditors((res, req, flow, json, access, context) => {
  const ifMatch = req.getHeader('if-match');
  if (!ifMatch)
    return sendError(
      res,
      { code: 'PB_IF_MATCH_REQUIRED', message: 'send If-Match with the ETag of the flow you changed (GET /flow gives it)' },
      json,
      { close: true },
    );
  const declared = checkSize(Number(req.getHeader('content-length') || 0), MAX_FLOW_BYTES);
  if (!declared.ok) return sendError(res, declared.error, json, { close: true });
  const by = who(res, access);
  const note = noteIn(req.getHeader('x-patchbay-note'));
  readBody(res, MAX_FLOW_BYTES, (body) => {
    if (!body.ok) return answerLater(res, json, context.log, () => sendError(res, body.error, json, { close: true }));
    const text = decodeUtf8(body.value);
    if (!text.ok) return answerLater(res, json, context.log, () => sendError(res, text.error, json));
    later(res, json, context, async () => answerSaved(await flow.save(text.value, ifMatch, by, note), json));
  });
});

/** What `X-Patchbay-Note` says (URL-encoded, as a header carries any text), or undefined. */
function noteIn(header: string): string | undefined {
  if (header === '') return undefined;
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}

/** A draft's body as read: the text as the editor has it, and the edits to make in it (none when it names none). */
type DraftAsked = Required<DraftRequest>;

const isPath = (path: unknown): path is (string | number)[] =>
  Array.isArray(path) && path.every((step) => typeof step === 'string' || (Number.isInteger(step) && step >= 0));

/** The draft a body asks for, or why it is not one. */
function draftAsked(body: unknown): DraftAsked | string {
  const { text, edits = [] } = (body ?? {}) as { text?: unknown; edits?: unknown };
  if (typeof text !== 'string') return "`text` must be the flow file's text, a string";
  if (!Array.isArray(edits)) return '`edits` must be a list';
  for (const [index, edit] of edits.entries()) {
    const { op, path } = (edit ?? {}) as { op?: unknown; path?: unknown };
    if (op !== 'set' && op !== 'add' && op !== 'remove') return `edits[${index}].op must be "set", "add" or "remove"`;
    if (!isPath(path)) return `edits[${index}].path must be a list of keys and list positions`;
    if (op !== 'remove' && !('value' in edit)) return `edits[${index}] needs a value`;
  }
  return { text, edits: edits as FlowEdit[] };
}

const draftFlow = forEditors((res, _req, flow, json, _access, context) => {
  readBody(res, MAX_FLOW_BYTES * 2, (body) => {
    if (!body.ok) return answerLater(res, json, context.log, () => sendError(res, body.error, json, { close: true }));
    let asked: DraftAsked | string;
    try {
      asked = draftAsked(JSON.parse(body.value.toString('utf8')));
    } catch {
      asked = 'the body must be JSON: { "text": …, "edits": [ … ] }';
    }
    if (typeof asked === 'string') {
      const reason = asked;
      return answerLater(res, json, context.log, () => sendError(res, { code: 'PB_BAD_REQUEST', message: reason }, true));
    }
    const { text, edits } = asked;
    later(res, true, context, async () => {
      const draft = await flow.draft(text, edits);
      return (res) => sendOk(res, JSON_TYPE, JSON.stringify(draft));
    });
  });
});

const flowSchema = forEditors((res, _req, flow) =>
  sendOk(res, 'application/schema+json; charset=utf-8', flow.schema(), [['Cache-Control', 'no-store']]),
);

export const flowRoutes: readonly Route[] = [
  {
    path: '/flow',
    get: {
      summary: 'Read the flow file',
      description: `The flow file's text as written (\`application/json5\`), with its \`ETag\`; \`X-Patchbay-Flow-File\` (URL-encoded) says where the file is on the hub's machine; \`X-Patchbay-Read-Only\` (URL-encoded) says why it may not be saved, when it may not (R-ED3). ${editorsOnly}`,
      tag: 'flow',
      answers: {
        200: ok(
          'The text.',
          { [JSON5]: Type.String() },
          {
            ETag: "The text's tag, for `If-Match`.",
            'X-Patchbay-Flow-File': "The file's path on the hub's machine, URL-encoded.",
            'X-Patchbay-Read-Only': 'Why it may not be saved, URL-encoded; absent when it may.',
          },
        ),
      },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY'],
      handle: readFlow,
    },
    put: {
      summary: 'Save the flow file',
      description: `The new text, with \`If-Match: <ETag>\`: 200 \`{"ok":true,"etag","version"}\` once checked as \`patchbay validate\` checks, written atomically and applied by a live reload (R-ED2, R-ED3); 412 \`PB_FLOW_CHANGED\` when the file changed since (\`etag\` the one it has now); 422 \`PB_FLOW_INVALID\` with \`issues: [{ path, message }]\`; 428 without \`If-Match\`. \`X-Patchbay-Note\` (URL-encoded, at most 200 characters kept) names the version in \`GET /flow/history\`: what the save changed. ${editorsOnly}`,
      tag: 'flow',
      body: { [JSON5]: Type.String({ description: 'The new text.' }) },
      answers: { 200: saveAnswered },
      errors: [...saveErrors, 'PB_IF_MATCH_REQUIRED', 'PB_CROSS_ORIGIN'],
      errorFields: saveRefusalFields,
      handle: saveFlow,
    },
  },
  {
    path: '/flow/draft',
    post: {
      summary: 'Make and check edits, writing nothing',
      description: `\`{"text", "edits": [{"op": "set" | "add" | "remove", "path", "value"?}]}\`: the edits made in the text and checked, nothing written: 200 \`{"text", "issues": [{path, message, from, to}], "document"}\`. ${editorsOnly}`,
      tag: 'flow',
      body: {
        [JSON_TYPE]: DraftRequest,
      },
      answers: {
        200: ok('The text with the edits made, its mistakes placed in it, and its document.', {
          [JSON_TYPE]: Draft,
        }),
      },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY', 'PB_BAD_REQUEST', 'PB_BODY_TOO_LARGE', 'PB_CROSS_ORIGIN'],
      handle: draftFlow,
    },
  },
  {
    path: '/flow/schema',
    get: {
      summary: 'The flow-file schema',
      description: `The JSON Schema of flow files for the types this hub runs, its packages' included; under a connection's id (\`properties.connections.properties.<id>\`), its settings as its type knows them finer than its schema (a Companion module's config fields, once it has run here). ${editorsOnly}`,
      tag: 'flow',
      answers: { 200: ok('The schema.', { 'application/schema+json': Type.Object({}, { additionalProperties: true }) }) },
      errors: ['PB_FORBIDDEN', 'PB_FLOW_READ_ONLY'],
      handle: flowSchema,
    },
  },
];
