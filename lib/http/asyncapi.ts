/**
 * `GET /asyncapi.json` (R-DS1): the AsyncAPI 3.0 description of `/ws`, made from the
 * message shapes of `core/api-shapes.ts` and the upgrade's options (`ws/upgrade-query.ts`):
 * what the hub sends (values, batches, the resume greeting and marks, events, refusals, log
 * lines) and what it receives (writes, one or a batch). It describes the hub: `send` is what
 * the hub sends its clients.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { ChangeMessage, HubEvent, LogLine, RefusalMessage, ResumeGreeting, SnapshotEnd, ValueSchema } from '../core/api-shapes.ts';
import { MAX_BATCH_ITEMS } from './ws/messages.ts';
import { upgradeOptions } from './ws/upgrade-query.ts';

type Json = Record<string, unknown>;

const json = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;

/** A write: `{"p": "<address>", "v": <any JSON>}`, converted as the parameter's type says (R-C). */
const Write = Type.Object({
  p: Type.String({ description: 'The address.' }),
  v: Type.Unknown({ description: "Any JSON value, converted to the parameter's type; any value fires a trigger." }),
});

interface MessageDescription {
  readonly title: string;
  readonly summary: string;
  readonly payload: TSchema;
}

const ref = (schema: string) => ({ $ref: `#/components/schemas/${schema}` });

const schemas: Record<string, TSchema> = {
  Change: ChangeMessage,
  ResumeGreeting,
  SnapshotEnd,
  HubEvent,
  Refusal: RefusalMessage,
  LogLine,
  Write,
  Value: ValueSchema,
};

const messages: Record<string, MessageDescription & { readonly payloadRef: Json }> = {
  change: {
    title: 'A value',
    summary:
      'A value of the snapshot, or a change as it happens; a trigger fire is `"v": "true"`. With `batch=1` these come as arrays (`changes`).',
    payload: ChangeMessage,
    payloadRef: ref('Change'),
  },
  changes: {
    title: 'A batch of values',
    summary: "With `batch=1` (R-W1): the snapshot as arrays, then each event-loop turn's changes as one more, in order.",
    payload: Type.Array(ChangeMessage),
    payloadRef: { type: 'array', items: ref('Change') },
  },
  resumeGreeting: {
    title: 'Resume greeting',
    summary:
      'With `resume` (R-W3): the first message. The token to come back with (`?resume=<token>&seq=<n>`), and where the stream stands; on coming back, where it resumes from.',
    payload: ResumeGreeting,
    payloadRef: ref('ResumeGreeting'),
  },
  snapshotEnd: {
    title: "A snapshot's end",
    summary: "With `resume`: every value as of `seq` was sent; from here a client may come back. The snapshot's own values carry no `seq`.",
    payload: SnapshotEnd,
    payloadRef: ref('SnapshotEnd'),
  },
  event: {
    title: 'An event',
    summary:
      '`parameters` and `connections` with `events=1` (R-U1): list them again. `resync` with `resume` (R-W3): what the client missed is gone; a snapshot follows.',
    payload: HubEvent,
    payloadRef: ref('HubEvent'),
  },
  refusal: {
    title: 'A refused write',
    summary:
      "An item of the client's message that was not written, in the order of the items (R-H3); at most 32 a message, then one counts the rest.",
    payload: RefusalMessage,
    payloadRef: ref('Refusal'),
  },
  logLevel: {
    title: "The hub's log level",
    summary: 'With `log=<level>`: the first message of the log, the level the hub logs at.',
    payload: Type.Object({ logLevel: Type.String() }),
    payloadRef: { type: 'object', properties: { logLevel: { type: 'string' } }, required: ['logLevel'] },
  },
  log: {
    title: 'A log line',
    summary: "With `log=<level>`: one of the hub's log lines at that level or above, the last 1,000 first.",
    payload: Type.Object({ log: LogLine }),
    payloadRef: { type: 'object', properties: { log: ref('LogLine') }, required: ['log'] },
  },
  write: {
    title: 'A write',
    summary: 'A value for a parameter, converted to its type (R-H3); it comes back as a change, or as a refusal.',
    payload: Write,
    payloadRef: ref('Write'),
  },
  writes: {
    title: 'A batch of writes',
    summary: `Up to ${MAX_BATCH_ITEMS} writes, applied in order; the good ones are written, each bad one refused.`,
    payload: Type.Array(Write, { maxItems: MAX_BATCH_ITEMS }),
    payloadRef: { type: 'array', items: ref('Write'), maxItems: MAX_BATCH_ITEMS },
  },
};

const sent = ['change', 'changes', 'resumeGreeting', 'snapshotEnd', 'event', 'refusal', 'logLevel', 'log'];
const received = ['write', 'writes'];
const channelMessage = (name: string) => ({ $ref: `#/channels/values/messages/${name}` });

/** The document, for the hub of `version` whose session cookie is `cookie`. */
export function asyncApiDocument({ version, cookie }: { readonly version: string; readonly cookie: string }): Json {
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'patchbay /ws',
      version,
      description:
        "The WebSocket of a patchbay rest-api connection (R-H3): a snapshot of every value the client may read and its filters pass, then every change in order; the client writes `{p, v}`. Options on the upgrade's query. The HTTP API is in `/openapi.json`; reference: docs/reference/http.md.",
    },
    servers: {
      hub: {
        host: 'localhost:17011',
        protocol: 'ws',
        description: "The rest-api connection's address and port (`wss` with `cert` and `key`).",
        // Any one of them; none on a hub without credentials.
        security: ['basic', 'bearer', 'accessToken', 'session'].map((scheme) => ({ $ref: `#/components/securitySchemes/${scheme}` })),
      },
    },
    channels: {
      values: {
        address: '/ws',
        title: 'The value stream',
        description:
          'One per client. With `resume=1` it can be resumed after a cut: the client keeps the last `seq` it received (the greeting aside) and comes back with `?resume=<token>&seq=<n>` and the same credentials, filters and options to exactly what it missed (R-W3).',
        messages: Object.fromEntries(
          Object.entries(messages).map(([name, message]) => [
            name,
            { name, title: message.title, summary: message.summary, contentType: 'application/json', payload: message.payloadRef },
          ]),
        ),
        bindings: { ws: { method: 'GET', query: json(upgradeOptions), bindingVersion: '0.1.0' } },
      },
    },
    operations: {
      sendValues: {
        action: 'send',
        title: 'The hub sends values and notices',
        channel: { $ref: '#/channels/values' },
        messages: sent.map(channelMessage),
      },
      receiveWrites: {
        action: 'receive',
        title: 'The hub takes writes',
        channel: { $ref: '#/channels/values' },
        messages: received.map(channelMessage),
      },
    },
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, json(schema)])),
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'The rest-api `username` and `password`.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The rest-api `token` or a scoped token, in `Authorization`.' },
        accessToken: { type: 'httpApiKey', in: 'query', name: 'access_token', description: 'The token in the upgrade address.' },
        session: {
          type: 'httpApiKey',
          in: 'cookie',
          name: cookie,
          description: 'The session of a browser signed in with `?access_token=`.',
        },
      },
    },
  };
}
