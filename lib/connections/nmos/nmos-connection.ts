/**
 * A running `nmos` connection: the hub's parameters that match `expose` followed into the
 * node's resources (resources.ts), served on a uWS listener of its own — the Node and Events
 * APIs (api-answers.ts) and the events WebSocket (event-clients.ts) — and registered with
 * the registries named in its settings (registration.ts).
 */
import { networkInterfaces } from 'node:os';
import type { Subscription } from 'rxjs';
import { type ConnectionContext, type Parameter, reasonOf, SparseLog, Status, type TypedInstance, type Value } from '../../sdk/index.ts';
import {
  closeEverySocket,
  type HttpResponse,
  listenExclusive,
  type ListenSocket,
  type TemplatedApp,
  uws,
  type WebSocket,
} from '../../http/uws.ts';
import { answerGet, type ApiView } from './api-answers.ts';
import { type EventClient, EventClients } from './event-clients.ts';
import { type EventType, eventTypeOf } from './event-types.ts';
import { seedOf } from './identity.ts';
import { nodeHostOf } from './node-host.ts';
import { Registration, type RegistrationState } from './registration.ts';
import { RegistryBrowser } from './registry-discovery.ts';
import { registryRequests } from './registry-requests.ts';
import { EVENTS_SOCKET, type NodeFacts, NodeModel, type ServedSource, sourceTrio } from './resources.ts';
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
}

/** The state of a parameter whose value is unknown: IS-07 has no "unknown", so the type's zero. */
const ZERO: Readonly<Record<string, Value>> = { B: false, S: '', I: 0, F: 0 };

export class NmosConnection implements TypedInstance<NmosSettings> {
  private readonly model: NodeModel;
  private readonly clients: EventClients;
  private readonly served = new Map<string, Served>();
  private readonly bySource = new Map<string, Served>();
  private readonly refusals: SparseLog;
  private registration: Registration | undefined;
  private browser: RegistryBrowser | undefined;
  private facts: NodeFacts | undefined;
  private app: TemplatedApp | undefined;
  private socket: ListenSocket | undefined;
  private graphWatch: Subscription | undefined;
  private updateDue: Subscription | undefined;
  private leftOut = 0;
  private readonly sockets = new Set<WebSocket<{ client: EventClient }>>();

  constructor(
    private readonly context: ConnectionContext,
    private readonly settings: NmosSettings,
  ) {
    this.model = new NodeModel(() => context.scheduler.now());
    this.refusals = new SparseLog(context.log, context.scheduler, 'refused');
    this.clients = new EventClients(context.scheduler, {
      timeoutMs: settings.clientTimeoutMs,
      maxSources: settings.maxSources,
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      stateOf: (id) => this.stateOf(id),
      refused: (peer, reason) => this.refusals.warn(`an events client at ${peer}: ${reason}`),
    });
  }

  async start(): Promise<void> {
    const { settings, context } = this;
    const port = await this.listen();
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
    for (const served of this.served.values()) served.changes.unsubscribe();
    this.served.clear();
    this.bySource.clear();
    if (this.socket) uws.us_listen_socket_close(this.socket);
    this.socket = undefined;
    if (this.app) closeEverySocket(this.app);
    this.app = undefined;
  }

  private registrationState(state: RegistrationState): void {
    if (state.registered) this.context.setStatus(Status.Ok);
    else this.context.setStatus(Status.Degraded, state.reason, state.code);
  }

  private follow(parameter: Parameter): void {
    const { address } = parameter;
    if (this.served.has(address) || !this.settings.patterns.matches(address)) return;
    const event = eventTypeOf(address, parameter.type, parameter.meta);
    if (event === undefined || this.facts === undefined) return;
    if (this.served.size >= this.settings.maxSources) {
      this.leftOut++;
      this.refusals.warn(`${address} is not served: ${this.settings.maxSources} sources are (maxSources)`);
      return;
    }
    const { source, flow } = sourceTrio(this.facts, this.servedSource(parameter, event));
    const served: Served = {
      parameter,
      event,
      sourceId: source.id,
      flowId: flow.id,
      changes: parameter.changes$.subscribe(() => this.clients.changed(source.id)),
    };
    this.served.set(address, served);
    this.bySource.set(source.id, served);
    this.updateSoon();
  }

  private unfollow(address: string): void {
    const served = this.served.get(address);
    if (served === undefined) return;
    served.changes.unsubscribe();
    this.served.delete(address);
    this.bySource.delete(served.sourceId);
    this.updateSoon();
  }

  private servedSource(parameter: Parameter, event: EventType): ServedSource {
    return {
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
    const served = [...this.served.values()].map(({ parameter, event }) => this.servedSource(parameter, event));
    const changes = this.model.update(this.facts, served);
    if (changes.changed.length > 0 || changes.removed.length > 0) this.registration?.changed();
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
    };
  }

  /** Listens on `bindIp`:`port`; resolves with the port. */
  private listen(): Promise<number> {
    const app = uws.App();
    this.app = app;
    app.any('/*', (res, req) => {
      const method = req.getMethod().toUpperCase();
      const url = req.getUrl();
      this.guarded(res, () => this.answer(res, method, url));
    });
    app.ws<{ client: EventClient }>(EVENTS_SOCKET, {
      maxPayloadLength: this.settings.maxMessageBytes,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) =>
        this.guarded(res, () => {
          if (this.sockets.size >= this.settings.maxClients) {
            return void res
              .writeStatus('503 Service Unavailable')
              .end(JSON.stringify({ code: 503, error: `at most ${this.settings.maxClients} events clients`, debug: null }), true);
          }
          const holder: { client?: EventClient } = {};
          res.upgrade(
            holder as { client: EventClient },
            req.getHeader('sec-websocket-key'),
            req.getHeader('sec-websocket-protocol'),
            req.getHeader('sec-websocket-extensions'),
            context,
          );
        }),
      open: (ws) => {
        const peer = Buffer.from(ws.getRemoteAddressAsText()).toString();
        const client: EventClient = {
          peer,
          send: (text) => void ws.send(text, false),
          bufferedBytes: () => ws.getBufferedAmount(),
          end: (reason) => ws.end(1000, reason.slice(0, 120)),
        };
        ws.getUserData().client = client;
        this.sockets.add(ws);
        this.clients.opened(client);
      },
      message: (ws, message) => {
        try {
          this.clients.received(ws.getUserData().client, Buffer.from(message).toString('utf8'));
        } catch (error) {
          this.refusals.warn(`an events WebSocket message failed: ${reasonOf(error)}`);
        }
      },
      close: (ws) => {
        this.sockets.delete(ws);
        this.clients.closed(ws.getUserData().client);
      },
    });
    const { bindIp, port } = this.settings;
    return new Promise((resolve, reject) =>
      listenExclusive(app, bindIp, port, (socket) => {
        if (!socket) return reject(new Error(`the NMOS node cannot listen on ${bindIp || '*'}:${port}`));
        this.socket = socket;
        resolve(uws.us_socket_local_port(socket as never));
      }),
    );
  }

  private answer(res: HttpResponse, method: string, url: string): void {
    const cors = (response: HttpResponse) =>
      response
        .writeHeader('access-control-allow-origin', '*')
        .writeHeader('access-control-allow-methods', 'GET, HEAD, OPTIONS')
        .writeHeader('access-control-allow-headers', 'content-type');
    if (method === 'OPTIONS') return void cors(res.writeStatus('200 OK')).end();
    if (method !== 'GET' && method !== 'HEAD') {
      const body = { code: 405, error: 'Method Not Allowed', debug: `${method} is not served here` };
      return void cors(res.writeStatus('405 Method Not Allowed')).writeHeader('content-type', 'application/json').end(JSON.stringify(body));
    }
    let path: string;
    try {
      path = decodeURIComponent(url);
    } catch {
      path = url;
    }
    const answer =
      this.facts === undefined
        ? { status: 404 as const, body: { code: 404, error: 'Not Found', debug: 'starting' } }
        : answerGet(path, this.view());
    const text = JSON.stringify(answer.body);
    cors(res.writeStatus(answer.status === 200 ? '200 OK' : '404 Not Found')).writeHeader('content-type', 'application/json');
    if (method === 'HEAD') return void res.endWithoutBody(Buffer.byteLength(text));
    res.end(text);
  }

  /** A throw in a uWS callback ends the process, and these requests come from anyone who reaches the port. */
  private guarded(res: HttpResponse, handle: () => void): void {
    try {
      handle();
    } catch (error) {
      this.refusals.warn(`an NMOS request failed: ${reasonOf(error)}`);
      try {
        res.writeStatus('500 Internal Server Error').end(JSON.stringify({ code: 500, error: 'Internal Server Error', debug: null }), true);
      } catch {
        // Answered (or gone) already.
      }
    }
  }
}
