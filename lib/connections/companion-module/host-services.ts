/**
 * What a module's base asks of its host beyond definitions and values (R-CM7), each working
 * or refused by name:
 * - OSC sent (`oscSend`) and a UDP port that several modules share (`createSharedUdpSocket`:
 *   a protocol whose devices answer to one fixed port, as Companion shares it between its
 *   connections) work as in Companion: OSC leaves from a socket of the connection's own with
 *   broadcast on; a shared port is one socket of the hub's, bound on every address, whose
 *   datagrams reach every module that joined it.
 * - Companion's custom variables (its own, shared by its connections) are refused, said once
 *   a variable in the log: the hub has parameters instead.
 * - The module's HTTP handler (Companion serves it under `/instance/<label>/`) is said in the
 *   log once, as not routed.
 * - Recording a button's actions is asked only while Companion records, which the hub never
 *   does: dropped.
 *
 * A port is the network's to flood: past `MOST_DATAGRAMS_A_SECOND` a second a port's
 * datagrams are dropped and counted, so a flood costs the hub a count, not a message to
 * each module. A module joins at most `MOST_JOINS` ports at a time.
 */
import { randomUUID } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { encode as encodeOsc } from 'node-osc';
import { HubError, type PayloadOf, PerSecond, reasonOf } from '../../sdk/index.ts';
import type { HostToModule } from './companion-wire.ts';

/** Datagrams a shared port hands on in a second; the rest are dropped and counted. */
export const MOST_DATAGRAMS_A_SECOND = 1000;
/** Shared ports one connection may have joined at a time. */
export const MOST_JOINS = 64;

/** Tells the module what came on a port it shares, or what failed there (the base's own messages). */
type Tell = <K extends 'sharedUdpSocketMessage' | 'sharedUdpSocketError'>(name: K, payload: PayloadOf<HostToModule, K>) => void;

/** One shared UDP port of the hub: its socket, and the modules that joined it. */
class SharedPort {
  readonly handles = new Map<string, Tell>();
  dropped = 0;
  private readonly perSecond = new PerSecond(MOST_DATAGRAMS_A_SECOND);

  private constructor(
    readonly key: string,
    readonly socket: Socket,
    readonly portNumber: number,
  ) {
    socket.on('message', (message, source) => this.received(message, source));
    socket.on('error', (error) => {
      for (const [handleId, tell] of this.handles) tell('sharedUdpSocketError', { handleId, portNumber, error });
      this.close();
    });
  }

  static async open(family: 'udp4' | 'udp6', portNumber: number): Promise<SharedPort> {
    const key = `${family}:${portNumber}`;
    const open = ports.get(key);
    if (open) return open;
    // Not reuseAddr: the port is the hub's alone (one socket a port serves every module in this process);
    // with it, another user's process bound the same port and took the datagrams.
    const socket = createSocket({ type: family });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(portNumber, () => {
        socket.off('error', reject);
        resolve();
      });
    }).catch((error: unknown) => {
      socket.close();
      throw new HubError('PB_START_FAILED', `UDP port ${portNumber} cannot be opened: ${reasonOf(error)}`);
    });
    socket.setBroadcast(true);
    // Another join may have opened it meanwhile: one socket a port.
    const raced = ports.get(key);
    if (raced) {
      socket.close();
      return raced;
    }
    const port = new SharedPort(key, socket, portNumber);
    ports.set(key, port);
    return port;
  }

  leave(handleId: string): void {
    this.handles.delete(handleId);
    if (this.handles.size === 0) this.close();
  }

  private received(message: Buffer, source: RemoteInfo): void {
    if (!this.perSecond.take()) return void this.dropped++;
    for (const [handleId, tell] of this.handles) tell('sharedUdpSocketMessage', { handleId, portNumber: this.portNumber, message, source });
  }

  private close(): void {
    if (ports.get(this.key) !== this) return;
    ports.delete(this.key);
    this.handles.clear();
    this.socket.close();
  }
}

/** The hub's shared ports, by family and number: shared by every module connection. */
const ports = new Map<string, SharedPort>();

/** An OSC argument as a module's base gives it: a value (numbers are floats), or `{type, value}`. */
function oscArguments(args: unknown): { type: string; value: unknown }[] {
  return (Array.isArray(args) ? args : [args]).map((arg: unknown) => {
    if (typeof arg === 'object' && arg !== null && !(arg instanceof Uint8Array) && 'type' in arg) {
      const { type, value } = arg as { type: unknown; value: unknown };
      if (type === 'i' || type === 'f' || type === 's' || type === 'b')
        return { type, value: type === 'b' ? Buffer.from(value as Uint8Array) : value };
      throw new Error(`an OSC argument of type ${JSON.stringify(type)}: the base sends i, f, s or b`);
    }
    if (typeof arg === 'number') return { type: 'f', value: arg };
    if (typeof arg === 'string') return { type: 's', value: arg };
    if (arg instanceof Uint8Array) return { type: 'b', value: Buffer.from(arg) };
    throw new Error(`an OSC argument that is ${arg === null ? 'null' : typeof arg}`);
  });
}

/** One module connection's services: the calls they answer, and their end. */
export class HostServices {
  private osc: Socket | undefined;
  /** The shared ports joined, by the handle the module holds. */
  private readonly joined = new Map<string, SharedPort>();
  private oscFailures = 0;
  private readonly refusals = new Set<string>();

  constructor(
    private readonly tell: Tell,
    private readonly warn: (text: string) => void,
  ) {}

  /** Datagrams of its shared ports dropped over the bound. */
  get dropped(): number {
    return [...new Set(this.joined.values())].reduce((sum, port) => sum + port.dropped, 0);
  }

  calls() {
    return {
      'send-osc': (payload: unknown) => this.sendOsc(payload as Record<string, unknown>),
      sharedUdpSocketJoin: (payload: unknown) => this.join(payload as Record<string, unknown>),
      sharedUdpSocketLeave: (payload: unknown) => this.leave(String((payload as Record<string, unknown>)?.handleId)),
      sharedUdpSocketSend: (payload: unknown) => this.send(payload as Record<string, unknown>),
      setCustomVariable: (payload: unknown) => {
        const name = String((payload as { customVariableId?: unknown } | undefined)?.customVariableId ?? '');
        this.refusedOnce(
          `custom:${name}`,
          `the module set Companion's custom variable "${name}": patchbay has no custom variables; bind a variable or a feedback to a parameter instead`,
        );
      },
      recordAction: () => {},
    };
  }

  /** What the module's `init` answered: whether it has an HTTP handler. */
  initAnswered(answer: { readonly hasHttpHandler?: boolean } | undefined): void {
    if (answer?.hasHttpHandler)
      this.refusedOnce('http', "the module answers HTTP requests under Companion's /instance/ paths; patchbay does not route them");
  }

  /** Says in the log, once for each `key` (the first 100), what the hub does not do for the module. */
  private refusedOnce(key: string, text: string): void {
    if (this.refusals.has(key) || this.refusals.size >= 100) return;
    this.refusals.add(key);
    this.warn(text);
  }

  stop(): void {
    for (const handleId of [...this.joined.keys()]) this.leave(handleId);
    this.osc?.close();
    this.osc = undefined;
  }

  private sendOsc({ host, port, path, args }: Record<string, unknown>): void {
    try {
      if (typeof host !== 'string' || typeof port !== 'number' || typeof path !== 'string')
        throw new Error('it needs a host, a port and a path');
      const packet = encodeOsc({ oscType: 'message', address: path, args: oscArguments(args) });
      if (!this.osc) {
        const socket = createSocket('udp4').on('error', (error) => this.oscFailed(reasonOf(error)));
        // Sends wait for the bind; broadcast can be set once bound.
        socket.bind(0, () => socket.setBroadcast(true));
        this.osc = socket;
      }
      this.osc.send(packet, port, host, (error) => error && this.oscFailed(reasonOf(error)));
    } catch (error) {
      this.oscFailed(reasonOf(error));
    }
  }

  /** A failed OSC send is the module's: said in the log, at most the first ten. */
  private oscFailed(reason: string): void {
    if (++this.oscFailures <= 10) this.warn(`the module's OSC message was not sent: ${reason}`);
  }

  private async join({ family, portNumber }: Record<string, unknown>): Promise<string> {
    if (family !== 'udp4' && family !== 'udp6') throw new Error(`a shared UDP socket of family ${JSON.stringify(family)}`);
    if (!Number.isInteger(portNumber) || (portNumber as number) < 1 || (portNumber as number) > 65535)
      throw new Error(`a shared UDP socket on port ${JSON.stringify(portNumber)}`);
    if (this.joined.size >= MOST_JOINS) throw new Error(`a module may join at most ${MOST_JOINS} shared UDP ports`);
    const port = await SharedPort.open(family, portNumber as number);
    const handleId = randomUUID();
    port.handles.set(handleId, this.tell);
    this.joined.set(handleId, port);
    return handleId;
  }

  private leave(handleId: string): void {
    this.joined.get(handleId)?.leave(handleId);
    this.joined.delete(handleId);
  }

  private async send({ handleId, message, address, port }: Record<string, unknown>): Promise<void> {
    const joined = this.joined.get(String(handleId));
    if (!joined) throw new Error('the shared UDP socket is not open');
    if (!(message instanceof Uint8Array) || typeof address !== 'string' || typeof port !== 'number')
      throw new Error('a datagram needs bytes, an address and a port');
    await new Promise<void>((resolve, reject) =>
      joined.socket.send(message, port, address, (error) => (error ? reject(error) : resolve())),
    );
  }
}
