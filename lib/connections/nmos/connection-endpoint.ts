/**
 * One sender's or receiver's side of the Connection API (R-NM3, IS-05 v1.1): its
 * constraints, what is `staged` and what is `active`. A PATCH is checked whole before
 * anything of it is taken — the schema, then each transport parameter against its
 * constraint, `auto` taken where IS-05's schema allows it — so a bad one is a 400 that
 * changes nothing. An activation copies staged to active, `auto` resolved, and tells the
 * owner (`activated`), also when nothing changed: IS-05 asks an explicit activation to be
 * applied again. Immediate activations answer 200 once applied; scheduled ones (absolute,
 * or relative to the request) answer 202 and lock `staged` (423) until they happen or a
 * PATCH with `mode: null` cancels them. Time is the scheduler's, so specs run it virtually.
 */
import type { Subscription } from 'rxjs';
import { Value } from '@sinclair/typebox/value';
import type { Scheduler } from '../../sdk/index.ts';
import {
  type Activation,
  type Constraint,
  type Leg,
  type ParamValue,
  ReceiverEndpoint,
  ReceiverPatch,
  SenderEndpoint,
  SenderPatch,
  type StagePatch,
} from './connection-shapes.ts';
import { msOfDuration, msOfTai, taiOf } from './tai-time.ts';

export type EndpointKind = 'sender' | 'receiver';

/** What is staged or active: the peer (a sender's receiver_id, a receiver's sender_id), master_enable and the one leg. */
export interface EndpointState {
  readonly peer: string | null;
  readonly masterEnable: boolean;
  readonly activation: Activation;
  readonly leg: Leg;
}

export interface EndpointOptions {
  readonly kind: EndpointKind;
  readonly id: string;
  /** Each transport parameter the endpoint has, with its constraint. */
  readonly constraints: Readonly<Record<string, Constraint>>;
  /** What `auto` means for each parameter that may be `auto` (IS-05's schema says which). */
  readonly auto: Readonly<Record<string, ParamValue>>;
  readonly masterEnable: boolean;
  readonly leg: Leg;
  readonly scheduler: Scheduler;
  /** After every activation, with what is active now. */
  activated(active: EndpointState): void;
}

/** An answer of the Connection API: a status and an NMOS body. */
export interface ConnectionAnswer {
  readonly status: 200 | 202 | 400 | 404 | 405 | 413 | 423 | 500;
  readonly body: unknown;
}

const NO_ACTIVATION: Activation = { mode: null, requested_time: null, activation_time: null };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** An NMOS error body whose `debug` is the hub's stable code. */
export const refusal = (status: ConnectionAnswer['status'], error: string, code: string): ConnectionAnswer => ({
  status,
  body: { code: status, error, debug: code },
});

export class ConnectionEndpoint {
  private stagedState: EndpointState;
  private activeState: EndpointState;
  private pending: Subscription | undefined;

  constructor(private readonly options: EndpointOptions) {
    this.stagedState = { peer: null, masterEnable: options.masterEnable, activation: NO_ACTIVATION, leg: options.leg };
    this.activeState = { ...this.stagedState, leg: this.resolved(options.leg) };
  }

  get id(): string {
    return this.options.id;
  }

  get active(): EndpointState {
    return this.activeState;
  }

  constraints(): unknown {
    return [this.options.constraints];
  }

  staged(): unknown {
    return this.bodyOf(this.stagedState);
  }

  activeBody(): unknown {
    return this.bodyOf(this.activeState);
  }

  /**
   * Makes a kept `active` body (what `activeBody` answered before a restart or on the hub
   * that was active before a takeover) active and staged again, without telling the owner:
   * the owner starts from `active`. Why not, when the body is not one a PATCH could have made.
   */
  restore(body: unknown): string | undefined {
    const schema = this.options.kind === 'sender' ? SenderEndpoint : ReceiverEndpoint;
    if (!Value.Check(schema, body)) return `not a ${this.options.kind}'s active parameters`;
    const kept = body as {
      sender_id?: string | null;
      receiver_id?: string | null;
      master_enable: boolean;
      activation: Activation;
      transport_params: Leg[];
    };
    const [leg, ...more] = kept.transport_params;
    if (leg === undefined || more.length > 0) return `${kept.transport_params.length} legs; this ${this.options.kind} has one`;
    const problem = this.checkLeg(leg);
    if (problem !== undefined) return problem;
    const peer = (this.options.kind === 'sender' ? kept.receiver_id : kept.sender_id) ?? null;
    this.activeState = { peer, masterEnable: kept.master_enable, activation: kept.activation, leg: this.resolved(leg) };
    this.stagedState = { ...this.activeState, activation: NO_ACTIVATION };
    return undefined;
  }

  /** Applies a PATCH to `staged` (already parsed JSON), activating when it asks. */
  patch(body: unknown): ConnectionAnswer {
    const schema = this.options.kind === 'sender' ? SenderPatch : ReceiverPatch;
    if (!Value.Check(schema, body)) {
      const first = [...Value.Errors(schema, body)][0];
      return refusal(
        400,
        `the PATCH is not a ${this.options.kind}'s staged parameters: ${first ? `${first.path || '/'} ${first.message}` : 'not an object'}`,
        'PB_BAD_REQUEST',
      );
    }
    const patch = body as StagePatch;
    const cancels = patch.activation !== undefined && patch.activation.mode === null;
    if (this.pending !== undefined && !cancels) {
      return refusal(
        423,
        `an activation of ${this.options.kind} ${this.options.id} is scheduled for ${this.stagedState.activation.activation_time}: PATCH activation.mode null to cancel it`,
        'PB_ACTIVATION_SCHEDULED',
      );
    }
    const legs = patch.transport_params ?? [];
    if (legs.length > 1)
      return refusal(400, `transport_params has ${legs.length} legs; this ${this.options.kind} has one`, 'PB_BAD_REQUEST');
    const problem = this.checkLeg(legs[0] ?? {});
    if (problem !== undefined) return refusal(400, problem, 'PB_BAD_REQUEST');
    const activation = patch.activation;
    const timed = activation?.mode === 'activate_scheduled_absolute' || activation?.mode === 'activate_scheduled_relative';
    if (timed && (activation.requested_time === undefined || activation.requested_time === null)) {
      return refusal(400, `${activation.mode} needs a requested_time (<seconds>:<nanoseconds>)`, 'PB_BAD_REQUEST');
    }
    if (cancels) this.cancel();
    const peer = this.options.kind === 'sender' ? patch.receiver_id : patch.sender_id;
    this.stagedState = {
      peer: peer === undefined ? this.stagedState.peer : peer,
      masterEnable: patch.master_enable ?? this.stagedState.masterEnable,
      activation: this.stagedState.activation,
      leg: { ...this.stagedState.leg, ...(legs[0] ?? {}) },
    };
    if (activation === undefined || activation.mode === null) return { status: 200, body: this.staged() };
    const now = this.options.scheduler.now();
    if (activation.mode === 'activate_immediate') {
      const activationTime = taiOf(now);
      this.activate({ mode: 'activate_immediate', requested_time: null, activation_time: activationTime });
      return {
        status: 200,
        body: this.bodyOf({
          ...this.stagedState,
          activation: { mode: 'activate_immediate', requested_time: null, activation_time: activationTime },
        }),
      };
    }
    const requested = activation.requested_time as string;
    const at = activation.mode === 'activate_scheduled_absolute' ? msOfTai(requested) : now + msOfDuration(requested);
    const scheduled: Activation = { mode: activation.mode, requested_time: requested, activation_time: taiOf(at) };
    this.stagedState = { ...this.stagedState, activation: scheduled };
    this.pending = this.options.scheduler.schedule(() => this.activate(scheduled), Math.max(0, at - now));
    return { status: 202, body: this.staged() };
  }

  /** Ends a scheduled activation without making it (the node stops). */
  stop(): void {
    this.pending?.unsubscribe();
    this.pending = undefined;
  }

  private cancel(): void {
    this.stop();
    this.stagedState = { ...this.stagedState, activation: NO_ACTIVATION };
  }

  private activate(activation: Activation): void {
    this.pending = undefined;
    this.activeState = { ...this.stagedState, activation, leg: this.resolved(this.stagedState.leg) };
    this.stagedState = { ...this.stagedState, activation: NO_ACTIVATION };
    this.options.activated(this.activeState);
  }

  private resolved(leg: Leg): Leg {
    const out: Record<string, ParamValue> = {};
    for (const [name, value] of Object.entries(leg))
      out[name] = value === 'auto' && name in this.options.auto ? (this.options.auto[name] as ParamValue) : value;
    return out;
  }

  /** Why a leg of a PATCH is refused, or undefined when every parameter fits its constraint. */
  private checkLeg(leg: Leg): string | undefined {
    for (const [name, value] of Object.entries(leg)) {
      const constraint = this.options.constraints[name];
      const where = `transport_params[0].${name}`;
      if (constraint === undefined)
        return `${where}: this ${this.options.kind} has no such transport parameter (it has ${Object.keys(this.options.constraints).join(', ')})`;
      if (value === 'auto' && name in this.options.auto) continue;
      if (constraint.enum !== undefined && !constraint.enum.includes(value as string | boolean)) {
        return `${where}: ${JSON.stringify(value)} is not one of ${JSON.stringify(constraint.enum)} (its constraints)`;
      }
      const wrong = shapeProblem(name, value);
      if (wrong !== undefined) return `${where}: ${wrong}`;
    }
    return undefined;
  }

  private bodyOf(state: EndpointState): unknown {
    const peer = this.options.kind === 'sender' ? { receiver_id: state.peer } : { sender_id: state.peer };
    return {
      ...peer,
      master_enable: state.masterEnable,
      activation: state.activation,
      ...(this.options.kind === 'receiver' && { transport_file: { data: null, type: null } }),
      transport_params: [state.leg],
    };
  }
}

/** What is wrong with a value of one of the WebSocket transport's parameters, by IS-05's and IS-07's schemas. */
function shapeProblem(name: string, value: ParamValue): string | undefined {
  switch (name) {
    case 'connection_uri':
      return value === null || (typeof value === 'string' && /^wss?:\/\//.test(value) && URL.canParse(value))
        ? undefined
        : 'a WebSocket URI (ws://… or wss://…) or null';
    case 'connection_authorization':
      return typeof value === 'boolean' ? undefined : 'true, false or "auto"';
    case 'ext_is_07_source_id':
      return value === null || (typeof value === 'string' && UUID.test(value)) ? undefined : "an IS-07 source's id (a UUID) or null";
    case 'ext_is_07_rest_api_url':
      return value === null || (typeof value === 'string' && /^https?:\/\//.test(value) && URL.canParse(value))
        ? undefined
        : "the source's Events API URL (http://…) or null";
    default:
      return undefined;
  }
}

/**
 * A sender's endpoint: its WebSocket, source and Events API URL are what they are, so each is
 * an `enum` of one (IS-07 §3: static for a sender); `auto` stands for them. Enabled, as the
 * node serves every source from its start.
 */
export function senderEndpoint(
  id: string,
  leg: { readonly connectionUri: string; readonly sourceId: string; readonly restApiUrl: string },
  scheduler: Scheduler,
  activated: (active: EndpointState) => void,
): ConnectionEndpoint {
  return new ConnectionEndpoint({
    kind: 'sender',
    id,
    constraints: {
      connection_uri: { enum: [leg.connectionUri] },
      connection_authorization: { enum: [false] },
      ext_is_07_source_id: { enum: [leg.sourceId] },
      ext_is_07_rest_api_url: { enum: [leg.restApiUrl] },
    },
    auto: { connection_uri: leg.connectionUri, connection_authorization: false },
    masterEnable: true,
    leg: {
      connection_uri: leg.connectionUri,
      connection_authorization: false,
      ext_is_07_source_id: leg.sourceId,
      ext_is_07_rest_api_url: leg.restApiUrl,
    },
    scheduler,
    activated,
  });
}

/** A receiver's endpoint: any sender's WebSocket and source may be staged (IS-07 §3: an empty constraint); disabled until a controller connects it. */
export function receiverEndpoint(id: string, scheduler: Scheduler, activated: (active: EndpointState) => void): ConnectionEndpoint {
  return new ConnectionEndpoint({
    kind: 'receiver',
    id,
    constraints: { connection_uri: {}, connection_authorization: { enum: [false] }, ext_is_07_source_id: {}, ext_is_07_rest_api_url: {} },
    auto: { connection_authorization: false },
    masterEnable: false,
    leg: { connection_uri: null, connection_authorization: false, ext_is_07_source_id: null, ext_is_07_rest_api_url: null },
    scheduler,
    activated,
  });
}
