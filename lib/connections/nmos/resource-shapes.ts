/**
 * The shapes of what an NMOS node says (R-NM1, R-NM2, R-NM3), as TypeBox schemas: the IS-04 v1.3
 * resources it serves and registers, and the IS-07 messages it sends. Written here, checked
 * against AMWA's own schemas by spec/connections/nmos/amwa-schemas.spec.ts; stricter than
 * AMWA's where this node always says more (no extra members), so a spec that validates a body
 * against them also catches a member that went missing.
 */
import { type Static, Type } from '@sinclair/typebox';

const uuidPattern = '^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$';
const Uuid = Type.String({ pattern: uuidPattern });
const Tai = Type.String({ pattern: '^[0-9]+:[0-9]+$' });
const strict = { additionalProperties: false } as const;

const core = {
  id: Uuid,
  version: Tai,
  label: Type.String(),
  description: Type.String(),
  tags: Type.Record(Type.String(), Type.Array(Type.String())),
};

export const NodeResource = Type.Object(
  {
    ...core,
    href: Type.String(),
    hostname: Type.Optional(Type.String()),
    api: Type.Object(
      {
        versions: Type.Array(Type.String({ pattern: '^v[0-9]+\\.[0-9]+$' })),
        endpoints: Type.Array(
          Type.Object({ host: Type.String(), port: Type.Integer({ minimum: 1, maximum: 65535 }), protocol: Type.Literal('http') }, strict),
        ),
      },
      strict,
    ),
    caps: Type.Object({}, strict),
    services: Type.Array(Type.Object({ href: Type.String(), type: Type.String() }, strict)),
    clocks: Type.Array(Type.Object({ name: Type.String({ pattern: '^clk[0-9]+$' }), ref_type: Type.Literal('internal') }, strict)),
    interfaces: Type.Array(
      Type.Object(
        {
          chassis_id: Type.Null(),
          port_id: Type.String({ pattern: '^([0-9a-f]{2}-){5}([0-9a-f]{2})$' }),
          name: Type.String(),
        },
        strict,
      ),
    ),
  },
  strict,
);
export type NodeResource = Static<typeof NodeResource>;

export const DeviceResource = Type.Object(
  {
    ...core,
    type: Type.Literal('urn:x-nmos:device:generic'),
    node_id: Uuid,
    senders: Type.Array(Uuid),
    receivers: Type.Array(Uuid),
    controls: Type.Array(Type.Object({ href: Type.String(), type: Type.String() }, strict)),
  },
  strict,
);
export type DeviceResource = Static<typeof DeviceResource>;

/** An IS-07 event source: a data source with an event type. */
export const SourceResource = Type.Object(
  {
    ...core,
    caps: Type.Object({}, strict),
    device_id: Uuid,
    parents: Type.Array(Uuid),
    clock_name: Type.Null(),
    format: Type.Literal('urn:x-nmos:format:data'),
    event_type: Type.String({ minLength: 1 }),
  },
  strict,
);
export type SourceResource = Static<typeof SourceResource>;

/** The JSON flow of an event source. */
export const FlowResource = Type.Object(
  {
    ...core,
    source_id: Uuid,
    device_id: Uuid,
    parents: Type.Array(Uuid),
    format: Type.Literal('urn:x-nmos:format:data'),
    media_type: Type.Literal('application/json'),
    event_type: Type.String({ minLength: 1 }),
  },
  strict,
);
export type FlowResource = Static<typeof FlowResource>;

/** A sender of an event flow over IS-07's WebSocket transport. */
export const SenderResource = Type.Object(
  {
    ...core,
    flow_id: Uuid,
    transport: Type.Literal('urn:x-nmos:transport:websocket'),
    device_id: Uuid,
    manifest_href: Type.Null(),
    interface_bindings: Type.Array(Type.String()),
    subscription: Type.Object({ receiver_id: Type.Union([Uuid, Type.Null()]), active: Type.Boolean() }, strict),
  },
  strict,
);
export type SenderResource = Static<typeof SenderResource>;

/** A receiver of events over the WebSocket transport (R-NM3). */
export const ReceiverResource = Type.Object(
  {
    ...core,
    device_id: Uuid,
    transport: Type.Literal('urn:x-nmos:transport:websocket'),
    interface_bindings: Type.Array(Type.String()),
    subscription: Type.Object({ sender_id: Type.Union([Uuid, Type.Null()]), active: Type.Boolean() }, strict),
    format: Type.Literal('urn:x-nmos:format:data'),
    caps: Type.Object({ media_types: Type.Array(Type.Literal('application/json')), event_types: Type.Array(Type.String()) }, strict),
  },
  strict,
);
export type ReceiverResource = Static<typeof ReceiverResource>;

/** An IS-07 `state` message: a source's value now (sent on subscription and on every change). */
export const StateMessage = Type.Object(
  {
    message_type: Type.Literal('state'),
    identity: Type.Object({ source_id: Uuid, flow_id: Uuid }, strict),
    event_type: Type.String({ minLength: 1 }),
    timing: Type.Object({ creation_timestamp: Tai }, strict),
    payload: Type.Object({ value: Type.Union([Type.Boolean(), Type.String(), Type.Number()]) }, strict),
  },
  strict,
);
export type StateMessage = Static<typeof StateMessage>;

/** A source's state as the Events API answers `/sources/{id}/state`: a state without the flow (IS-07's message types). */
export const SourceState = Type.Object(
  {
    ...StateMessage.properties,
    identity: Type.Object({ source_id: Uuid }, strict),
  },
  strict,
);
export type SourceState = Static<typeof SourceState>;

/** The answer to a client's `health` command. */
export const HealthMessage = Type.Object(
  {
    message_type: Type.Literal('health'),
    timing: Type.Object({ creation_timestamp: Tai, origin_timestamp: Tai }, strict),
  },
  strict,
);
export type HealthMessage = Static<typeof HealthMessage>;

/** What the node registers, each kind by the name the Registration API gives it, in the order it registers them. */
export const resourceKinds = ['node', 'device', 'source', 'flow', 'sender', 'receiver'] as const;
export type ResourceKind = (typeof resourceKinds)[number];

export const shapeOf = {
  node: NodeResource,
  device: DeviceResource,
  source: SourceResource,
  flow: FlowResource,
  sender: SenderResource,
  receiver: ReceiverResource,
} as const satisfies Record<ResourceKind, unknown>;
