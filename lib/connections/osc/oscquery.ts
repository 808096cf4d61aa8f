/**
 * OSCQuery (R-DS2) on an `osc` connection: the hub's parameters that `oscQuery.expose`
 * matches, served as an OSCQuery namespace over HTTP — each parameter `/<address>` with
 * TYPE, VALUE, ACCESS and DESCRIPTION, HOST_INFO at `/?HOST_INFO` — and `LISTEN` / `IGNORE`
 * over a WebSocket on the same port, which then carries each change as an OSC message. An
 * OSC message for `/<address>` (on the connection's socket, or binary on the WebSocket) is a
 * hub write, for parameters `oscQuery.write` matches and that take writes. No mDNS: tools
 * are pointed at the port (it is optional in OSCQuery, and off here by design).
 */
import type { Subscription } from 'rxjs';
import type { AddressPatterns } from '../../core/address-pattern.ts';
import type { Value, ValueType } from '../../core/value.ts';
import { HubError, type Logger, type Scheduler } from '../../sdk/index.ts';
import { SparseLog } from '../../core/sparse-log.ts';
import type { Graph, Reading } from '../serving.ts';
import {
  closeEverySocket,
  type HttpResponse,
  listenExclusive,
  type ListenSocket,
  type TemplatedApp,
  uws,
  type WebSocket,
} from '../../http/uws.ts';
import { encodeWrite, type OscMessage, readPacket, valueOfArgument } from './packets.ts';

export interface OscQuerySettings {
  readonly port: number;
  readonly bindIp: string;
  readonly expose: AddressPatterns;
  readonly write: AddressPatterns;
  /** The patterns as written, for the log. */
  readonly written: { readonly expose: readonly string[]; readonly write: readonly string[] };
}

/** What the namespace says of the OSC side: where OSC messages go. */
export interface OscSide {
  readonly name: string;
  readonly transport: 'UDP' | 'TCP';
  /** The connection's UDP port, where OSC messages are taken; undefined over TCP (the hub connects out). */
  port(): number | undefined;
}

/** Parameters one WebSocket client may listen to at once. */
const LISTENS_AT_MOST = 10_000;
/** WebSocket clients at once. */
const CLIENTS_AT_MOST = 64;

/** OSC type tags of the hub's value types: a trigger is an OSC message without arguments (`N` in the namespace). */
const TYPE_TAG: Readonly<Record<ValueType, string>> = { S: 's', I: 'i', F: 'f', B: 'T', T: 'N' };
const typeNames: Readonly<Record<ValueType, string>> = { S: 'string', I: 'integer', F: 'float', B: 'boolean', T: 'trigger' };

interface Client {
  readonly listening: Map<string, Subscription>;
}

/** An OSCQuery node: a container (`CONTENTS`), a parameter (`TYPE`…), or both. */
interface NamespaceNode {
  FULL_PATH: string;
  CONTENTS?: Record<string, NamespaceNode>;
  TYPE?: string;
  VALUE?: unknown[];
  ACCESS?: number;
  DESCRIPTION?: string;
}

export class OscQueryServer {
  private app: TemplatedApp | undefined;
  private socket: ListenSocket | undefined;
  private readonly clients = new Set<WebSocket<Client>>();
  private readonly refusals: SparseLog;
  private portListening = 0;
  private removals: Subscription | undefined;

  constructor(
    private readonly graph: Graph,
    private readonly settings: OscQuerySettings,
    private readonly osc: OscSide,
    log: Logger,
    scheduler: Scheduler,
  ) {
    this.refusals = new SparseLog(log, scheduler, 'refused');
  }

  get port(): number {
    return this.portListening;
  }

  get listeners(): number {
    return this.clients.size;
  }

  /** Listens; resolves with the port. */
  start(): Promise<number> {
    const app = uws.App();
    this.app = app;
    app.get('/*', (res, req) => {
      const path = decodeURIComponent(req.getUrl());
      const query = req.getQuery() ?? '';
      this.answer(res, path, query);
    });
    app.ws<Client>('/*', {
      maxPayloadLength: 64 * 1024,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => {
        if (this.clients.size >= CLIENTS_AT_MOST) {
          res.writeStatus('503 Service Unavailable').end(`at most ${CLIENTS_AT_MOST} listeners`);
          return;
        }
        res.upgrade<Client>(
          { listening: new Map() },
          req.getHeader('sec-websocket-key'),
          req.getHeader('sec-websocket-protocol'),
          req.getHeader('sec-websocket-extensions'),
          context,
        );
      },
      open: (ws) => void this.clients.add(ws),
      message: (ws, message, binary) =>
        binary ? this.oscFrom(ws, Buffer.from(message)) : this.command(ws, Buffer.from(message).toString('utf8')),
      close: (ws) => {
        this.clients.delete(ws);
        for (const subscription of ws.getUserData().listening.values()) subscription.unsubscribe();
      },
    });
    // A parameter that goes is no longer sent: its listeners are let go of it.
    this.removals = this.graph.removed$.subscribe((parameter) => {
      for (const ws of this.clients) {
        const path = `/${parameter.address}`;
        ws.getUserData().listening.get(path)?.unsubscribe();
        ws.getUserData().listening.delete(path);
      }
    });
    const { bindIp, port } = this.settings;
    return new Promise((resolve, reject) =>
      listenExclusive(app, bindIp, port, (socket) => {
        if (!socket) return reject(new HubError('PB_PORT_UNAVAILABLE', `OSCQuery cannot listen on ${bindIp || '*'}:${port}`));
        this.socket = socket;
        this.portListening = uws.us_socket_local_port(socket as never);
        resolve(this.portListening);
      }),
    );
  }

  stop(): void {
    this.removals?.unsubscribe();
    for (const ws of [...this.clients]) ws.end(1001, 'connection stopping');
    this.clients.clear();
    if (this.socket) uws.us_listen_socket_close(this.socket);
    this.socket = undefined;
    // HTTP connections kept alive go too: none is served by settings this server no longer has.
    if (this.app) closeEverySocket(this.app);
    this.app = undefined;
  }

  /**
   * An OSC message heard on the connection's own socket: a hub write when its address is
   * `/<address>` of a parameter the namespace lets be written. False when it names none.
   */
  received(message: OscMessage, origin: string): boolean {
    const address = message.address.slice(1);
    const parameter = this.graph.get(address);
    if (!parameter || !this.settings.expose.matches(address)) return false;
    if (!this.writable(parameter)) {
      this.refusals.warn(
        `OSC write to ${message.address} from ${origin.slice('osc '.length)} refused: oscQuery.write does not let it be written, or it is read-only`,
      );
      return true;
    }
    const written = this.graph.write(address, valueOfArgument(message.firstTag, message.first), origin);
    if (!written.ok)
      this.refusals.warn(`OSC write to ${message.address} from ${origin.slice('osc '.length)} refused: ${written.error.message}`);
    return true;
  }

  /** HTTP: the namespace from `path` down, one of its attributes, or HOST_INFO. */
  private answer(res: HttpResponse, path: string, query: string): void {
    const json = (status: string, body: unknown): void =>
      void res.cork(() => res.writeStatus(status).writeHeader('Content-Type', 'application/json').end(JSON.stringify(body)));
    if (query === 'HOST_INFO') return json('200 OK', this.hostInfo());
    const node = this.nodeAt(path === '' ? '/' : path);
    if (!node) return json('404 Not Found', { error: `nothing at ${path}` });
    if (query === '') return json('200 OK', node);
    const attribute = query.split('&')[0] as keyof NamespaceNode;
    if (!(attribute in node)) {
      res.cork(() => res.writeStatus('204 No Content').end());
      return;
    }
    json('200 OK', { [attribute]: node[attribute] });
  }

  private hostInfo(): Record<string, unknown> {
    const oscPort = this.osc.port();
    return {
      NAME: this.osc.name,
      EXTENSIONS: {
        ACCESS: true,
        VALUE: true,
        RANGE: false,
        DESCRIPTION: true,
        TAGS: false,
        CLIPMODE: false,
        UNIT: false,
        LISTEN: true,
        PATH_CHANGED: false,
      },
      OSC_TRANSPORT: this.osc.transport,
      ...(oscPort === undefined ? {} : { OSC_PORT: oscPort }),
    };
  }

  /** The namespace below `path`: made from the graph on each request, so it is never stale. */
  private nodeAt(path: string): NamespaceNode | undefined {
    const root: NamespaceNode = { FULL_PATH: '/', CONTENTS: {} };
    const prefix = path === '/' ? '' : path.slice(1);
    let found = path === '/';
    for (const reading of this.graph.readings()) {
      const address = reading.address;
      if (prefix !== '' && address !== prefix && !address.startsWith(`${prefix}/`)) continue;
      if (!this.settings.expose.matches(address)) continue;
      found = true;
      let node = root;
      let full = '';
      for (const segment of address.split('/')) {
        full += `/${segment}`;
        node.CONTENTS ??= {};
        node = node.CONTENTS[segment] ??= { FULL_PATH: full };
      }
      Object.assign(node, this.describe(reading));
    }
    if (!found) return undefined;
    let node: NamespaceNode | undefined = root;
    for (const segment of prefix === '' ? [] : prefix.split('/')) node = node?.CONTENTS?.[segment];
    return node;
  }

  private describe(parameter: Reading): Omit<NamespaceNode, 'FULL_PATH'> {
    // A trigger has no value, but its fires can be listened to.
    const readable = parameter.access !== 'write-only';
    const access = (readable ? 1 : 0) + (this.writable(parameter) ? 2 : 0);
    return {
      TYPE: TYPE_TAG[parameter.type],
      ...(readable && parameter.value !== undefined ? { VALUE: [parameter.value] } : {}),
      ACCESS: access,
      DESCRIPTION: `${parameter.address}: ${typeNames[parameter.type]}${access === 1 ? ', read-only here' : access === 2 ? ', write-only' : ''}`,
    };
  }

  private writable(parameter: Reading): boolean {
    return parameter.access !== 'read-only' && this.settings.write.matches(parameter.address);
  }

  /** `{"COMMAND": "LISTEN" | "IGNORE", "DATA": "/<address>"}`. */
  private command(ws: WebSocket<Client>, text: string): void {
    let asked: { COMMAND?: unknown; DATA?: unknown };
    try {
      asked = JSON.parse(text) as typeof asked;
    } catch {
      return;
    }
    const path = typeof asked.DATA === 'string' ? asked.DATA : '';
    const { listening } = ws.getUserData();
    if (asked.COMMAND === 'IGNORE') {
      listening.get(path)?.unsubscribe();
      listening.delete(path);
      return;
    }
    if (asked.COMMAND !== 'LISTEN' || listening.has(path) || listening.size >= LISTENS_AT_MOST) return;
    const address = path.slice(1);
    const parameter = this.graph.get(address);
    if (!parameter || !this.settings.expose.matches(address) || parameter.access === 'write-only') return;
    listening.set(
      path,
      parameter.changes$.subscribe((value: Value) => {
        try {
          ws.send(encodeWrite(path, parameter.type, value), true);
        } catch {
          // Gone: its close lets go of the subscription.
        }
      }),
    );
  }

  /** An OSC packet on the WebSocket: its messages are writes, as on the connection's socket. */
  private oscFrom(ws: WebSocket<Client>, packet: Buffer): void {
    const origin = `osc ${Buffer.from(ws.getRemoteAddressAsText()).toString()}`;
    const outcome = readPacket(packet, (message) => void this.received(message, origin));
    if (!outcome.ok) this.refusals.warn(`a malformed OSC packet on the OSCQuery WebSocket: ${outcome.reason}`);
  }
}
