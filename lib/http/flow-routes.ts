/**
 * The flow file over HTTP (R-ED3), for the console's editor and any other: `GET /flow` its
 * text with an `ETag`; `PUT /flow` with `If-Match` saves a new text — 200 once applied, 412
 * when the file changed since, 422 with its mistakes as `[{ path, message }]`, 409 when the
 * hub may not write it; `GET /flow/history` the kept versions, `GET /flow/history/<version>`
 * one's text, `POST /flow/restore/<version>` brings one back; `POST /flow/draft` makes an
 * editor's edits in a text and checks it without writing anything (the console's forms and
 * its marks), and `GET /flow/schema` is the flow-file JSON Schema its forms are made from.
 * A signed-in login with full access or an `admin` token alone (a flow names hosts and
 * placeholders; a hub without credentials lets nobody edit); each change is logged with who made it.
 */
import type { FlowEdit, FlowView, Saved } from '../core/flow-view.ts';
import { reasonOf } from '../core/errors.ts';
import { checkSize, decodeUtf8 } from './body.ts';
import type { ClientAccess } from './access.ts';
import { type CodedError, JSON_TYPE, jsonClient, sendError, sendOk } from './respond.ts';
import { answerLater, clientAddress, readBody } from './handling.ts';
import type { Handler, Route, RouteContext } from './route.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';

/**
 * The largest flow file taken over HTTP: ten times a large studio's (500 connections and
 * 2,000 rules are some 200 KB), and small enough that checking it holds the hub up briefly.
 * A generated flow larger than that is edited on disk.
 */
export const MAX_FLOW_BYTES = 2 * 1024 * 1024;
/** How a flow file's text is served. */
const FLOW_TYPE = 'application/json5; charset=utf-8';

const noEditor: CodedError = {
  code: 'PB_FLOW_READ_ONLY',
  message: 'this hub was not started from a flow file (patchbay run): there is no file to edit',
};

const noCredentials: CodedError = {
  code: 'PB_CREDENTIALS_REQUIRED',
  message:
    'the flow editor needs credentials: this rest-api has none, so anyone who reaches it could change the flow; give it a `token` in the flow file and sign in',
};

/**
 * A handler of the flow file: for a signed-in login with full access or an `admin` token (403 otherwise), on a hub
 * that runs one. `handle` runs before the handler returns, so it may still read the request.
 */
function forEditors(
  handle: (res: HttpResponse, req: HttpRequest, flow: FlowView, json: boolean, access: ClientAccess, context: RouteContext) => void,
): Handler {
  return (res, req, context, access) => {
    const json = jsonClient(req);
    // A refused PUT's body is never read: the connection closes after the answer.
    const close = req.getMethod() === 'put';
    // Anyone who reaches a hub without credentials has full access: never the flow's editor.
    if (!access.signedIn) return sendError(res, noCredentials, json, { close });
    if (!access.full && !access.admin)
      return sendError(res, { code: 'PB_FORBIDDEN', message: 'this token may not read or change the flow: it needs `admin`' }, json, {
        close,
      });
    if (!context.flow) return sendError(res, noEditor, json, { close });
    handle(res, req, context.flow, json, access, context);
  };
}

/** The kept version a path names (`/flow/history/<n>`, `/flow/restore/<n>`), or 404. */
function forVersion(
  handle: (res: HttpResponse, version: number, flow: FlowView, json: boolean, access: ClientAccess, context: RouteContext) => void,
) {
  return forEditors((res, req, flow, json, access, context) => {
    const asked = req.getParameter(0) ?? '';
    const version = /^[1-9]\d{0,8}$/.test(asked) ? Number(asked) : undefined;
    if (version === undefined) return sendError(res, notKept(asked), json);
    handle(res, version, flow, json, access, context);
  });
}

const notKept = (asked: string | number): CodedError => ({ code: 'PB_NOT_FOUND', message: `no kept version ${asked} of the flow file` });

/** Who a change is logged as: the login and where it came from. */
const who = (res: HttpResponse, access: ClientAccess) =>
  `${access.full ? 'full access' : `token ${access.name}`} from ${clientAddress(res)}`;

/** Runs `work` for an answer made after an await: aborted requests get none, faults a 500. */
function later(res: HttpResponse, json: boolean, context: RouteContext, work: () => Promise<(res: HttpResponse) => void>): void {
  let aborted = false;
  res.onAborted(() => (aborted = true));
  work().then(
    (answer) => {
      if (!aborted) answerLater(res, json, context.log, () => answer(res));
    },
    (error: unknown) => {
      context.log.error(`flow request failed: ${reasonOf(error)}`);
      if (!aborted)
        answerLater(res, json, context.log, () =>
          sendError(res, { code: 'PB_INTERNAL', message: `the flow file could not be read or written: ${reasonOf(error)}` }, json),
        );
    },
  );
}

/** A save's answer: the new tag, or why nothing was written (with the mistakes, or the tag the file has now). */
const answerSaved = (saved: Saved, json: boolean) => (res: HttpResponse) => {
  if (saved.ok)
    return sendOk(res, JSON_TYPE, JSON.stringify({ ok: true, etag: saved.etag, version: saved.version }), [['ETag', saved.etag]]);
  const extra = {
    ...(saved.issues ? { issues: saved.issues.map(({ path, message }) => ({ path, message })) } : {}),
    ...(saved.etag ? { etag: saved.etag } : {}),
  };
  sendError(res, saved.error, json || saved.issues !== undefined, {
    extra,
    ...(saved.etag ? { headers: [['ETag', saved.etag]] as const } : {}),
  });
};

const readFlow = forEditors((res, _req, flow, json, _access, context) =>
  later(res, json, context, async () => {
    const [{ text, etag }, readOnly] = await Promise.all([flow.read(), flow.readOnly()]);
    const headers: [string, string][] = [
      ['ETag', etag],
      ['Cache-Control', 'no-store'],
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
  readBody(res, MAX_FLOW_BYTES, (body) => {
    if (!body.ok) return answerLater(res, json, context.log, () => sendError(res, body.error, json, { close: true }));
    const text = decodeUtf8(body.value);
    if (!text.ok) return answerLater(res, json, context.log, () => sendError(res, text.error, json));
    later(res, json, context, async () => answerSaved(await flow.save(text.value, ifMatch, by), json));
  });
});

/** A draft's body: the text as the editor has it, and the edits to make in it. */
interface DraftAsked {
  readonly text: string;
  readonly edits: readonly FlowEdit[];
}

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

const listVersions = forEditors((res, _req, flow, json, _access, context) =>
  later(res, json, context, async () => {
    const [versions, current] = await Promise.all([flow.history(), flow.read()]);
    // The newest version with the file's text is the current one (a restore makes an older one's text current again).
    const currentAt = versions.findLastIndex((version) => version.etag === current.etag);
    const listed = versions.map((version, at) => ({ ...version, current: at === currentAt }));
    return (res) => sendOk(res, JSON_TYPE, JSON.stringify(listed));
  }),
);

const readVersion = forVersion((res, version, flow, json, _access, context) =>
  later(res, json, context, async () => {
    const text = await flow.versionText(version);
    return (res) =>
      text === undefined ? sendError(res, notKept(version), json) : sendOk(res, FLOW_TYPE, text, [['Cache-Control', 'no-store']]);
  }),
);

const restoreVersion = forVersion((res, version, flow, json, access, context) => {
  const by = who(res, access);
  later(res, json, context, async () => answerSaved(await flow.restore(version, by), json));
});

export const flowRoutes: readonly Route[] = [
  { path: '/flow', get: readFlow, put: saveFlow },
  { path: '/flow/draft', post: draftFlow },
  { path: '/flow/schema', get: flowSchema },
  { path: '/flow/history', get: listVersions },
  { path: '/flow/history/:version', get: readVersion },
  { path: '/flow/restore/:version', post: restoreVersion },
];
