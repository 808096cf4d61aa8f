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
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { type ErrorCode, errorTable } from './errors.ts';
import { ParameterMeta } from './parameter-meta.ts';
import { Access, type Value, ValueType } from './value.ts';

export type { Access, ErrorCode, Value, ValueType };

/**
 * Each shape is a TypeBox schema and the type made from it: the schema is what
 * `/openapi.json` and `/asyncapi.json` describe (made in lib/http), the type what the
 * hub and the console are checked against. Read-only throughout, arrays too: what a client
 * is handed is not changed.
 */
export type Shape<T extends TSchema> = DeepReadonly<Static<T>>;
type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** A string that is one of `values`, typed as their union. */
const oneOf = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

export const ErrorCodeSchema = oneOf(Object.keys(errorTable) as ErrorCode[], 'A stable error code: docs/reference/errors.md.');
/** The code of an answer to a write: the hub's, or one a connection type declared for its own refusals (R-PK8). */
export const AnswerCodeSchema = Type.Union([
  ErrorCodeSchema,
  Type.String({
    pattern: '^(?!PB_)[A-Z][A-Z0-9]*_[A-Z0-9_]+$',
    description: "A connection type's own code, `<TYPE>_<NAME>`: the type's reference page lists it with its status.",
  }),
]);
export const ValueTypeSchema = oneOf(Object.values(ValueType), 'S string, B boolean, I integer, F float, T trigger (R-P2).');
export const AccessSchema = oneOf(Object.values(Access), 'Who may do what with the parameter (R-P3).');
export const ValueSchema = Type.Unsafe<Value>({
  type: ['string', 'number', 'boolean'],
  description: 'A value in its type: text, a number, true or false.',
});

/** A connection's statuses (R-L2): `status` of `GET /connections`, and the `status` label of `patchbay_connection_status`. */
export const connectionStatuses = ['starting', 'connecting', 'ok', 'degraded', 'failed', 'disabled'] as const;
export type ConnectionStatus = (typeof connectionStatuses)[number];

/** Where a connection stands, as it reports it. */
export const StatusReport = Type.Object({
  status: oneOf(connectionStatuses),
  reason: Type.String({ description: 'Why the connection is degraded, failed or disabled; empty otherwise.' }),
  code: Type.Optional(ErrorCodeSchema),
});
export type StatusReport = Shape<typeof StatusReport>;

/** A connection as dashboards and tools see it: an entry of `GET /connections`. */
export const ConnectionInfo = Type.Composite(
  [
    StatusReport,
    Type.Object({
      id: Type.String(),
      type: Type.String(),
      package: Type.Optional(
        Type.Object(
          {
            name: Type.String(),
            version: Type.String({ description: 'The version the hub loaded, which its connections run.' }),
            installed: Type.Optional(
              Type.String({
                description:
                  'The version installed on disk since, when the package was installed again while the hub runs (R-PK10): a reload loads it.',
              }),
            ),
          },
          { description: 'The package its type comes from (R-PK1); absent for a built-in type.' },
        ),
      ),
      description: Type.String(),
      location: Type.String(),
      group: Type.String(),
      owner: Type.Optional(
        Type.String({ description: "The hub that runs it, for a connection shown from another hub (R-M5); absent for this hub's own." }),
      ),
      details: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), {
          description: 'Facts the connection reports about itself while running, such as the port it listens on.',
        }),
      ),
    }),
  ],
  { description: 'A connection as dashboards and tools see it: an entry of `GET /connections`.' },
);
export type ConnectionInfo = Shape<typeof ConnectionInfo>;

/** A group's etcd election as this hub sees it (R-EG4). */
export const CoordinatorDetails = Type.Object({
  etcd: Type.Array(Type.String()),
  /** The member this hub's calls go to now. */
  endpoint: Type.String(),
  /** False while this hub's latest round did not reach etcd. */
  reached: Type.Boolean(),
  /** The hubs campaigning, the active one first. */
  members: Type.Array(Type.String()),
  /** The leader's election revision: the fencing token. */
  revision: Type.Number(),
  leaseMs: Type.Number(),
  /** How long this hub's own lease is still proven (0 on a hub that holds none). */
  leaseLeftMs: Type.Number(),
  /** Times this hub won the election and took over, and keep-alives etcd answered it, since it started. */
  elections: Type.Number(),
  renewals: Type.Number(),
});
export type CoordinatorDetails = Shape<typeof CoordinatorDetails>;

/**
 * A hub's place in its redundancy group (R-B1), as its mqtt connection reports it in
 * `details.redundancy`: `active` is the active hub's id (null while none is), `claiming` the
 * epoch this hub is taking over as, `waiting` set while a manual group has no active hub,
 * `voters` (a group with voters) whether each answers this hub and grants it the lease,
 * `coordinator` (a group on etcd, R-EG4) its election.
 */
export const RedundancyDetails = Type.Object({
  group: Type.String(),
  role: oneOf(['active', 'standby'] as const),
  epoch: Type.Number(),
  active: Type.Union([Type.String(), Type.Null()]),
  failover: oneOf(['auto', 'manual'] as const),
  claiming: Type.Optional(Type.Number()),
  waiting: Type.Optional(Type.String()),
  voters: Type.Optional(Type.Record(Type.String(), Type.Object({ reached: Type.Boolean(), granted: Type.Boolean() }))),
  coordinator: Type.Optional(CoordinatorDetails),
});
export type RedundancyDetails = Shape<typeof RedundancyDetails>;

/**
 * A hub's site as one of its mqtt connections with `hub` sees it (R-M5, R-EG4): the other hubs
 * on the broker, the fencing tokens refused, and its redundancy group with its coordinator.
 */
export const SiteListing = Type.Object(
  {
    connection: Type.String({ description: 'The mqtt connection with `hub`.' }),
    hubs: Type.Record(Type.String(), Type.Object({ online: Type.Boolean(), connections: Type.Array(Type.String()) }), {
      description: 'The other hubs on its broker, by id: here or away, and the connections each shares.',
    }),
    refusedTokens: Type.Number({
      description: "Values and forwarded writes refused for a fencing token lower than the latest of the sender's group (R-EG2).",
    }),
    redundancy: Type.Optional(RedundancyDetails),
  },
  { description: "A hub's site: the other hubs, and its group with the group's coordinator." },
);
export type SiteListing = Shape<typeof SiteListing>;

/** An entry of `GET /parameters` (R-H7): the value when known, who changed it last and when (R-O2). */
export const ParameterListing = Type.Object(
  {
    p: Type.String({ description: "The parameter's address, `<connection>/<parameter id>`." }),
    type: ValueTypeSchema,
    access: oneOf(Object.values(Access), 'What this login may do with it: a parameter it may not write is listed read-only.'),
    v: Type.Optional(ValueSchema),
    by: Type.Optional(Type.String({ description: 'Who changed it last (R-O2).' })),
    at: Type.Optional(Type.String({ format: 'date-time', description: 'When it changed last, in ISO 8601.' })),
    meta: Type.Optional(ParameterMeta),
  },
  { description: 'A parameter: the value when known, who changed it last and when, what it says of itself when asked.' },
);
export type ParameterListing = Shape<typeof ParameterListing>;

/** Something that keeps a connection, a code flow or a rule from working as written: an entry of `GET /problems`. */
export const Problem = Type.Object(
  {
    source: oneOf(['connection', 'code-flow', 'rule', 'state', 'package'] as const),
    id: Type.String({
      description: "The connection id, the code flow's id, the rule's path and description, the state folder, or the package's name.",
    }),
    part: Type.Optional(
      Type.String({
        description:
          "The part of the connection that has it, when the connection itself runs: a surface's key (`key deck-1/3`), a scene (`scene opening`).",
      }),
    ),
    code: ErrorCodeSchema,
    message: Type.String(),
  },
  { description: 'Something that keeps a connection, a code flow or a rule from working as written.' },
);
export type Problem = Shape<typeof Problem>;

/** A running rule as `GET /rules` lists it: where it stands, what it connects, its steps. */
export const RuleListing = Type.Object(
  {
    path: Type.String({ description: '`rules[1].rules[0]`: where the rule stands in the flow file.' }),
    folders: Type.Array(Type.String(), {
      description: 'The names of the folders it stands in, outermost first (R-R2): `["studio A", "mics"]`; empty at the top.',
    }),
    name: Type.String({ description: 'Its path, and its description when it has one: how problems name it.' }),
    source: Type.String(),
    destinations: Type.Array(Type.String()),
    pipe: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'Its pipe as written: `[{ scale: [0, 1, 0, 100] }, …]`.' }),
    from: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description:
          'A rule that holds state (R-RS1): its sources by the names its expression reads (`value` for one); `source` is the first.',
      }),
    ),
    expr: Type.Optional(Type.String({ description: 'Its expression (R-RS2), as written.' })),
    on: Type.Optional(oneOf(['state', 'change'] as const, 'When a rule that holds state writes (R-RS3).')),
    combine: Type.Optional(
      oneOf(['any', 'all', 'priority', 'last'] as const, 'How it joins the other rules that write its destination the same way (R-RS4).'),
    ),
    status: oneOf(
      ['running', 'waiting', 'failed', 'idle'] as const,
      'Where it stands (R-G2): running, waiting for a parameter it names, failed, or idle (a disabled connection).',
    ),
    code: Type.Optional(ErrorCodeSchema),
    reason: Type.Optional(Type.String({ description: 'Why it is waiting or failed.' })),
    conflicts: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "What `validate` warns of it, with the setting's path (R-RS4): another rule or a key's press writes a parameter it holds, so the last write would win.",
      }),
    ),
  },
  { description: 'A running rule: where it stands, what it connects, its steps.' },
);
export type RuleListing = Shape<typeof RuleListing>;

/** What each listing of the public API answers, by its path. */
export interface Answers {
  readonly '/connections': readonly ConnectionInfo[];
  readonly '/parameters': readonly ParameterListing[];
  readonly '/problems': readonly Problem[];
  readonly '/rules': readonly RuleListing[];
}

/** A coded error as a JSON client gets it (`Accept: application/json`). */
export const ErrorAnswer = Type.Object(
  { ok: Type.Literal(false), error: Type.String({ description: 'What went wrong, for a person.' }), code: AnswerCodeSchema },
  { description: 'A coded error, as a JSON client gets it (`Accept: application/json`).' },
);
export type ErrorAnswer = Shape<typeof ErrorAnswer>;

/** `{"ok": true}`: what a JSON client gets for a write that was taken. */
export const Taken = Type.Object({ ok: Type.Literal(true) }, { description: 'The write was taken.' });

/** The answer of `POST /failover` (R-B5): the takeover asked for, in words, or why not. */
export const FailoverAnswer = Type.Union([Type.Object({ ok: Type.Literal(true), message: Type.String() }), ErrorAnswer]);
export type FailoverAnswer = Shape<typeof FailoverAnswer>;

/**
 * A change on the value socket (R-H3): the value in wire form, always a string; with
 * `?origins=1` who made it and when, as `GET /parameters` lists them; with `?resume=1`
 * its place in the stream (R-W3), except in a snapshot.
 */
export const ChangeMessage = Type.Object(
  {
    p: Type.String({ description: 'The address.' }),
    v: Type.String({ description: 'The value in wire form (a trigger fire: "true").' }),
    by: Type.Optional(Type.String({ description: 'With `origins=1`: who changed it (R-O2).' })),
    at: Type.Optional(Type.String({ format: 'date-time', description: 'With `origins=1`: when.' })),
    seq: Type.Optional(
      Type.Integer({ minimum: 0, description: "With `resume=1`: its place in the stream (R-W3); none in a snapshot's values." }),
    ),
    // With `meta=1`, in the snapshot: what its parameter says of itself (R-PK6).
    meta: Type.Optional(ParameterMeta),
  },
  { description: 'A value, or a trigger fire.' },
);
export type ChangeMessage = Shape<typeof ChangeMessage>;

/**
 * `?resume=1` (R-W3): the first message, the token to come back with and the `seq` the
 * stream stands at; and, alone, the end of a snapshot's values: the client has every value as
 * of that `seq` and may resume from it.
 */
export const ResumeGreeting = Type.Object(
  {
    resume: Type.String({ description: 'The token to come back with: `?resume=<token>&seq=<n>`.' }),
    seq: Type.Integer({ minimum: 0, description: 'Where the stream stands (on coming back: where it resumes from).' }),
  },
  { additionalProperties: false, description: 'The first message of a `resume=1` stream (R-W3).' },
);
export const SnapshotEnd = Type.Object(
  { seq: Type.Integer({ minimum: 0 }) },
  {
    // `seq` alone: a change (which carries one too) or a greeting must not read as this.
    additionalProperties: false,
    description: "The end of a snapshot's values: the client has every value as of `seq` and may come back from it (R-W3).",
  },
);
export const ResumeMessage = Type.Union([ResumeGreeting, SnapshotEnd]);
export type ResumeMessage = Shape<typeof ResumeMessage>;

/** The answer to an item of a client's message that was not written: its address (null when it had none), why, and the code. */
export const RefusalMessage = Type.Object(
  { p: Type.Union([Type.String(), Type.Null()]), error: Type.String(), code: AnswerCodeSchema },
  { description: "The answer to an item of the client's message that was not written, in the order of the items (R-H3)." },
);
export type RefusalMessage = Shape<typeof RefusalMessage>;

/**
 * Sent only to `?events=1` clients (R-U1): the parameters, or the connections, changed; list them again.
 * `resync`, only to `?resume` clients (R-W3): what they missed is no longer kept; a snapshot follows.
 */
export const HubEvent = Type.Object(
  { event: oneOf(['parameters', 'connections', 'resync'] as const) },
  {
    description:
      '`parameters` and `connections` (only with `events=1`): list them again. `resync` (only with `resume`): what the client missed is no longer kept; a snapshot follows.',
  },
);
export type HubEvent = Shape<typeof HubEvent>;

/** An item of a message of the value socket: a message holds one, or (`?batch=1`) an array of them. */
export type SocketItem = ChangeMessage | RefusalMessage | HubEvent | ResumeMessage;

/** One line of the hub's log, as the console's live log shows it (R-U1). */
export const LogLine = Type.Object({
  level: Type.String(),
  time: Type.Number({ description: 'Milliseconds since the epoch.' }),
  connection: Type.Optional(Type.String({ description: "The connection that logged it, for a connection's line." })),
  msg: Type.String(),
});
export type LogLine = Shape<typeof LogLine>;

/** A message of a `?log=<level>` socket: first the level the hub logs at, then its lines, the last ones kept first. */
export const LogMessage = Type.Union([
  Type.Object({ logLevel: Type.String() }, { description: 'The level the hub logs at: the first message of a `log=` stream.' }),
  Type.Object({ log: LogLine }, { description: 'A line of the log.' }),
]);
export type LogMessage = Shape<typeof LogMessage>;
