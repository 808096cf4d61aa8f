/**
 * A running `nmos` connection: the hub's parameters that match `expose` followed into the
 * node's resources (resources.ts), each sender with its Connection API endpoint; the
 * receivers of its settings (event-receivers.ts); served on a listener of its own
 * (node-server.ts) — the Node, Events and Connection APIs (api-answers.ts) and the events
 * WebSocket (event-clients.ts) — and registered with the registries named in its settings
 * or found by DNS-SD (registration.ts, registry-discovery.ts). An activation through the
 * Connection API is told to the registry at once, as a new version of what it changed.
 */
import { networkInterfaces } from 'node:os';
import type { Subscription } from 'rxjs';
import { type Parameter, SparseLog, Status, type TypedInstance, type Value } from '../../sdk/index.ts';
import type { ServingContext } from '../serving.ts';
import type { ApiView } from './api-answers.ts';
import { type ConnectionEndpoint, senderEndpoint } from './connection-endpoint.ts';
import { EventClients } from './event-clients.ts';
import { EventReceivers } from './event-receivers.ts';
import { type EventType, eventTypeOf } from './event-types.ts';
import { seedOf } from './identity.ts';
import { nodeHostOf } from './node-host.ts';
import { NodeServer } from './node-server.ts';
import { Registration, type RegistrationState } from './registration.ts';
import { RegistryBrowser } from './registry-discovery.ts';
import { registryRequests } from './registry-requests.ts';
import { connectionUri, eventsApiUrl, type NodeFacts, NodeModel, type ServedSource, sourceTrio } from './resources.ts';
import type { StateMessage } from './resource-shapes.ts';
import type { NmosSettings } from './settings.ts';
import { taiOf } from './tai-time.ts';

/** How often DNS-SD asks the network for registries. */
const DNS_SD_INTERVAL_MS = 10_000;

/** How long stopping may spend deleting what was registered, at least. */
const STOP_DEADLINE_MS = 5000;

/** Bytes that may wait for one events client before it is dropped as not reading. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

interface Served {
  readonly parameter: Parameter;
  readonly event: EventType;
  readonly sourceId: string;
  readonly flowId: string;
  readonly changes: Subscription;
  /** Its sender's side of the Connection API: disabled (`master_enable` false), its state is sent to no events client. */
  readonly endpoint: ConnectionEndpoint;
}

/** The state of a parameter whose value is unknown: IS-07 has no "unknown", so the type's zero. */
const ZERO: Readonly<Record<string, Value>> = { B: false, S: '', I: 0, F: 0 };

export class NmosConnection implements TypedInstance<NmosSettings> {
  private readonly model: NodeModel;
  private readonly clients: EventClients;
  private readonly receivers: EventReceivers;
  private readonly served = new Map<string, Served>();
  private readonly bySource = new Map<string, Served>();
  private readonly refusals: SparseLog;
  private registration: Registration | undefined;
  private browser: RegistryBrowser | undefined;
  private facts: NodeFacts | undefined;
  private graphWatch: Subscription | undefined;
  private updateDue: Subscription | undefined;
  private leftOut = 0;
  private readonly server: NodeServer;

  constructor(
    private readonly context: ServingContext,
    private readonly settings: NmosSettings,
  ) {
    this.model = new NodeModel(() => context.scheduler.now());
    this.refusals = new SparseLog(context.log, context.scheduler, 'refused');
    this.clients = new EventClients(context.scheduler, {
      timeoutMs: settings.clientTimeoutMs,
      maxSources: settings.maxSources,
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      stateOf: (id) => (this.bySource.get(id)?.endpoint.active.masterEnable ? this.stateOf(id) : undefined),
      refused: (peer, reason) => this.refusals.warn(`an events client at ${peer}: ${reason}`),
    });
    this.receivers = new EventReceivers({
      receivers: settings.receivers,
      scheduler: context.scheduler,
      graph: context.hub.graph,
      maxMessageBytes: settings.maxMessageBytes,
      refusals: this.refusals,
      records: context.records,
      changed: (id) => this.activated(id),
      problem: (part, problem) => context.problem(part, problem),
    });
    this.server = new NodeServer(settings, () => (this.facts === undefined ? undefined : this.view()), this.clients, this.refusals);
  }

  async start(): Promise<void> {
    const { settings, context } = this;
    const port = await this.server.listen();
    const where = nodeHostOf(settings.host, settings.bindIp, networkInterfaces());
    this.facts = {
      seed: seedOf(settings.seed, context.records),
      label: settings.label,
      description: settings.description,
      host: where.host,
      port,
      interfaces: where.interfaces,
    };
    this.graphWatch = context.graph.everyParameter(
      (parameter) => this.follow(parameter),
      (parameter) => this.unfollow(parameter.address),
    );
    this.receivers.start(this.facts);
    this.graphWatch.add(
      context.graph.described$.subscribe((parameter) => {
        if (!this.served.has(parameter.address)) return;
        this.unfollow(parameter.address);
        this.follow(parameter);
      }),
    );
    this.rebuild();
    this.clients.start();
    const named = settings.registryUrls;
    if (named.length === 0 && settings.dnsSd) {
      this.browser = new RegistryBrowser(context.scheduler, context.log, DNS_SD_INTERVAL_MS, () => this.registration?.changed());
      this.browser.start();
    }
    const browser = this.browser;
    if (named.length === 0 && browser === undefined) context.setStatus(Status.Ok);
    else {
      context.setStatus(Status.Connecting, browser ? 'looking for a registry by DNS-SD' : `registering with ${named[0]}`);
      this.registration = new Registration(this.model, {
        registries: browser ? () => browser.registries() : () => named,
        ...(browser && { lookAgain: () => browser.ask() }),
        heartbeatMs: settings.heartbeatMs,
        // Every request is bounded by its own timeout; the deletions together by this.
        stopDeadlineMs: Math.max(STOP_DEADLINE_MS, 2 * settings.requestTimeoutMs),
        request: registryRequests(context.scheduler, settings.requestTimeoutMs),
        scheduler: context.scheduler,
        state: (state) => this.registrationState(state),
      });
      // Registered once the hub runs: the registry is never shown a node whose values are not there yet.
      context.whenRunning(() => this.registration?.start());
    }
    context.log.info(
      `NMOS node ${this.model.resources.node.id} at http://${where.host}:${port}: ${this.served.size} sources from ${settings.expose.join(' ') || 'nothing'}; ${named.length > 0 ? `registers with ${named.join(', ')}` : browser ? 'finds its registry by DNS-SD' : 'registers nowhere'}`,
    );
  }

  details(): Readonly<Record<string, unknown>> {
    return {
      port: this.facts?.port,
      nodeId: this.facts && this.model.resources.node.id,
      sources: this.served.size,
      receivers: Object.keys(this.settings.receivers).length,
      receiversLinked: this.receivers.linked,
      leftOut: this.leftOut,
      clients: this.clients.size,
      droppedClients: this.clients.dropped,
      registry: this.registration?.registry,
      ...this.registration?.counts,
    };
  }

  async stop(): Promise<void> {
    this.graphWatch?.unsubscribe();
    this.updateDue?.unsubscribe();
    // Deleted from the registry first: a node that no longer answers should not stay listed.
    await this.registration?.stop();
    this.browser?.stop();
    // Told while the sources are still known: each client hears `shutdown` for each it follows.
    this.clients.stop();
    this.receivers.stop();
    for (const served of this.served.values()) {
      served.changes.unsubscribe();
      served.endpoint.stop();
    }
    this.served.clear();
    this.bySource.clear();
    this.server.close();
  }

  private registrationState(state: RegistrationState): void {
    if (state.registered) this.context.setStatus(Status.Ok);
    else this.context.setStatus(Status.Degraded, state.reason, state.code);
  }

  private follow(parameter: Parameter): void {
    const { address } = parameter;
    // A receiver's event types come from the type of the parameter it writes.
    if (this.receivers.binds(address)) this.updateSoon();
    if (this.served.has(address) || !this.settings.patterns.matches(address)) return;
    const event = eventTypeOf(address, parameter.type, parameter.meta);
    if (event === undefined || this.facts === undefined) return;
    if (this.served.size >= this.settings.maxSources) {
      this.leftOut++;
      this.refusals.warn(`${address} is not served: ${this.settings.maxSources} sources are (maxSources)`);
      return;
    }
    const facts = this.facts;
    const { source, flow, sender } = sourceTrio(facts, this.servedSource(parameter, event));
    const leg = { connectionUri: connectionUri(facts), sourceId: source.id, restApiUrl: eventsApiUrl(facts, source.id) };
    const served: Served = {
      parameter,
      event,
      sourceId: source.id,
      flowId: flow.id,
      changes: parameter.changes$.subscribe(() => this.clients.changed(source.id)),
      endpoint: senderEndpoint(sender.id, leg, this.context.scheduler, () => this.activated(sender.id)),
    };
    this.served.set(address, served);
    this.bySource.set(source.id, served);
    this.updateSoon();
  }

  private unfollow(address: string): void {
    if (this.receivers.binds(address)) this.updateSoon();
    const served = this.served.get(address);
    if (served === undefined) return;
    served.changes.unsubscribe();
    served.endpoint.stop();
    this.served.delete(address);
    this.bySource.delete(served.sourceId);
    this.updateSoon();
  }

  private servedSource(parameter: Parameter, event: EventType, endpoint?: ConnectionEndpoint): ServedSource {
    const active = endpoint?.active;
    return {
      ...(active && { subscription: { receiver_id: active.masterEnable ? active.peer : null, active: active.masterEnable } }),
      address: parameter.address,
      // A label alone may be shared (each input's `On program`): the address tells them apart in a registry's list.
      label: parameter.meta?.label === undefined ? parameter.address : `${parameter.meta.label} (${parameter.address})`,
      description: parameter.meta?.description ?? `the hub parameter ${parameter.address}`,
      event,
    };
  }

  /** Parameters come and go in bursts (a connection starting): the model is made again once per turn, not once each. */
  private updateSoon(): void {
    if (this.updateDue !== undefined || this.graphWatch === undefined) return;
    this.updateDue = this.context.scheduler.schedule(() => {
      this.updateDue = undefined;
      this.rebuild();
    });
  }

  private rebuild(): void {
    if (this.facts === undefined) return;
    const served = [...this.served.values()].map(({ parameter, event, endpoint }) => this.servedSource(parameter, event, endpoint));
    const changes = this.model.update(this.facts, served, this.receivers.served());
    if (changes.changed.length > 0 || changes.removed.length > 0) this.registration?.changed();
  }

  /** An activation through the Connection API: the sender or receiver gets a new version, told to the registry now. */
  private activated(id: string): void {
    this.model.touch(id);
    this.rebuild();
  }

  private stateOf(sourceId: string): StateMessage | undefined {
    const served = this.bySource.get(sourceId);
    if (served === undefined) return undefined;
    const { parameter, event, flowId } = served;
    return {
      message_type: 'state',
      identity: { source_id: sourceId, flow_id: flowId },
      event_type: event.eventType,
      timing: { creation_timestamp: taiOf(this.context.scheduler.now()) },
      payload: { value: parameter.value ?? (ZERO[parameter.type] as Value) },
    };
  }

  private view(): ApiView {
    return {
      resources: this.model.resources,
      eventSource: (id) => {
        const served = this.bySource.get(id);
        return served && { state: () => this.stateOf(id) as StateMessage, definition: served.event.definition };
      },
      connection: {
        senders: [...this.served.values()].map(({ endpoint }) => endpoint),
        receivers: this.receivers.endpoints(),
      },
    };
  }
}
