/**
 * The node's IS-07 receivers (R-NM3): one for each of the settings' `receivers`, each bound
 * to a hub parameter. A controller connects one through the Connection API (its endpoint,
 * connection-endpoint.ts); once activated enabled with a `connection_uri` and an
 * `ext_is_07_source_id`, a link (event-socket.ts) follows that source and every state it
 * sends is written to the parameter — the latest of a turn only, so a sender that floods
 * costs one write a turn. Deactivated (`master_enable` false), or connected elsewhere, the
 * link closes. A link that fails is a problem of the connection under the receiver's name,
 * gone once the sender answers again; a write the parameter refuses is one under
 * `<name>/write`, gone once a write is taken. What a controller activated is kept in the
 * connection's records (`receiver/<name>`: the receiver's id and its `active`), so a hub
 * that restarts — or the hub that takes over in a redundancy group, which the records
 * reach — follows the same sender again without a controller asking.
 */
import type { Subscription } from 'rxjs';
import type { Graph } from '../serving.ts';
import type { ErrorCode, Json, Records, Scheduler, SparseLog, ValueType } from '../../sdk/index.ts';
import { type ConnectionEndpoint, type EndpointState, receiverEndpoint } from './connection-endpoint.ts';
import { EventSocket } from './event-socket.ts';
import { type NodeFacts, receiverIdOf, type ServedReceiver } from './resources.ts';
import type { NmosSettings } from './settings.ts';

export interface EventReceiversOptions {
  readonly receivers: NmosSettings['receivers'];
  readonly scheduler: Scheduler;
  /** The hub's graph, written as a client writes it. */
  readonly graph: Graph;
  readonly maxMessageBytes: number;
  readonly refusals: SparseLog;
  /** The connection's records, where each receiver's activation is kept. */
  readonly records: Records;
  /** An activation changed a receiver: what the registry holds of it must be told again. */
  changed(receiverId: string): void;
  problem(part: string, problem: { readonly code: ErrorCode; readonly message: string } | undefined): void;
}

/** IS-07's health interval and the silence after which a sender is dropped. */
const HEALTH_MS = 5000;
const SILENT_MS = 12_000;
/** Messages a second a sender may send one receiver before its link is dropped as a flood. */
const MAX_MESSAGES_PER_SECOND = 1000;

const EVENT_TYPES: Readonly<Record<ValueType, readonly string[]>> = {
  B: ['boolean', 'boolean/*'],
  S: ['string', 'string/*'],
  I: ['number', 'number/*'],
  F: ['number', 'number/*'],
  T: ['boolean', 'boolean/*', 'string', 'string/*', 'number', 'number/*'],
};

interface Receiver {
  readonly name: string;
  readonly address: string;
  readonly settings: NmosSettings['receivers'][string];
  readonly endpoint: ConnectionEndpoint;
  link: EventSocket | undefined;
  /** The latest state not yet written, and the turn's write that will. */
  latest: { value: unknown } | undefined;
  write: Subscription | undefined;
  /** The last write was refused (and is listed as a problem). */
  refused: boolean;
}

/** The record that keeps a receiver's activation. */
const recordOf = (name: string) => `receiver/${name}`;

export class EventReceivers {
  private readonly receivers: Receiver[] = [];

  constructor(private readonly options: EventReceiversOptions) {}

  /** Makes the receivers' endpoints, with the node's ids. */
  start(facts: NodeFacts): void {
    for (const [name, settings] of Object.entries(this.options.receivers)) {
      const id = receiverIdOf(facts, name);
      const receiver: Receiver = {
        name,
        address: settings.parameter,
        settings,
        endpoint: receiverEndpoint(id, this.options.scheduler, (active) => this.activated(receiver, active)),
        link: undefined,
        latest: undefined,
        write: undefined,
        refused: false,
      };
      this.receivers.push(receiver);
      this.restore(receiver);
    }
  }

  endpoints(): readonly ConnectionEndpoint[] {
    return this.receivers.map(({ endpoint }) => endpoint);
  }

  /** Whether a parameter is one a receiver writes: its type decides the receiver's event types. */
  binds(address: string): boolean {
    return this.receivers.some((receiver) => receiver.address === address);
  }

  /** The receivers as the node lists them. */
  served(): ServedReceiver[] {
    return this.receivers.map(({ name, address, settings, endpoint }) => {
      const type = this.options.graph.get(address)?.type ?? 'T';
      const { masterEnable, peer } = endpoint.active;
      return {
        name,
        label: settings.label || `${name} (${address})`,
        description: `writes the hub parameter ${address}`,
        eventTypes: settings.eventTypes !== undefined && settings.eventTypes.length > 0 ? settings.eventTypes : EVENT_TYPES[type],
        subscription: { sender_id: masterEnable ? peer : null, active: masterEnable },
      };
    });
  }

  /** How many receivers follow a sender now. */
  get linked(): number {
    return this.receivers.filter(({ link }) => link !== undefined).length;
  }

  stop(): void {
    for (const receiver of this.receivers) {
      receiver.endpoint.stop();
      receiver.link?.stop();
      receiver.link = undefined;
      receiver.write?.unsubscribe();
      this.options.problem(receiver.name, undefined);
      this.options.problem(`${receiver.name}/write`, undefined);
    }
    this.receivers.length = 0;
  }

  /** Takes back a receiver's kept activation, and follows its sender again when it was enabled. */
  private restore(receiver: Receiver): void {
    const key = recordOf(receiver.name);
    const kept = this.options.records.get(key);
    if (kept === undefined) return;
    const { id, active } = (typeof kept === 'object' && kept !== null && !Array.isArray(kept) ? kept : {}) as Record<string, Json>;
    // Another id is another receiver (the connection's seed changed): its activation is not this one's.
    const problem = id === receiver.endpoint.id ? receiver.endpoint.restore(active) : 'kept for another receiver id';
    if (problem !== undefined) {
      this.options.refusals.warn(`the NMOS receiver ${receiver.name}: its kept activation is forgotten (${problem})`);
      this.options.records.set(key, undefined);
      return;
    }
    if (receiver.endpoint.active.masterEnable) this.follow(receiver, receiver.endpoint.active);
  }

  private activated(receiver: Receiver, active: EndpointState): void {
    this.follow(receiver, active);
    this.options.records.set(
      recordOf(receiver.name),
      active.masterEnable ? { id: receiver.endpoint.id, active: receiver.endpoint.activeBody() as Json } : undefined,
    );
    this.options.changed(receiver.endpoint.id);
  }

  /** Closes the receiver's link, and opens one to the sender `active` names when it is enabled. */
  private follow(receiver: Receiver, active: EndpointState): void {
    receiver.link?.stop();
    receiver.link = undefined;
    const { connection_uri: url, ext_is_07_source_id: sourceId } = active.leg;
    const problem = (message: string | undefined) =>
      this.options.problem(receiver.name, message === undefined ? undefined : { code: 'PB_DEVICE_UNAVAILABLE', message });
    if (!active.masterEnable) problem(undefined);
    else if (typeof url !== 'string' || typeof sourceId !== 'string') {
      problem(
        `enabled without ${typeof url === 'string' ? 'an ext_is_07_source_id' : 'a connection_uri'}: it follows nothing until a controller stages one`,
      );
    } else {
      problem(`connecting to ${url}`);
      receiver.link = new EventSocket({
        url,
        sourceId,
        scheduler: this.options.scheduler,
        maxMessageBytes: this.options.maxMessageBytes,
        maxMessagesPerSecond: MAX_MESSAGES_PER_SECOND,
        healthMs: HEALTH_MS,
        silentMs: SILENT_MS,
        state: (value) => this.heard(receiver, value),
        status: problem,
      });
      receiver.link.start();
    }
  }

  /** A state of the source: written at the end of the turn, the latest of the turn only. */
  private heard(receiver: Receiver, value: unknown): void {
    receiver.latest = { value };
    receiver.write ??= this.options.scheduler.schedule(() => {
      receiver.write = undefined;
      const latest = receiver.latest;
      receiver.latest = undefined;
      if (latest === undefined || receiver.link === undefined) return;
      const written = this.options.graph.write(receiver.address, latest.value, `nmos receiver ${receiver.name}`);
      // Listed apart from the link (`<name>/write`) until a write is taken: a parameter not there yet, a state of another type.
      const part = `${receiver.name}/write`;
      if (written.ok) {
        if (receiver.refused) this.options.problem(part, undefined);
        receiver.refused = false;
        return;
      }
      const message = `${receiver.address} refused what the sender sent (${JSON.stringify(latest.value).slice(0, 80)}): ${written.error.message}`;
      receiver.refused = true;
      this.options.problem(part, { code: written.error.code, message });
      this.options.refusals.warn(`the NMOS receiver ${receiver.name}: ${message}`);
    });
  }
}
