/**
 * The shapes of IS-05 v1.1's Connection API as the node serves it (R-NM3), as TypeBox
 * schemas: what a controller may PATCH to a sender's or receiver's `staged`, and what
 * `staged` and `active` answer. Every sender and receiver of the node carries IS-07 events
 * over the WebSocket transport, so a leg's transport parameters are the WebSocket ones
 * (`connection_uri`, `connection_authorization`) and IS-07's two `ext_` ones. Checked against
 * AMWA's own schemas by spec/connections/nmos/amwa-schemas.spec.ts.
 */
import { type Static, Type } from '@sinclair/typebox';

const uuidPattern = '^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$';
const Tai = Type.String({ pattern: '^[0-9]+:[0-9]+$' });
const strict = { additionalProperties: false } as const;

export const activationModes = ['activate_immediate', 'activate_scheduled_absolute', 'activate_scheduled_relative'] as const;
export type ActivationMode = (typeof activationModes)[number];

/** What a PATCH asks of the activation: a mode (null cancels one scheduled) and, when scheduled, a time. */
export const ActivationRequest = Type.Object(
  {
    mode: Type.Union([...activationModes.map((mode) => Type.Literal(mode)), Type.Null()]),
    requested_time: Type.Optional(Type.Union([Tai, Type.Null()])),
  },
  strict,
);
export type ActivationRequest = Static<typeof ActivationRequest>;

/** The activation as `staged` and `active` answer it. */
export const Activation = Type.Object(
  {
    mode: Type.Union([...activationModes.map((mode) => Type.Literal(mode)), Type.Null()]),
    requested_time: Type.Union([Tai, Type.Null()]),
    activation_time: Type.Union([Tai, Type.Null()]),
  },
  strict,
);
export type Activation = Static<typeof Activation>;

/** A transport parameter's value: IS-05's core ones are a URI, a boolean or `auto`; IS-07's `ext_` ones text or null. */
export type ParamValue = string | boolean | number | null;
/** One leg's transport parameters (the node's endpoints have one leg: no SMPTE 2022-7 over WebSocket). */
export type Leg = Readonly<Record<string, ParamValue>>;

/** A PATCH's leg: any parameter, checked against the endpoint's constraints (connection-endpoint.ts). */
const PatchLeg = Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean(), Type.Number(), Type.Null()]));

const peerId = Type.Union([Type.String({ pattern: uuidPattern }), Type.Null()]);

/** A PATCH to a sender's `staged` (AMWA's sender-stage-schema): every member optional. */
export const SenderPatch = Type.Object(
  {
    receiver_id: Type.Optional(peerId),
    master_enable: Type.Optional(Type.Boolean()),
    activation: Type.Optional(ActivationRequest),
    transport_params: Type.Optional(Type.Array(PatchLeg)),
  },
  strict,
);

/** A PATCH to a receiver's `staged` (AMWA's receiver-stage-schema): every member optional. */
export const ReceiverPatch = Type.Object(
  {
    sender_id: Type.Optional(peerId),
    master_enable: Type.Optional(Type.Boolean()),
    activation: Type.Optional(ActivationRequest),
    transport_file: Type.Optional(
      Type.Object({ data: Type.Union([Type.String(), Type.Null()]), type: Type.Union([Type.String(), Type.Null()]) }, strict),
    ),
    transport_params: Type.Optional(Type.Array(PatchLeg)),
  },
  strict,
);
export type StagePatch = Static<typeof SenderPatch> & Static<typeof ReceiverPatch>;

/** The WebSocket leg the node's senders and receivers answer with (a receiver's values are null until a controller stages them). */
export const WebSocketLeg = Type.Object(
  {
    connection_uri: Type.Union([Type.String({ pattern: '^(wss?://.*|auto)$' }), Type.Null()]),
    connection_authorization: Type.Union([Type.Boolean(), Type.Literal('auto')]),
    ext_is_07_source_id: Type.Union([Type.String(), Type.Null()]),
    ext_is_07_rest_api_url: Type.Union([Type.String(), Type.Null()]),
  },
  strict,
);

/** A sender's `staged` or `active` (AMWA's sender-response-schema). */
export const SenderEndpoint = Type.Object(
  { receiver_id: peerId, master_enable: Type.Boolean(), activation: Activation, transport_params: Type.Array(WebSocketLeg) },
  strict,
);

/** A receiver's `staged` or `active` (AMWA's receiver-response-schema). */
export const ReceiverEndpoint = Type.Object(
  {
    sender_id: peerId,
    master_enable: Type.Boolean(),
    activation: Activation,
    transport_file: Type.Object({ data: Type.Union([Type.String(), Type.Null()]), type: Type.Union([Type.String(), Type.Null()]) }, strict),
    transport_params: Type.Array(WebSocketLeg),
  },
  strict,
);

/** One parameter's constraint: the values it may take (`enum`), or none beyond the schema's (`{}`). */
export const Constraint = Type.Object({ enum: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Boolean()]))) }, strict);
export type Constraint = Static<typeof Constraint>;
export const Constraints = Type.Array(Type.Record(Type.String(), Constraint));
