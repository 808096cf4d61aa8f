/**
 * The table of stable error codes: each with the HTTP status it answers with and the text
 * docs/reference/errors.md shows. A code never changes meaning once published; a spec
 * keeps that table and this one in sync. Codes that never travel over HTTP (flow-file and start
 * failures) still have a status, so that any error can be answered without a default.
 */
export declare const errorTable: {
    readonly PB_BAD_ADDRESS: {
        readonly status: 404;
        readonly text: "An address, connection id or parameter id breaks the id rules: connection ids are 1–64 of a-z 0-9 -, parameter id segments 1–128 of A-Z a-z 0-9 _ - . joined by /.";
    };
    readonly PB_RESERVED_ID: {
        readonly status: 400;
        readonly text: "A parameter id begins with `_`, which is reserved for the hub (such as `_status/connected`). Rename the parameter.";
    };
    readonly PB_UNKNOWN_CONNECTION: {
        readonly status: 404;
        readonly text: "No connection has this id. Check the address against the `connections` of the flow file.";
    };
    readonly PB_UNKNOWN_PARAMETER: {
        readonly status: 404;
        readonly text: "The connection exists but has no parameter with this id. Check the id against the connection type's parameter list.";
    };
    readonly PB_DUPLICATE_PARAMETER: {
        readonly status: 409;
        readonly text: "A parameter with this address already exists. Each id may be defined once per connection.";
    };
    readonly PB_READ_ONLY: {
        readonly status: 403;
        readonly text: "The parameter is read-only: the hub only reports it. Write to a writable parameter instead.";
    };
    readonly PB_WRITE_ONLY: {
        readonly status: 403;
        readonly text: "The parameter is write-only: it accepts values and reads back only the last one sent, so a rule cannot follow it. A rule source must be readable.";
    };
    readonly PB_CONVERSION: {
        readonly status: 400;
        readonly text: "The value cannot be converted to the parameter's type; the parameter keeps its previous value. See the conversion table.";
    };
    readonly PB_STATE_UNKNOWN: {
        readonly status: 503;
        readonly text: "The parameter has no value yet (or is a trigger, which has none). Read it again once it is set.";
    };
    readonly PB_BAD_REQUEST: {
        readonly status: 400;
        readonly text: "The request or WebSocket message is malformed: a field is missing, the body is not UTF-8 JSON or a form, or the shape is wrong. The message says which.";
    };
    readonly PB_BAD_FILTER: {
        readonly status: 400;
        readonly text: "A `filter` is not a regular expression the hub accepts. Correct the expression.";
    };
    readonly PB_UNAUTHORIZED: {
        readonly status: 401;
        readonly text: "The hub needs credentials: HTTP Basic, `Authorization: Bearer <token>`, a session signed in with `?access_token=`, or `?access_token=` on the upgrade.";
    };
    readonly PB_FORBIDDEN: {
        readonly status: 403;
        readonly text: "The token may not do this: write a parameter outside its `write` patterns (it may read it), read `/metrics` without `metrics: true`, or read or change the flow, or ask for a takeover, without `admin: true`.";
    };
    readonly PB_NOT_READY: {
        readonly status: 503;
        readonly text: "Not every connection `/readyz` waits for is `ok`; the answer lists each with its status and reason.";
    };
    readonly PB_CROSS_ORIGIN: {
        readonly status: 403;
        readonly text: "A page of another origin may not change parameters or open the WebSocket. Add its origin to `allowedOrigins` if it should.";
    };
    readonly PB_BAD_HOST: {
        readonly status: 403;
        readonly text: "The request's `Host` is not a name of this hub (DNS rebinding protection): it answers under IP addresses, `localhost`, the machine's own names and the rest-api's `hostnames`. Add the name there if clients use it.";
    };
    readonly PB_NOT_FOUND: {
        readonly status: 404;
        readonly text: "Nothing is served at this path: no built-in path and no hosted file.";
    };
    readonly PB_METHOD_NOT_ALLOWED: {
        readonly status: 405;
        readonly text: "The path exists but not for this method; the `Allow` header lists the methods it takes.";
    };
    readonly PB_UPGRADE_REQUIRED: {
        readonly status: 426;
        readonly text: "`/ws` is a WebSocket: connect with a WebSocket client, which sends the upgrade headers.";
    };
    readonly PB_BODY_TOO_LARGE: {
        readonly status: 413;
        readonly text: "The request body is over the limit (64 KiB). Send fewer or shorter values per request.";
    };
    readonly PB_BATCH_TOO_LARGE: {
        readonly status: 413;
        readonly text: "A WebSocket batch has more than 1,000 items; none of it was written. Send the items in several batches.";
    };
    readonly PB_UNSUPPORTED_MEDIA_TYPE: {
        readonly status: 415;
        readonly text: "The body type is not accepted: send `application/x-www-form-urlencoded` or `application/json`.";
    };
    readonly PB_INTERNAL: {
        readonly status: 500;
        readonly text: "The hub failed while answering; the hub log has the details. Please report it.";
    };
    readonly PB_BAD_KEY: {
        readonly status: 400;
        readonly text: "A key combination names an unknown key or modifier. Write modifiers (ctrl, shift, alt, meta) and one key, joined by -.";
    };
    readonly PB_FLOW_FILE_READ: {
        readonly status: 400;
        readonly text: "The flow file cannot be read or is not valid JSON5; the message gives the line and column.";
    };
    readonly PB_FLOW_FILE_INVALID: {
        readonly status: 400;
        readonly text: "The flow file has mistakes; each one is listed with its JSON path and what was expected.";
    };
    readonly PB_FLOW_INVALID: {
        readonly status: 422;
        readonly text: "The flow sent to `PUT /flow` has mistakes, or its reload was refused: nothing was written. The answer lists each as `{ path, message }`.";
    };
    readonly PB_FLOW_CHANGED: {
        readonly status: 412;
        readonly text: "The flow file changed since it was read (another editor, a `git pull`): nothing was written. Read it again (`GET /flow`), and save on top of that.";
    };
    readonly PB_RESUME_REFUSED: {
        readonly status: 409;
        readonly text: "A WebSocket upgrade brought a resume token given to another login, or to other filters or options (R-W3): come back with the same ones, or open a new stream with `?resume=1`.";
    };
    readonly PB_IF_MATCH_REQUIRED: {
        readonly status: 428;
        readonly text: "`PUT /flow` needs `If-Match` with the `ETag` of the text it changes, so that nobody saves over an edit they have not seen.";
    };
    readonly PB_FLOW_READ_ONLY: {
        readonly status: 409;
        readonly text: "The hub runs a flow file it may not write: one inside an installed package (the demo), or a file or folder without write permission. Copy it to a folder of your own and run that.";
    };
    readonly PB_CREDENTIALS_REQUIRED: {
        readonly status: 403;
        readonly text: "The flow editor needs credentials: on a rest-api without any, everyone who reaches the port would change the flow. Give the rest-api a `token` (or `tokens` with `admin: true`) in the flow file and sign in.";
    };
    readonly PB_FLOW_PROTECTED: {
        readonly status: 403;
        readonly text: "The edit changes what names code, a file, a folder or a device on the hub's machine (code flows, plugins, file names outside `outputFolder`, certificates, serial ports, keystrokes, new `${…}` placeholders): over HTTP only on a hub started with --allow-machine-edits. Make the change in the file on the machine.";
    };
    readonly PB_PORT_UNAVAILABLE: {
        readonly status: 503;
        readonly text: "The connection cannot listen on its port: another process holds it, or `bindIp` is not an address of this machine.";
    };
    readonly PB_STARTING: {
        readonly status: 503;
        readonly text: "The hub is starting: its connections, code flows and rules are not all running yet, so a request now could be answered before the rules that follow it run. Try again in a moment (the answer has Retry-After), or wait until /healthz answers 200.";
    };
    readonly PB_TLS: {
        readonly status: 503;
        readonly text: "The rest-api cannot serve TLS: its `cert` or `key` file is missing or unreadable, the two do not match, or the key needs a passphrase that the variable named by `passphraseEnv` does not hold.";
    };
    readonly PB_DOCUMENT_ROOT: {
        readonly status: 503;
        readonly text: "The `documentRoot` folder is missing or not a folder. Create it or correct the setting.";
    };
    readonly PB_BAD_TEMPLATE: {
        readonly status: 503;
        readonly text: "The XML template is not well-formed; the message gives line and column.";
    };
    readonly PB_NO_DISPLAY: {
        readonly status: 503;
        readonly text: "No usable X display for global keys: set `DISPLAY`, allow input access, or use `whenNoDisplay: \"disable\"` on headless machines.";
    };
    readonly PB_CODE_FLOW: {
        readonly status: 503;
        readonly text: "A code flow failed to load (the message gives file, line and column when it does not compile), threw — at start, from a timer, or by a rejection nobody handled — or its stream errored; it is stopped and its parameters removed. The message names the file.";
    };
    readonly PB_FEEDBACK_LOOP: {
        readonly status: 508;
        readonly text: "Rules, code flows or logic functions kept re-entering their own chain in one turn; the loop was cut and reported with its addresses. Break the cycle in the rules, the flow or the inputs of the functions.";
    };
    readonly PB_RULE_FAILED: {
        readonly status: 500;
        readonly text: "A rule's pipe failed and the rule stopped; the message says why. The other rules run on.";
    };
    readonly PB_FILE_WRITE: {
        readonly status: 503;
        readonly text: "A file the connection writes cannot be written (missing folder, no permission, full disk); it is tried again every 2 seconds and on the next write, and the connection is ok once it is saved.";
    };
    readonly PB_STATE_UNAVAILABLE: {
        readonly status: 503;
        readonly text: "The state folder cannot be opened or written (missing permission, full disk). Values keep working in memory and are saved once it can be written again.";
    };
    readonly PB_STATE_LOCKED: {
        readonly status: 503;
        readonly text: "Another running hub holds the state folder (its lock file names the process): this hub keeps values in memory only. Stop the other hub or give this one its own folder with `--state`.";
    };
    readonly PB_BROKER_UNAVAILABLE: {
        readonly status: 503;
        readonly text: "The MQTT broker cannot be reached or refused the connection; the connection retries with backoff, and changes made meanwhile are sent when it is back (latest value per topic).";
    };
    readonly PB_OWNER_UNAVAILABLE: {
        readonly status: 503;
        readonly text: "The parameter belongs to a connection another hub runs, and that hub is away or did not answer the forwarded write in time. Try again once its connection is `ok`.";
    };
    readonly PB_NOT_ACTIVE: {
        readonly status: 503;
        readonly text: "This hub is a standby of a redundancy group, or the active hub that just lost its lease: only the active hub talks to devices, and `POST /failover` asks a standby to take over. Send the request to the active hub (its id is `<mqtt connection>/_hub/active`), or wait for the takeover.";
    };
    readonly PB_ALREADY_ACTIVE: {
        readonly status: 409;
        readonly text: "This hub is the active hub of its redundancy group already. To move the role, send `POST /failover` to a standby hub of the group.";
    };
    readonly PB_CONNECTION_OWNED: {
        readonly status: 409;
        readonly text: "Another hub on the same broker runs a connection with this id; the later hub fails its own. Give the connection another id, or run it on one hub.";
    };
    readonly PB_WAITING: {
        readonly status: 503;
        readonly text: "A rule or code flow names a parameter that does not exist yet; it starts by itself when the parameter appears (a device tree read, another hub joining). Check the address if it never does.";
    };
    readonly PB_DEVICE_UNAVAILABLE: {
        readonly status: 503;
        readonly text: "The device's link is down, so the write was not sent; the connection reconnects with backoff. Try again once it is `ok`.";
    };
    readonly PB_DEVICE_TIMEOUT: {
        readonly status: 504;
        readonly text: "The device did not confirm the write within the connection's `timeout` (default 2 s); it may or may not have taken it.";
    };
    readonly PB_BAD_ANSWER: {
        readonly status: 502;
        readonly text: "The device or service answered, but not as expected: an HTTP status of 400 or more, or an answer without the values to extract; the message says which. Check the request against what the device expects.";
    };
    readonly PB_SCENE_EMPTY: {
        readonly status: 409;
        readonly text: "The scene holds nothing yet, so there is nothing to recall. Set the members up and store the scene first.";
    };
    readonly PB_OVER_LIMIT: {
        readonly status: 503;
        readonly text: "A broker or a device sent more than its connection's bounds allow (an mqtt connection's `limits`; a device's frame size, frames a second or parameters made); what was over was dropped and counted. Find the sender, or raise the bound.";
    };
    readonly PB_PLUGIN_INCOMPATIBLE: {
        readonly status: 503;
        readonly text: "A package of the flow's `plugins` is written for a connection API (`patchbay.apiVersion` in its package.json) that this hub does not speak; the message names both. Install a version of the package written for this hub's API, or a hub that speaks the package's. Its connections fail; the others run.";
    };
    readonly PB_PLUGIN_LOAD: {
        readonly status: 503;
        readonly text: "A package of the flow's `plugins` cannot be used: it is not installed where the flow file's folder resolves it, its package.json declares no `patchbay` types, or a module of a type fails to load or does not export a connection type; the message names the package and why. Its connections fail; the others run.";
    };
    readonly PB_TYPE_TAKEN: {
        readonly status: 503;
        readonly text: "Two sources claim one connection type name: a package names a type built into patchbay, or one another package of the flow declares first; the message names both owners. The later package is refused (its connections fail; the others run): remove one of the two packages from `plugins`.";
    };
    readonly PB_PROCESS_ENDED: {
        readonly status: 503;
        readonly text: "The process of its own that the connection runs in (`isolate: \"process\"`) ended: an exception nobody handled, an exit, a signal (kill -9), a heap past `maxMemoryMb`, or no answer for `hangMs`; the message says which, and the hub log has the stack of an exception. Its parameters keep their last values, and a new process starts after 1 s (three times), then after 2, 4, 8 … up to 60 s.";
    };
    readonly PB_START_FAILED: {
        readonly status: 503;
        readonly text: "The connection failed to start for a reason of its own; the message says why. The other connections run on.";
    };
};
export type ErrorCode = keyof typeof errorTable;
export type ErrorStatus = (typeof errorTable)[ErrorCode]['status'];
/** The HTTP status an error with this code answers with. */
export declare function statusOf(code: ErrorCode): ErrorStatus;
/**
 * An error that reaches users: a stable code plus a message that says what went wrong. Told
 * by its code, not its class: a connection type of a package may bring its own copy of
 * `patchbay/connection`, whose HubError is another class with the same codes.
 */
export declare class HubError extends Error {
    readonly code: ErrorCode;
    static [Symbol.hasInstance](value: unknown): boolean;
    constructor(code: ErrorCode, message: string, options?: {
        readonly cause?: unknown;
    });
}
/** A failure as data: what parameters and loaders return instead of throwing. */
export type Result<T> = {
    readonly ok: true;
    readonly value: T;
} | {
    readonly ok: false;
    readonly error: HubError;
};
export declare const ok: <T>(value: T) => Result<T>;
export declare const fail: <T = never>(code: ErrorCode, message: string) => Result<T>;
/**
 * The one way anything thrown becomes text, for logs, statuses and answers. With `stack`
 * an Error gives its stack trace, for log lines where the place matters (a code flow's
 * own mistake).
 */
export declare function reasonOf(thrown: unknown, { stack }?: {
    stack?: boolean | undefined;
}): string;
/** Anything thrown as a HubError: its own code when it has one, `fallback` otherwise. */
export declare function asHubError(thrown: unknown, fallback: ErrorCode): HubError;
