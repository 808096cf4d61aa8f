/**
 * The resources of the hub as an NMOS node (R-NM1, R-NM2), as pure data: one node, one
 * device, and for each parameter served an IS-07 source, its JSON flow and a WebSocket
 * sender. Ids come from the seed (identity.ts); a resource's `version` advances whenever
 * anything else of it changes, and only then (`NodeModel.update` compares what it would be
 * with what it was, or an activation through the Connection API touched it: IS-05 asks
 * every activation to show as a new version). Receivers (R-NM3) are the ones the settings
 * name, each bound to a hub parameter; the device lists them beside the senders, and
 * advertises the Connection API among its controls.
 */
import type { EventType } from './event-types.ts';
import { nmosId } from './identity.ts';
import {
  type DeviceResource,
  type FlowResource,
  type NodeResource,
  type ReceiverResource,
  type ResourceKind,
  resourceKinds,
  type SenderResource,
  type SourceResource,
} from './resource-shapes.ts';
import { Versions } from './tai-time.ts';

/** What the node says of itself and where it is reached. */
export interface NodeFacts {
  readonly seed: string;
  readonly label: string;
  readonly description: string;
  /** The address or name registries and clients reach the node at. */
  readonly host: string;
  readonly port: number;
  /** The network interfaces the node has, by name, each with its MAC address (`aa-bb-…`). */
  readonly interfaces: readonly { readonly name: string; readonly mac: string }[];
}

/** A parameter served as an IS-07 source. */
export interface ServedSource {
  readonly address: string;
  readonly label: string;
  readonly description: string;
  readonly event: EventType;
  /** The sender's IS-04 subscription, as its last activation through IS-05 left it (active, to no receiver, by default). */
  readonly subscription?: { readonly receiver_id: string | null; readonly active: boolean };
}

/** A receiver of the settings, as the node lists it. */
export interface ServedReceiver {
  /** Its name in the settings: what its id is made from. */
  readonly name: string;
  readonly label: string;
  readonly description: string;
  /** The event types it takes (IS-07's `caps.event_types`, `*` ending a partial one). */
  readonly eventTypes: readonly string[];
  /** Its IS-04 subscription, as its last activation through IS-05 left it. */
  readonly subscription: { readonly sender_id: string | null; readonly active: boolean };
}

export type Unversioned<R> = Omit<R, 'version'>;

export interface Resources {
  readonly node: NodeResource;
  readonly device: DeviceResource;
  readonly sources: readonly SourceResource[];
  readonly flows: readonly FlowResource[];
  readonly senders: readonly SenderResource[];
  readonly receivers: readonly ReceiverResource[];
}

/** A resource as the registry is told of it: its kind and its body. */
export interface Registered {
  readonly kind: ResourceKind;
  readonly id: string;
  readonly data: Resources['node'] | Resources['device'] | SourceResource | FlowResource | SenderResource | ReceiverResource;
}

export const NODE_API = '/x-nmos/node/v1.3/';
export const EVENTS_API = '/x-nmos/events/v1.0/';
/** Where every sender's WebSocket clients connect: one socket carries any of the node's sources (IS-07 §3.1). */
export const EVENTS_SOCKET = '/x-nmos/events/v1.0/socket';
export const CONNECTION_API = '/x-nmos/connection/v1.1/';

const base = (facts: NodeFacts) => `http://${facts.host.includes(':') ? `[${facts.host}]` : facts.host}:${facts.port}`;

/** The URL of the WebSocket every sender sends on. */
export const connectionUri = (facts: NodeFacts) => `${base(facts).replace(/^http/, 'ws')}${EVENTS_SOCKET}`;

/** The Events API URL of a source (IS-07 `ext_is_07_rest_api_url`). */
export const eventsApiUrl = (facts: NodeFacts, sourceId: string) => `${base(facts)}${EVENTS_API}sources/${sourceId}/`;

export const nodeIdOf = (facts: NodeFacts) => nmosId(facts.seed, 'node');
export const deviceIdOf = (facts: NodeFacts) => nmosId(facts.seed, 'device');

export function nodeOf(facts: NodeFacts): Unversioned<NodeResource> {
  return {
    id: nodeIdOf(facts),
    label: facts.label,
    description: facts.description,
    tags: {},
    href: `${base(facts)}/`,
    api: { versions: ['v1.3'], endpoints: [{ host: facts.host, port: facts.port, protocol: 'http' }] },
    caps: {},
    services: [],
    clocks: [],
    interfaces: facts.interfaces.map(({ name, mac }) => ({ chassis_id: null, port_id: mac, name })),
  };
}

/** The id of a receiver of the settings, by its name. */
export const receiverIdOf = (facts: NodeFacts, name: string) => nmosId(facts.seed, `receiver:${name}`);

export function deviceOf(facts: NodeFacts, senders: readonly string[], receivers: readonly string[] = []): Unversioned<DeviceResource> {
  return {
    id: deviceIdOf(facts),
    label: facts.label,
    description: facts.description,
    tags: {},
    type: 'urn:x-nmos:device:generic',
    node_id: nodeIdOf(facts),
    senders: [...senders],
    receivers: [...receivers],
    controls: [
      { href: `${base(facts)}${CONNECTION_API}`, type: 'urn:x-nmos:control:sr-ctrl/v1.1' },
      { href: `${base(facts)}${EVENTS_API}`, type: 'urn:x-nmos:control:events/v1.0' },
    ],
  };
}

/** The source, flow and sender of a parameter served. */
export function sourceTrio(
  facts: NodeFacts,
  served: ServedSource,
): { source: Unversioned<SourceResource>; flow: Unversioned<FlowResource>; sender: Unversioned<SenderResource> } {
  const device_id = deviceIdOf(facts);
  const source_id = nmosId(facts.seed, `source:${served.address}`);
  const flow_id = nmosId(facts.seed, `flow:${served.address}`);
  const words = { label: served.label, description: served.description, tags: {} };
  const event_type = served.event.eventType;
  return {
    source: {
      id: source_id,
      ...words,
      caps: {},
      device_id,
      parents: [],
      clock_name: null,
      format: 'urn:x-nmos:format:data',
      event_type,
    },
    flow: {
      id: flow_id,
      ...words,
      source_id,
      device_id,
      parents: [],
      format: 'urn:x-nmos:format:data',
      media_type: 'application/json',
      event_type,
    },
    sender: {
      id: nmosId(facts.seed, `sender:${served.address}`),
      ...words,
      flow_id,
      transport: 'urn:x-nmos:transport:websocket',
      device_id,
      manifest_href: null,
      interface_bindings: facts.interfaces.map(({ name }) => name),
      subscription: served.subscription ?? { receiver_id: null, active: true },
    },
  };
}

/** A receiver of the settings as an IS-04 receiver of IS-07 events over WebSocket. */
export function receiverOf(facts: NodeFacts, receiver: ServedReceiver): Unversioned<ReceiverResource> {
  return {
    id: receiverIdOf(facts, receiver.name),
    label: receiver.label,
    description: receiver.description,
    tags: {},
    device_id: deviceIdOf(facts),
    transport: 'urn:x-nmos:transport:websocket',
    interface_bindings: facts.interfaces.map(({ name }) => name),
    subscription: { ...receiver.subscription },
    format: 'urn:x-nmos:format:data',
    caps: { media_types: ['application/json'], event_types: [...receiver.eventTypes] },
  };
}

/** What changed in an update: resources to register (again), in registration order, and ids gone. */
export interface Changes {
  readonly changed: readonly Registered[];
  readonly removed: readonly { readonly kind: ResourceKind; readonly id: string }[];
}

/**
 * The node's resources now, with versions that advance on change. `update` is handed every
 * parameter served and says what changed since the last: what a registry must be told.
 */
export class NodeModel {
  private readonly versions: Versions;
  private readonly held = new Map<string, { kind: ResourceKind; written: string; data: Registered['data'] }>();
  private current: Resources | undefined;
  /** Resources an activation touched: given a new version at the next update even if nothing else of them changed. */
  private readonly touched = new Set<string>();

  constructor(now: () => number) {
    this.versions = new Versions(now);
  }

  get resources(): Resources {
    if (this.current === undefined) throw new Error('the node model has not been updated yet');
    return this.current;
  }

  /** Every resource now, in registration order. */
  all(): Registered[] {
    const { node, device, sources, flows, senders, receivers } = this.resources;
    const of = (kind: ResourceKind, list: readonly Registered['data'][]) => list.map((data) => ({ kind, id: data.id, data }));
    return [
      ...of('node', [node]),
      ...of('device', [device]),
      ...of('source', sources),
      ...of('flow', flows),
      ...of('sender', senders),
      ...of('receiver', receivers),
    ];
  }

  /** Gives the resource a new version at the next update: an activation through IS-05 shows, even of the same parameters. */
  touch(id: string): void {
    this.touched.add(id);
  }

  update(facts: NodeFacts, served: readonly ServedSource[], receiving: readonly ServedReceiver[] = []): Changes {
    const ordered = [...served].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
    const trios = ordered.map((one) => sourceTrio(facts, one));
    const changed: Registered[] = [];
    const seen = new Set<string>();
    const versioned = <R extends Registered['data']>(kind: ResourceKind, unversioned: Unversioned<R>): R => {
      seen.add(unversioned.id);
      const written = JSON.stringify(unversioned);
      const before = this.held.get(unversioned.id);
      if (before?.written === written && !this.touched.has(unversioned.id)) return before.data as R;
      const data = { ...unversioned, version: this.versions.next() } as unknown as R;
      this.held.set(unversioned.id, { kind, written, data });
      changed.push({ kind, id: data.id, data });
      return data;
    };
    const node = versioned<NodeResource>('node', nodeOf(facts));
    const device = versioned<DeviceResource>(
      'device',
      deviceOf(
        facts,
        trios.map(({ sender }) => sender.id),
        receiving.map(({ name }) => receiverIdOf(facts, name)),
      ),
    );
    const sources = trios.map(({ source }) => versioned<SourceResource>('source', source));
    const flows = trios.map(({ flow }) => versioned<FlowResource>('flow', flow));
    const senders = trios.map(({ sender }) => versioned<SenderResource>('sender', sender));
    const receivers = receiving.map((receiver) => versioned<ReceiverResource>('receiver', receiverOf(facts, receiver)));
    this.touched.clear();
    const removed: { kind: ResourceKind; id: string }[] = [];
    for (const [id, { kind }] of this.held) {
      if (seen.has(id)) continue;
      this.held.delete(id);
      removed.push({ kind, id });
    }
    this.current = { node, device, sources, flows, senders, receivers };
    // Deleted in the reverse of registering: senders before their flows, flows before their sources.
    removed.sort((a, b) => resourceKinds.indexOf(b.kind) - resourceKinds.indexOf(a.kind));
    return { changed, removed };
  }
}
