/**
 * OSCQuery (R-DS2) on an `osc` connection: the hub's parameters that `oscQuery.expose`
 * matches, served as an OSCQuery namespace over HTTP — each parameter `/<address>` with
 * TYPE, VALUE, ACCESS and DESCRIPTION, HOST_INFO at `/?HOST_INFO` — and `LISTEN` / `IGNORE`
 * over a WebSocket on the same port, which then carries each change as an OSC message. An
 * OSC message for `/<address>` (on the connection's socket, or binary on the WebSocket) is a
 * hub write, for parameters `oscQuery.write` matches and that take writes. No mDNS: tools
 * are pointed at the port (it is optional in OSCQuery, and off here by design).
 */
import type { SchedulerAction, Subscription } from 'rxjs';
import {
  headline,
  HubError,
  type Logger,
  reasonOf,
  type Scheduler,
  type AddressPatterns,
  type Value,
  type ValueType,
  SparseLog,
} from '../../sdk/index.ts';
import { corsHeaders } from '../../http/origins.ts';
import { answerWith, type CodedError, sendError } from '../../http/respond.ts';
import type { Graph, Reading } from '../serving.ts';
import {
  closeEverySocket,
  type HttpRequest,
  type HttpResponse,
  listenExclusive,
  type ListenSocket,
  type TemplatedApp,
  uws,
  type WebSocket,
} from '../../http/uws.ts';
import { NamespaceIndex } from './namespace-index.ts';
import type { Attributes } from './namespace-text.ts';
import { NamespaceAnswers } from './oscquery-answers.ts';
import { parseOscQueryCommand } from './oscquery-command.ts';
import { type Knock, OscQueryGate } from './oscquery-gate.ts';
import { encodeWrite, type OscMessage, readPacket, valueOfArgument } from './packets.ts';

export interface OscQuerySettings {
  readonly port: number;
  readonly bindIp: string;
  readonly expose: AddressPatterns;
  readonly write: AddressPatterns;
  /** Origins of web pages let in (`scheme://host[:port]`); a request without `Origin` is always let in. */
  readonly origins: readonly string[];
  /** Names besides IP addresses, localhost and the machine's own that requests may be sent to. */
  readonly hostnames: readonly string[];
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
/** WebSocket clients at once from one address: one machine cannot take every slot. */
export const CLIENTS_PER_ADDRESS = 8;
/** A client that listens to nothing and has said nothing for this long is let go: it holds a slot for nothing. */
export const IDLE_MS = 60_000;

/** OSC type tags of the hub's value types: a trigger is an OSC message without arguments (`N` in the namespace). */
const TYPE_TAG: Readonly<Record<ValueType, string>> = { S: 's', I: 'i', F: 'f', B: 'T', T: 'N' };
const typeNames: Readonly<Record<ValueType, string>> = { S: 'string', I: 'integer', F: 'float', B: 'boolean', T: 'trigger' };

interface Client {
  readonly listening: Map<string, Subscription>;
  readonly peer: string;
  /** When it last sent anything (scheduler time). */
  heard: number;
}

export class OscQueryServer {
  private app: TemplatedApp | undefined;
  private socket: ListenSocket | undefined;
  private readonly clients = new Set<WebSocket<Client>>();
  private readonly perAddress = new Map<string, number>();
  private readonly refusals: SparseLog;
  private readonly gate: OscQueryGate;
  private portListening = 0;
  private index: NamespaceIndex | undefined;
  private answers: NamespaceAnswers | undefined;
  private removals: Subscription | undefined;
  private sweep: Subscription | undefined;
  /** WebSocket texts that were no command, since the start. */
  private malformedCount = 0;

  constructor(
    private readonly graph: Graph,
    private readonly settings: OscQuerySettings,
    private readonly osc: OscSide,
    private readonly log: Logger,
    private readonly scheduler: Scheduler,
  ) {
    this.refusals = new SparseLog(log, scheduler, 'refused');
    this.gate = new OscQueryGate(settings.origins, settings.hostnames);
  }

  get port(): number {
    return this.portListening;
  }

  get listeners(): number {
    return this.clients.size;
  }

  get malformed(): number {
    return this.malformedCount;
  }

  /** Listens; resolves with the port. */
  start(): Promise<number> {
    const app = uws.App();
    this.app = app;
    const index = new NamespaceIndex(this.graph, this.settings.expose);
    this.index = index;
    const answers = new NamespaceAnswers(
      index,
      (node) => {
        const reading = index.current(node);
        return reading && this.describe(reading);
      },
      () => this.hostInfo(),
      this.log,
    );
    this.answers = answers;
    app.get('/*', (res, req) =>
      this.guarded(res, () => {
        const verdict = this.gate.judge(knockOf(req));
        if (verdict.refused) return sendError(res, verdict.refused, true);
        if (verdict.cors) answerWith(res, corsHeaders(verdict.cors));
        const path = decodedPath(req.getUrl());
        if (path === undefined) return sendError(res, MALFORMED_PATH, true);
        answers.answer(res, path, req.getQuery() ?? '');
      }),
    );
    app.ws<Client>('/*', {
      maxPayloadLength: 64 * 1024,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) =>
        this.guarded(res, () => {
          const verdict = this.gate.judge(knockOf(req));
          if (verdict.refused) return sendError(res, verdict.refused, true, { close: true });
          const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
          if (this.clients.size >= CLIENTS_AT_MOST)
            return void res.writeStatus('503 Service Unavailable').end(`at most ${CLIENTS_AT_MOST} listeners`, true);
          if ((this.perAddress.get(peer) ?? 0) >= CLIENTS_PER_ADDRESS)
            return void res.writeStatus('503 Service Unavailable').end(`at most ${CLIENTS_PER_ADDRESS} listeners from one address`, true);
          res.upgrade<Client>(
            { listening: new Map(), peer, heard: this.scheduler.now() },
            req.getHeader('sec-websocket-key'),
            req.getHeader('sec-websocket-protocol'),
            req.getHeader('sec-websocket-extensions'),
            context,
          );
        }),
      open: (ws) => {
        this.clients.add(ws);
        const { peer } = ws.getUserData();
        this.perAddress.set(peer, (this.perAddress.get(peer) ?? 0) + 1);
      },
      message: (ws, message, binary) => {
        try {
          ws.getUserData().heard = this.scheduler.now();
          if (binary) this.oscFrom(ws, Buffer.from(message));
          else this.command(ws, Buffer.from(message).toString('utf8'));
        } catch (error) {
          this.refusals.warn(`an OSCQuery WebSocket message failed: ${reasonOf(error)}`);
        }
      },
      close: (ws) => {
        this.clients.delete(ws);
        const { peer, listening } = ws.getUserData();
        const left = (this.perAddress.get(peer) ?? 1) - 1;
        if (left > 0) this.perAddress.set(peer, left);
        else this.perAddress.delete(peer);
        for (const subscription of listening.values()) subscription.unsubscribe();
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
    const server = this;
    this.sweep = this.scheduler.schedule(function (this: SchedulerAction<unknown>) {
      server.dropIdle();
      this.schedule(undefined, IDLE_MS / 2);
    }, IDLE_MS / 2);
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
    this.sweep?.unsubscribe();
    this.index?.stop();
    this.answers?.stop();
    for (const ws of [...this.clients]) ws.end(1001, 'connection stopping');
    this.clients.clear();
    this.perAddress.clear();
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

  private hostInfo(): Attributes {
    const oscPort = this.osc.port();
    return {
      NAME: this.osc.name,
      EXTENSIONS: {
        ACCESS: true,
        VALUE: true,
        RANGE: true,
        DESCRIPTION: true,
        TAGS: false,
        CLIPMODE: false,
        UNIT: true,
        LISTEN: true,
        PATH_CHANGED: false,
      },
      OSC_TRANSPORT: this.osc.transport,
      ...(oscPort === undefined ? {} : { OSC_PORT: oscPort }),
    };
  }

  private describe(parameter: Reading): Attributes {
    // A trigger has no value, but its fires can be listened to.
    const readable = parameter.access !== 'write-only';
    const access = (readable ? 1 : 0) + (this.writable(parameter) ? 2 : 0);
    const { meta } = parameter;
    const said = `${parameter.address}: ${typeNames[parameter.type]}${access === 1 ? ', read-only here' : access === 2 ? ', write-only' : ''}`;
    return {
      TYPE: TYPE_TAG[parameter.type],
      ...(readable && parameter.value !== undefined ? { VALUE: [parameter.value] } : {}),
      ACCESS: access,
      // What it says of itself (R-PK6): its label and description first, then what it is here.
      DESCRIPTION: meta && headline(meta) ? `${headline(meta)} (${said})` : said,
      // RANGE and UNIT of its one argument, as OSCQuery writes them: `[{MIN, MAX, VALS}]`, `[unit]`.
      ...(meta?.minimum === undefined && meta?.maximum === undefined && meta?.choices === undefined
        ? {}
        : {
            RANGE: [
              {
                ...(meta.minimum === undefined ? {} : { MIN: meta.minimum }),
                ...(meta.maximum === undefined ? {} : { MAX: meta.maximum }),
                ...(meta.choices === undefined ? {} : { VALS: meta.choices.map((choice) => choice.value) }),
              },
            ],
          }),
      ...(meta?.unit === undefined ? {} : { UNIT: [meta.unit] }),
    };
  }

  private writable(parameter: Reading): boolean {
    return parameter.access !== 'read-only' && this.settings.write.matches(parameter.address);
  }

  /** `{"COMMAND": "LISTEN" | "IGNORE", "DATA": "/<address>"}`; anything else is counted, logged and ignored. */
  private command(ws: WebSocket<Client>, text: string): void {
    const asked = parseOscQueryCommand(text);
    const { listening, peer } = ws.getUserData();
    if ('reason' in asked) {
      this.malformedCount++;
      return this.refusals.warn(`a malformed OSCQuery command from ${peer} ignored: ${asked.reason}`);
    }
    const { command, path } = asked;
    if (command === 'IGNORE') {
      listening.get(path)?.unsubscribe();
      listening.delete(path);
      return;
    }
    if (listening.has(path) || listening.size >= LISTENS_AT_MOST) return;
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

  /** Lets go of the clients that listen to nothing and have been silent for IDLE_MS: they hold slots for nothing. */
  private dropIdle(): void {
    const now = this.scheduler.now();
    for (const ws of [...this.clients]) {
      const client = ws.getUserData();
      if (client.listening.size === 0 && now - client.heard >= IDLE_MS) ws.end(1000, 'idle: listened to nothing');
    }
  }

  /**
   * Runs a uWS handler so that nothing it throws leaves it: a throw in a uWS callback ends
   * the process, and these requests come from anyone who reaches the port (issue 60, 3).
   */
  private guarded(res: HttpResponse, handle: () => void): void {
    try {
      handle();
    } catch (error) {
      this.refusals.warn(`an OSCQuery request failed: ${reasonOf(error)}`);
      try {
        sendError(res, { code: 'PB_INTERNAL', message: 'the request failed; the hub log says why' }, true, { close: true });
      } catch {
        // Answered (or gone) already.
      }
    }
  }

  /** An OSC packet on the WebSocket: its messages are writes, as on the connection's socket. */
  private oscFrom(ws: WebSocket<Client>, packet: Buffer): void {
    const origin = `osc ${Buffer.from(ws.getRemoteAddressAsText()).toString()}`;
    const outcome = readPacket(packet, (message) => void this.received(message, origin));
    if (!outcome.ok) this.refusals.warn(`a malformed OSC packet on the OSCQuery WebSocket: ${outcome.reason}`);
  }
}

const MALFORMED_PATH: CodedError = { code: 'PB_BAD_REQUEST', message: 'the path is not percent-encoded UTF-8' };

/** What the gate reads of a request, copied before the handler returns. */
function knockOf(req: HttpRequest): Knock {
  return { host: req.getHeader('host'), origin: req.getHeader('origin'), fetchSite: req.getHeader('sec-fetch-site') };
}

/** A request's path decoded, or undefined when it does not decode (a stray `%`, bytes that are not UTF-8). */
function decodedPath(url: string): string | undefined {
  try {
    return decodeURIComponent(url);
  } catch {
    return undefined;
  }
}
