/**
 * The table of stable error codes: each with the HTTP status it answers with and the text
 * docs/reference/errors.md shows. A code never changes meaning once published; a spec
 * keeps that table and this one in sync. Codes that never travel over HTTP (flow-file and start
 * failures) still have a status, so that any error can be answered without a default.
 */
export const errorTable = {
  PB_BAD_ADDRESS: {
    status: 404,
    text: 'An address, connection id or parameter id breaks the id rules: connection ids are 1–64 of a-z 0-9 -, parameter id segments 1–128 of A-Z a-z 0-9 _ - . joined by /.',
  },
  PB_RESERVED_ID: {
    status: 400,
    text: 'A parameter id begins with `_`, which is reserved for the hub (such as `_status/connected`). Rename the parameter.',
  },
  PB_UNKNOWN_CONNECTION: { status: 404, text: 'No connection has this id. Check the address against the `connections` of the flow file.' },
  PB_UNKNOWN_PARAMETER: {
    status: 404,
    text: "The connection exists but has no parameter with this id. Check the id against the connection type's parameter list. A device's connection may make its parameters once the device has answered (an ATEM's M/Es, a Videohub's outputs): while the connection is not up, HTTP's message says how it stands.",
  },
  PB_DUPLICATE_PARAMETER: {
    status: 409,
    text: 'A parameter with this address already exists. Each id may be defined once per connection.',
  },
  PB_READ_ONLY: { status: 403, text: 'The parameter is read-only: the hub only reports it. Write to a writable parameter instead.' },
  PB_WRITE_ONLY: {
    status: 403,
    text: 'The parameter is write-only: it accepts values and reads back only the last one sent, so a rule cannot follow it. A rule source must be readable.',
  },
  PB_CONVERSION: {
    status: 400,
    text: "The value cannot be converted to the parameter's type, or is outside the range or the choices the parameter declares (R-PK6: the reason names them); the parameter keeps its previous value. See the conversion table.",
  },
  PB_STATE_UNKNOWN: {
    status: 503,
    text: 'The parameter has no value yet (or is a trigger, which has none). Read it again once it is set.',
  },
  PB_BAD_REQUEST: {
    status: 400,
    text: 'The request or WebSocket message is malformed: a field is missing, the body is not UTF-8 JSON or a form, or the shape is wrong. The message says which.',
  },
  PB_BAD_FILTER: { status: 400, text: 'A `filter` is not a regular expression the hub accepts. Correct the expression.' },
  PB_UNAUTHORIZED: {
    status: 401,
    text: 'The hub needs credentials: HTTP Basic, `Authorization: Bearer <token>`, a session signed in with `?access_token=`, or `?access_token=` on the upgrade.',
  },
  PB_FORBIDDEN: {
    status: 403,
    text: 'The token may not do this: write a parameter outside its `write` patterns (it may read it), read `/metrics` without `metrics: true`, or read or change the flow, or ask for a takeover, without `admin: true`.',
  },
  PB_NOT_READY: {
    status: 503,
    text: 'Not every connection `/readyz` waits for is `ok`; the answer lists each with its status and reason.',
  },
  PB_CROSS_ORIGIN: {
    status: 403,
    text: 'A page of another origin may not change parameters or open the WebSocket. Add its origin to `allowedOrigins` if it should.',
  },
  PB_BAD_HOST: {
    status: 403,
    text: "The request's `Host` is not a name of this hub (DNS rebinding protection): it answers under IP addresses, `localhost`, the machine's own names and the rest-api's `hostnames`. Add the name there if clients use it.",
  },
  PB_NOT_FOUND: { status: 404, text: 'Nothing is served at this path: no built-in path and no hosted file.' },
  PB_METHOD_NOT_ALLOWED: { status: 405, text: 'The path exists but not for this method; the `Allow` header lists the methods it takes.' },
  PB_UPGRADE_REQUIRED: { status: 426, text: '`/ws` is a WebSocket: connect with a WebSocket client, which sends the upgrade headers.' },
  PB_BODY_TOO_LARGE: { status: 413, text: 'The request body is over the limit (64 KiB). Send fewer or shorter values per request.' },
  PB_BATCH_TOO_LARGE: {
    status: 413,
    text: 'A WebSocket batch has more than 1,000 items; none of it was written. Send the items in several batches.',
  },
  PB_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    text: 'The body type is not accepted: send `application/x-www-form-urlencoded` or `application/json`.',
  },
  PB_INTERNAL: { status: 500, text: 'The hub failed while answering; the hub log has the details. Please report it.' },
  PB_BAD_KEY: {
    status: 400,
    text: 'A key combination names an unknown key or modifier. Write modifiers (ctrl, shift, alt, meta) and one key, joined by -.',
  },
  PB_FLOW_FILE_READ: { status: 400, text: 'The flow file cannot be read or is not valid JSON5; the message gives the line and column.' },
  PB_FLOW_FILE_INVALID: { status: 400, text: 'The flow file has mistakes; each one is listed with its JSON path and what was expected.' },
  PB_FLOW_INVALID: {
    status: 422,
    text: 'The flow sent to `PUT /flow` has mistakes, or its reload was refused: nothing was written. The answer lists each as `{ path, message }`.',
  },
  PB_FLOW_CHANGED: {
    status: 412,
    text: 'The flow file changed since it was read (another editor, a `git pull`): nothing was written. Read it again (`GET /flow`), and save on top of that.',
  },
  PB_RESUME_REFUSED: {
    status: 409,
    text: 'A WebSocket upgrade brought a resume token given to another login, or to other filters or options (R-W3): come back with the same ones, or open a new stream with `?resume=1`.',
  },
  PB_IF_MATCH_REQUIRED: {
    status: 428,
    text: '`PUT /flow` needs `If-Match` with the `ETag` of the text it changes, so that nobody saves over an edit they have not seen.',
  },
  PB_FLOW_READ_ONLY: {
    status: 409,
    text: 'The hub runs a flow file it may not write: one inside an installed package (the demo), or a file or folder without write permission. Copy it to a folder of your own and run that.',
  },
  PB_CREDENTIALS_REQUIRED: {
    status: 403,
    text: 'The flow editor needs credentials: on a rest-api without any, everyone who reaches the port would change the flow. Give the rest-api a `token` (or `tokens` with `admin: true`) in the flow file and sign in.',
  },
  PB_FLOW_PROTECTED: {
    status: 403,
    text: "The edit changes what names code, a file, a folder or a device on the hub's machine (code flows, plugins, a Companion module outside the flow's `modules` folder, file names outside `outputFolder`, certificates, serial ports, keystrokes, new `${…}` placeholders): over HTTP only on a hub started with --allow-machine-edits. Make the change in the file on the machine.",
  },
  PB_PORT_UNAVAILABLE: {
    status: 503,
    text: 'The connection cannot listen on its port: another process holds it, or `bindIp` is not an address of this machine.',
  },
  PB_ACTIVATION_SCHEDULED: {
    status: 423,
    text: 'An IS-05 activation is scheduled for this NMOS sender or receiver, which locks its staged parameters until it happens. PATCH `activation.mode` null to cancel it, in the same request as other changes if wanted.',
  },
  PB_STARTING: {
    status: 503,
    text: 'The hub is starting: its connections, code flows and rules are not all running yet, so a request now could be answered before the rules that follow it run. Try again in a moment (the answer has Retry-After), or wait until /healthz answers 200.',
  },
  PB_TLS: {
    status: 503,
    text: 'The rest-api cannot serve TLS: its `cert` or `key` file is missing or unreadable, the two do not match, or the key needs a passphrase that the variable named by `passphraseEnv` does not hold.',
  },
  PB_DOCUMENT_ROOT: { status: 503, text: 'The `documentRoot` folder is missing or not a folder. Create it or correct the setting.' },
  PB_BAD_TEMPLATE: { status: 503, text: 'The XML template is not well-formed; the message gives line and column.' },
  PB_NO_DISPLAY: {
    status: 503,
    text: 'No usable X display for global keys: set `DISPLAY`, allow input access, or use `whenNoDisplay: "disable"` on headless machines.',
  },
  PB_CODE_FLOW: {
    status: 503,
    text: 'A code flow failed to load (the message gives file, line and column when it does not compile), threw — at start, from a timer, or by a rejection nobody handled — or its stream errored; it is stopped and its parameters removed. The message names the file.',
  },
  PB_FEEDBACK_LOOP: {
    status: 508,
    text: 'Rules, code flows or logic functions kept re-entering their own chain in one turn; the loop was cut and reported with its addresses. Break the cycle in the rules, the flow or the inputs of the functions.',
  },
  PB_RULE_FAILED: { status: 500, text: "A rule's pipe failed and the rule stopped; the message says why. The other rules run on." },
  PB_FILE_WRITE: {
    status: 503,
    text: 'A file the connection writes cannot be written (missing folder, no permission, full disk); it is tried again every 2 seconds and on the next write, and the connection is ok once it is saved.',
  },
  PB_STATE_UNAVAILABLE: {
    status: 503,
    text: 'The state folder cannot be opened or written (missing permission, full disk). Values keep working in memory and are saved once it can be written again.',
  },
  PB_STATE_LOCKED: {
    status: 503,
    text: 'Another running hub holds the state folder (its lock file names the process): this hub keeps values in memory only. Stop the other hub or give this one its own folder with `--state`.',
  },
  PB_BROKER_UNAVAILABLE: {
    status: 503,
    text: 'The MQTT broker cannot be reached or refused the connection; the connection retries with backoff, and changes made meanwhile are sent when it is back (latest value per topic).',
  },
  PB_OWNER_UNAVAILABLE: {
    status: 503,
    text: 'The parameter belongs to a connection another hub runs, and that hub is away or did not answer the forwarded write in time. Try again once its connection is `ok`.',
  },
  PB_NOT_ACTIVE: {
    status: 503,
    text: 'This hub is a standby of a redundancy group, or the active hub that just lost its lease: only the active hub talks to devices, and `POST /failover` asks a standby to take over. Send the request to the active hub (its id is `<mqtt connection>/_hub/active`), or wait for the takeover.',
  },
  PB_ALREADY_ACTIVE: {
    status: 409,
    text: 'This hub is the active hub of its redundancy group already. To move the role, send `POST /failover` to a standby hub of the group.',
  },
  PB_CONNECTION_OWNED: {
    status: 409,
    text: 'Another hub on the same broker runs a connection with this id; the later hub fails its own. Give the connection another id, or run it on one hub.',
  },
  PB_WAITING: {
    status: 503,
    text: 'A rule or code flow names a parameter that does not exist yet; it starts by itself when the parameter appears (a device tree read, another hub joining). Check the address if it never does.',
  },
  PB_DEVICE_UNAVAILABLE: {
    status: 503,
    text: "The device's link is down, so the write was not sent; the connection reconnects with backoff. Try again once it is `ok`.",
  },
  PB_DEVICE_TIMEOUT: {
    status: 504,
    text: "The device did not confirm the write within the connection's `timeout` (default 2 s); it may or may not have taken it.",
  },
  PB_BAD_ANSWER: {
    status: 502,
    text: 'The device or service answered, but not as expected: an HTTP status of 400 or more, or an answer without the values to extract; the message says which. Check the request against what the device expects.',
  },
  PB_SCENE_EMPTY: {
    status: 409,
    text: 'The scene holds nothing yet, so there is nothing to recall; or a store found none of its members with a value (their device away), and kept the scene before. Set the members up, and store the scene when they have values.',
  },
  PB_OVER_LIMIT: {
    status: 503,
    text: "A broker or a device sent more than its connection's bounds allow (an mqtt connection's `limits`; a device's frame size, frames a second or parameters made); what was over was dropped and counted. Find the sender, or raise the bound.",
  },
  PB_PLUGIN_INCOMPATIBLE: {
    status: 503,
    text: "A package of the flow's `plugins` is written for a connection API (`patchbay.apiVersion` in its package.json) that this hub does not speak; the message names both. Install a version of the package written for this hub's API, or a hub that speaks the package's. Its connections fail; the others run.",
  },
  PB_PLUGIN_LOAD: {
    status: 503,
    text: "A package of the flow's `plugins` cannot be used: it is not installed where the flow file's folder resolves it, its package.json declares no `patchbay` types, or a module of a type fails to load or does not export a connection type, or the thread that reads its types (type-host.ts) ended — its module threw after loading, exited, or left a description unanswered for 10 s or a check of settings (`parse()` and the rest) for 2 s; the message names the package and why. Its connections fail; the others run.",
  },
  PB_PLUGIN_CHANGED: {
    status: 503,
    text: "A package of the flow's `plugins` was installed again while the hub runs: a process of one of its connections would load its new code under the version and settings schema the hub loaded, so it is not started; the message names the version installed and the one loaded. The package itself is listed in `/problems` with this code from the moment it is installed again (R-PK10). Reload the flow (SIGHUP, `--watch`, the console's editor) or restart the hub to load the new one; the connection starts again by itself if what was loaded is put back. The others run.",
  },
  PB_MODULE_INCOMPATIBLE: {
    status: 503,
    text: "A `companion-module` connection's module is built for a host API this hub does not speak: its manifest's `runtime.api` is not `nodejs-ipc`, or its `runtime.apiVersion` (the `@companion-module/base` it was built against) is not one the hub speaks; the message names both. Use a build of the module for a base the hub speaks. The connection fails; the others run.",
  },
  PB_TYPE_TAKEN: {
    status: 503,
    text: 'Two sources claim one connection type name: a package names a type built into patchbay, or one another package of the flow declares first; the message names both owners. The later package is refused (its connections fail; the others run): remove one of the two packages from `plugins`.',
  },
  PB_PROCESS_ENDED: {
    status: 503,
    text: 'The process of its own that the connection runs in (`isolate: "process"`) ended: an exception nobody handled, an exit, a signal (kill -9), a heap past `maxMemoryMb` or memory as a whole past it and 256 MB, no answer for `hangMs`, a message on its channel the hub cannot take, or more than 200,000 parameters defined; the message says which, and the hub log has the stack of an exception; or the process a connection runs itself ended (the key process of `keyboard` connections; that of a Companion module: an exit, a signal, its heap or memory past `moduleMaxMemoryMb`, no answer for `moduleHangMs`). Its parameters keep their last values, and a new process starts after 1 s (three times), then after 2, 4, 8 … up to 60 s.',
  },
  PB_START_FAILED: {
    status: 503,
    text: 'The connection failed to start for a reason of its own; the message says why. The other connections run on.',
  },
} as const satisfies Record<string, { readonly status: number; readonly text: string }>;

export type ErrorCode = keyof typeof errorTable;
export type ErrorStatus = (typeof errorTable)[ErrorCode]['status'];

/** The HTTP status an error with this code answers with. */
export function statusOf(code: ErrorCode): ErrorStatus {
  return errorTable[code].status;
}

/** A code a connection type declares for its own refusals (R-PK8): `<TYPE>_<NAME>`, its status and meaning. */
export interface DeclaredCode {
  readonly status: DeclaredStatus;
  readonly text: string;
}

/** The statuses a type's own code may answer with: a refusal of the write (4xx) or of the device (5xx). */
export const declaredStatuses = [400, 403, 404, 409, 422, 502, 503, 504] as const;
export type DeclaredStatus = (typeof declaredStatuses)[number];

/** The codes the types of this hub declared, by code: answers look their status up here. */
const declaredCodes = new Map<string, DeclaredCode>();

/**
 * Takes a type's own codes (R-PK8). Each is `<TYPE>_<NAME>`: the type name in capitals, `-`
 * as `_`, so no two types' codes meet and none is the hub's (`PB_`). Returns the first
 * code that breaks that, to refuse the type with.
 */
export function declareCodes(type: string, codes: Readonly<Record<string, DeclaredCode>>): string | undefined {
  const prefix = `${type.toUpperCase().replaceAll('-', '_')}_`;
  const wrong = Object.keys(codes).find(
    (code) => !code.startsWith(prefix) || !/^[A-Z][A-Z0-9_]{2,63}$/.test(code) || code.startsWith('PB_'),
  );
  if (wrong !== undefined) return wrong;
  for (const [code, declared] of Object.entries(codes)) declaredCodes.set(code, declared);
  return undefined;
}

/** The status and code an error answers with: its type's own code when it carries one that was declared, else its own. */
export function answerOf(error: { readonly code: ErrorCode; readonly declared?: string | undefined }): {
  status: ErrorStatus | DeclaredStatus;
  code: string;
} {
  const declared = error.declared === undefined ? undefined : declaredCodes.get(error.declared);
  return declared && error.declared
    ? { status: declared.status, code: error.declared }
    : { status: statusOf(error.code), code: error.code };
}

/**
 * An error that reaches users: a stable code plus a message that says what went wrong. Told
 * by its code, not its class: a connection type of a package may bring its own copy of
 * `patchbay-hub/connection`, whose HubError is another class with the same codes.
 */
export class HubError extends Error {
  readonly code: ErrorCode;

  static override [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses keep the class test: a ReloadRefused is not any HubError.
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass asked about, not HubError
    if (this !== HubError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return value instanceof Error && Object.hasOwn(errorTable, (value as { code?: unknown }).code as PropertyKey);
  }

  /**
   * A code of the connection type's own (R-PK8), which answers carry in place of `code` when
   * the type declared it; `code` is the hub's for everything else (logs, metrics, rules).
   */
  readonly declared?: string;

  constructor(code: ErrorCode, message: string, options?: { readonly cause?: unknown; readonly declared?: string | undefined }) {
    super(message, options);
    this.name = 'HubError';
    this.code = code;
    if (options?.declared !== undefined) this.declared = options.declared;
  }
}

/** A failure as data: what parameters and loaders return instead of throwing. */
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: HubError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(code: ErrorCode, message: string): Result<T> => ({ ok: false, error: new HubError(code, message) });

/**
 * The one way anything thrown becomes text, for logs, statuses and answers. With `stack`
 * an Error gives its stack trace, for log lines where the place matters (a code flow's
 * own mistake).
 */
export function reasonOf(thrown: unknown, { stack = false } = {}): string {
  // Libraries reject with plain objects of a device's answer too ({ code: 111, name: … }): say what they hold.
  if (typeof thrown === 'object' && thrown !== null && !(thrown instanceof Error)) return jsonOrString(thrown);
  if (!(thrown instanceof Error)) return String(thrown);
  return stack ? (thrown.stack ?? thrown.message) : thrown.message;
}

function jsonOrString(thrown: object): string {
  try {
    return JSON.stringify(thrown) ?? String(thrown);
  } catch {
    return String(thrown);
  }
}

/** Anything thrown as a HubError: its own code when it has one, `fallback` otherwise. */
export function asHubError(thrown: unknown, fallback: ErrorCode): HubError {
  return thrown instanceof HubError ? thrown : new HubError(fallback, reasonOf(thrown), { cause: thrown });
}
