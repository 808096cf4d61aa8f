/**
 * The shapes of what crosses the wall between the hub and its clients: the answers of
 * `GET /connections`, `/parameters`, `/problems`, `/rules` and `POST /failover`, and the
 * messages of the WebSocket (R-H3, R-H7, R-U1, R-B5). One source for the hub, which makes
 * them (lib/connections, lib/hub, lib/http), and for the operator console, which reads them:
 * console/*.js names these types in JSDoc `@import`s (types only: nothing of this file runs in
 * the browser), so `tsc -p tsconfig.console.json` checks the console against them. That check
 * reads this file, and what it imports, with the browser's types alone: it imports only core
 * modules that need nothing of Node.
 */
import type { ErrorCode } from './errors.ts';
import type { Access, Value, ValueType } from './value.ts';

export type { Access, ErrorCode, Value, ValueType };

/** A connection's statuses (R-L2): `status` of `GET /connections`, and the `status` label of `patchbay_connection_status`. */
export const connectionStatuses = ['starting', 'connecting', 'ok', 'degraded', 'failed', 'disabled'] as const;
export type ConnectionStatus = (typeof connectionStatuses)[number];

/** Where a connection stands, as it reports it. */
export interface StatusReport {
  readonly status: ConnectionStatus;
  /** Why the connection is degraded, failed or disabled; empty otherwise. */
  readonly reason: string;
  /** The stable code of a failure, when it has one. */
  readonly code?: ErrorCode;
}

/** A connection as dashboards and tools see it: an entry of `GET /connections`. */
export interface ConnectionInfo extends StatusReport {
  readonly id: string;
  readonly type: string;
  /** The package its type comes from (R-PK1); absent for a built-in type. */
  readonly package?: { readonly name: string; readonly version: string };
  readonly description: string;
  readonly location: string;
  readonly group: string;
  /** The hub that runs it, for a connection shown from another hub (R-M5); absent for this hub's own. */
  readonly owner?: string;
  /** Facts the connection reports about itself while running, such as the port it listens on. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * A hub's place in its redundancy group (R-B1), as its mqtt connection reports it in
 * `details.redundancy`: `active` is the active hub's id (null while none is), `claiming` the
 * epoch this hub is taking over as, `waiting` set while a manual group has no active hub,
 * `voters` (a group with voters) whether each answers this hub and grants it the lease.
 */
export interface RedundancyDetails {
  readonly group: string;
  readonly role: 'active' | 'standby';
  readonly epoch: number;
  readonly active: string | null;
  readonly failover: 'auto' | 'manual';
  readonly claiming?: number;
  readonly waiting?: string;
  readonly voters?: Readonly<Record<string, { readonly reached: boolean; readonly granted: boolean }>>;
}

/** An entry of `GET /parameters` (R-H7): the value when known, who changed it last and when (R-O2). */
export interface ParameterListing {
  /** The parameter's address, `<connection>/<parameter id>`. */
  readonly p: string;
  readonly type: ValueType;
  /** What this login may do with it: a parameter it may not write is listed read-only. */
  readonly access: Access;
  readonly v?: Value;
  readonly by?: string;
  /** When it changed last, in ISO 8601. */
  readonly at?: string;
}

/** Something that keeps a connection, a code flow or a rule from working as written: an entry of `GET /problems`. */
export interface Problem {
  readonly source: 'connection' | 'code-flow' | 'rule' | 'state';
  /** The connection id, the code flow's id, the rule's path and description, or the state folder. */
  readonly id: string;
  readonly code: ErrorCode;
  readonly message: string;
}

/** A running rule as `GET /rules` lists it: where it stands, what it connects, its steps. */
export interface RuleListing {
  /** `rules[1].rules[0]`: where the rule stands in the flow file. */
  readonly path: string;
  /** The names of the folders it stands in, outermost first (R-R2): `["studio A", "mics"]`; empty at the top. */
  readonly folders: readonly string[];
  /** Its path, and its description when it has one: how problems name it. */
  readonly name: string;
  readonly source: string;
  readonly destinations: readonly string[];
  /** Its pipe as written: `[{ scale: [0, 1, 0, 100] }, …]`. */
  readonly pipe: readonly Readonly<Record<string, unknown>>[];
  /** Where it stands (R-G2): running, waiting for a parameter it names, failed, or idle (a disabled connection). */
  readonly status: 'running' | 'waiting' | 'failed' | 'idle';
  /** Why it is waiting or failed: PB_WAITING, or the code of what keeps it from running. */
  readonly code?: ErrorCode;
  readonly reason?: string;
}

/** What each listing of the public API answers, by its path. */
export interface Answers {
  readonly '/connections': readonly ConnectionInfo[];
  readonly '/parameters': readonly ParameterListing[];
  readonly '/problems': readonly Problem[];
  readonly '/rules': readonly RuleListing[];
}

/** A coded error as a JSON client gets it (`Accept: application/json`). */
export interface ErrorAnswer {
  readonly ok: false;
  readonly error: string;
  readonly code: ErrorCode;
}

/** The answer of `POST /failover` (R-B5): the takeover asked for, in words, or why not. */
export type FailoverAnswer = { readonly ok: true; readonly message: string } | ErrorAnswer;

/**
 * A change on the value socket (R-H3): the value in wire form, always a string; with
 * `?origins=1` who made it and when, as `GET /parameters` lists them; with `?resume=1`
 * its place in the stream (R-W3), except in a snapshot.
 */
export interface ChangeMessage {
  readonly p: string;
  readonly v: string;
  readonly by?: string;
  readonly at?: string;
  readonly seq?: number;
}

/**
 * `?resume=1` (R-W3): the first message, the token to come back with and the `seq` the
 * stream stands at; and, alone, the end of a snapshot's values: the client has every value as
 * of that `seq` and may resume from it.
 */
export type ResumeMessage = { readonly resume: string; readonly seq: number } | { readonly seq: number };

/** The answer to an item of a client's message that was not written: its address (null when it had none), why, and the code. */
export interface RefusalMessage {
  readonly p: string | null;
  readonly error: string;
  readonly code: ErrorCode;
}

/**
 * Sent only to `?events=1` clients (R-U1): the parameters, or the connections, changed; list them again.
 * `resync`, only to `?resume` clients (R-W3): what they missed is no longer kept; a snapshot follows.
 */
export interface HubEvent {
  readonly event: 'parameters' | 'connections' | 'resync';
}

/** An item of a message of the value socket: a message holds one, or (`?batch=1`) an array of them. */
export type SocketItem = ChangeMessage | RefusalMessage | HubEvent | ResumeMessage;

/** One line of the hub's log, as the console's live log shows it (R-U1). */
export interface LogLine {
  readonly level: string;
  /** Milliseconds since the epoch. */
  readonly time: number;
  /** The connection that logged it, for a connection's line. */
  readonly connection?: string;
  readonly msg: string;
}

/** A message of a `?log=<level>` socket: first the level the hub logs at, then its lines, the last ones kept first. */
export type LogMessage = { readonly logLevel: string } | { readonly log: LogLine };
