/**
 * What every route of the flow file (R-ED3) and of what a studio adds beside it (R-ST2)
 * shares: who may use them — a signed-in login with full access or an `admin` token, on a hub
 * that runs a flow file (a flow names hosts and placeholders; a hub without credentials lets
 * nobody edit) — who a change is logged as, and how a save is answered and described.
 */
import { FlowSaved } from '../core/flow-shapes.ts';
import type { FlowView, Saved } from '../core/flow-view.ts';
import type { StoreView } from '../core/store-view.ts';
import { type ErrorCode, reasonOf } from '../core/errors.ts';
import type { ClientAccess } from './access.ts';
import { answerLater, clientAddress } from './handling.ts';
import { ok } from './operation-shapes.ts';
import { type CodedError, JSON_TYPE, jsonClient, sendError, sendOk } from './respond.ts';
import type { Handler, RouteContext } from './route.ts';
import type { HttpRequest, HttpResponse } from './uws.ts';

/**
 * The largest flow file taken over HTTP: ten times a large studio's (500 connections and
 * 2,000 rules are some 200 KB), and small enough that checking it holds the hub up briefly.
 * A generated flow larger than that is edited on disk.
 */
export const MAX_FLOW_BYTES = 2 * 1024 * 1024;
/** How a flow file's text is served. */
export const FLOW_TYPE = 'application/json5; charset=utf-8';

const noEditor: CodedError = {
  code: 'PB_FLOW_READ_ONLY',
  message: 'this hub was not started from a flow file (patchbay run): there is no file to edit',
};

const noCredentials: CodedError = {
  code: 'PB_CREDENTIALS_REQUIRED',
  message:
    'the flow editor needs credentials: this rest-api has none, so anyone who reaches it could change the flow; give it a `token` in the flow file and sign in',
};

/** What an editors' handler does with the part of the hub it reaches (the flow file, the store). */
type EditorsHandle<T> = (res: HttpResponse, req: HttpRequest, part: T, json: boolean, access: ClientAccess, context: RouteContext) => void;

/**
 * A handler of the flow file: for a signed-in login with full access or an `admin` token (403 otherwise), on a hub
 * that runs one. `handle` runs before the handler returns, so it may still read the request.
 */
export const forEditors = (handle: EditorsHandle<FlowView>): Handler => editorsOf((context) => context.flow, handle);

/** A handler of what a studio can add beside the flow file, for the same editors on the same hubs. */
export const forStore = (handle: EditorsHandle<StoreView>): Handler => editorsOf((context) => context.store, handle);

function editorsOf<T>(partOf: (context: RouteContext) => T | undefined, handle: EditorsHandle<T>): Handler {
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
    const part = partOf(context);
    if (part === undefined) return sendError(res, noEditor, json, { close });
    handle(res, req, part, json, access, context);
  };
}

/** The kept version a path names (`/flow/history/<n>`, `/flow/restore/<n>`), or 404. */
export function forVersion(
  handle: (res: HttpResponse, version: number, flow: FlowView, json: boolean, access: ClientAccess, context: RouteContext) => void,
) {
  return forEditors((res, req, flow, json, access, context) => {
    const asked = req.getParameter(0) ?? '';
    const version = /^[1-9]\d{0,8}$/.test(asked) ? Number(asked) : undefined;
    if (version === undefined) return sendError(res, notKept(asked), json);
    handle(res, version, flow, json, access, context);
  });
}

export const notKept = (asked: string | number): CodedError => ({
  code: 'PB_NOT_FOUND',
  message: `no kept version ${asked} of the flow file`,
});

/** Who a change is logged as: the login and where it came from. */
export const who = (res: HttpResponse, access: ClientAccess) =>
  `${access.full ? 'full access' : `token ${access.name}`} from ${clientAddress(res)}`;

/** Runs `work` for an answer made after an await: aborted requests get none, faults a 500. */
export function later(res: HttpResponse, json: boolean, context: RouteContext, work: () => Promise<(res: HttpResponse) => void>): void {
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
export const answerSaved = (saved: Saved, json: boolean) => (res: HttpResponse) => {
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

/** What a save or a restore answers when it is taken. */
export const saveAnswered = ok('Written and applied by a live reload.', { [JSON_TYPE]: FlowSaved }, { ETag: "The new text's tag." });

/** What a save or a restore may be refused with. */
export const saveErrors: readonly ErrorCode[] = [
  'PB_FORBIDDEN',
  'PB_FLOW_READ_ONLY',
  'PB_FLOW_CHANGED',
  'PB_FLOW_INVALID',
  'PB_BODY_TOO_LARGE',
  'PB_BAD_REQUEST',
];

/** Who may use the flow's routes, as each description says it. */
export const editorsOnly = 'Full access or a token with `admin: true`.';
