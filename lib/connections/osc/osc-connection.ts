/**
 * A running `osc` connection: the addresses it lists and learns as parameters, set by what it
 * hears and sent when written, over a UDP or TCP transport (transports.ts), and the OSCQuery
 * server it runs when asked (oscquery.ts).
 */
import {
  type Access,
  DeviceLink,
  DeviceParameters,
  type DeviceSend,
  Overruns,
  type OwnedParameter,
  parameterIdOf,
  SparseLog,
  type TypedInstance,
  type Value,
  type ValueType,
} from '../../sdk/index.ts';
import type { ServingContext } from '../serving.ts';
import { encodeWrite, type OscMessage, readPacket, typeOfTag, valueOfArgument } from './packets.ts';
import { OscQueryServer } from './oscquery.ts';
import type { OscSettings } from './settings.ts';
import { type OscTransport, type PacketHandlers, TcpTransport, UdpTransport } from './transports.ts';

const OVERRUN_KINDS = ['size', 'parameters'] as const;

/** An address the connection answers to, and the parameter it sets. */
interface Bound {
  readonly parameter: OwnedParameter;
  readonly access: Access;
}

export class OscConnection implements TypedInstance<OscSettings> {
  private readonly overruns: Overruns<(typeof OVERRUN_KINDS)[number]>;
  private readonly refusals: SparseLog;
  private readonly counts = { received: 0, sent: 0, malformed: 0, unconverted: 0, unmatched: 0 };
  private readonly bound = new Map<string, Bound>();
  private transport: OscTransport | undefined;
  private link: DeviceLink | undefined;
  private parameters: DeviceParameters | undefined;
  private oscQuery: OscQueryServer | undefined;

  constructor(
    private readonly context: ServingContext,
    private readonly settings: OscSettings,
  ) {
    this.overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
    this.refusals = new SparseLog(context.log, context.scheduler, 'dropped');
  }

  async start(): Promise<void> {
    const { transport: kind, port, bindIp } = this.settings;
    const link = this.open();
    const linked = link.start();
    if (kind === 'udp')
      this.context.log.info(`receiving OSC on ${bindIp || '*'}:${port || 'a free port'}; lets in ${this.settings.peers.describe()}`);
    if (this.settings.oscQuery) await this.startOscQuery(this.settings.oscQuery);
    return linked;
  }

  async stop(): Promise<void> {
    this.oscQuery?.stop();
    this.oscQuery = undefined;
    this.overruns.stop();
    await this.link?.stop();
    this.link = undefined;
    this.transport = undefined;
    this.bound.clear();
  }

  details(): Readonly<Record<string, unknown>> {
    const { counts, overruns, oscQuery } = this;
    return {
      transport: this.settings.transport,
      ...this.where(),
      up: this.link?.up ?? false,
      received: counts.received,
      sent: counts.sent,
      parameters: this.parameters?.size ?? 0,
      dropped: {
        malformed: counts.malformed,
        size: overruns.counts.size,
        parameters: overruns.counts.parameters,
        unconverted: counts.unconverted,
      },
      unmatched: counts.unmatched,
      ...(oscQuery ? { oscQuery: { port: oscQuery.port, listeners: oscQuery.listeners, malformed: oscQuery.malformed } } : {}),
    };
  }

  /** Its transport, its link over it and the parameters of its listed addresses, made. */
  private open(): DeviceLink {
    const { transport: kind, port, bindIp, host, sendPort, maxPacketBytes: maxBytes } = this.settings;
    const handlers: PacketHandlers = {
      packet: (packet, peer) => this.packet(packet, peer),
      tooLarge: (bytes, peer) => this.tooLarge(bytes, peer),
    };
    const transport =
      kind === 'tcp'
        ? new TcpTransport({ host, port, maxBytes }, handlers)
        : new UdpTransport({ port, bindIp, host, sendPort, maxBytes, allow: this.settings.peers }, handlers);
    this.transport = transport;
    const link = new DeviceLink(transport, {
      scheduler: this.context.scheduler,
      status: this.overruns.status,
      timeoutMs: this.settings.timeout,
      fence: this.context.fence,
    });
    this.link = link;
    const parameters = new DeviceParameters(this.context, link, this.overruns, this.settings.maxParameters);
    this.parameters = parameters;
    for (const entry of this.settings.addresses) {
      const parameter = parameters.define(entry.id, entry, this.sendTo(entry.address, entry.type), { echoes: false });
      if (parameter) this.bound.set(entry.address, { parameter, access: entry.access });
    }
    return link;
  }

  /** Where it is reached: the port it receives on (UDP), or the device it connects to (TCP). */
  private where(): Readonly<Record<string, unknown>> {
    const { transport } = this;
    if (transport instanceof UdpTransport) return { port: transport.localPort, refusedPeers: transport.refusedPeers };
    return this.settings.transport === 'udp' ? { port: 0 } : { host: this.settings.host, port: this.settings.port };
  }

  private sendTo(address: string, type: ValueType): DeviceSend {
    return (value: Value, confirm) => {
      const packet = encodeWrite(address, type, value);
      this.transport?.send(packet, (error) => {
        if (error === undefined) this.counts.sent++;
        confirm(error);
      });
    };
  }

  private packet(packet: Buffer, peer: string): void {
    const origin = `osc ${peer}`;
    const outcome = readPacket(packet, (message) => this.message(message, peer, origin));
    if (!outcome.ok) {
      this.counts.malformed++;
      this.refusals.warn(`a malformed OSC packet of ${packet.length} bytes from ${peer}: ${outcome.reason}`);
    }
  }

  /** Sets the parameter of a message's address, learning it when asked; an address of the hub's namespace is the OSCQuery server's. */
  private message(message: OscMessage, peer: string, origin: string): void {
    this.counts.received++;
    const listed = this.bound.get(message.address);
    // An address of the hub's namespace (R-DS2) is a hub write; a listed one stays the connection's own.
    if (!listed && this.oscQuery?.received(message, origin)) return;
    const target = listed ?? (this.settings.learn ? this.learn(message) : undefined);
    if (!target) return void this.counts.unmatched++;
    if (target.access === 'write-only') return;
    const reported = target.parameter.report(valueOfArgument(message.firstTag, message.first), origin);
    if (!reported.ok) {
      this.counts.unconverted++;
      this.refusals.warn(`${message.address} from ${peer}: ${reported.error.message}`);
    }
  }

  private tooLarge(bytes: number, peer: string): void {
    this.overruns.dropped('size', `a packet of ${bytes} bytes from ${peer} is over maxPacketBytes (${this.settings.maxPacketBytes})`);
  }

  /** A parameter for an address heard first, typed by its first argument; undefined when it makes none. */
  private learn(message: OscMessage): Bound | undefined {
    const type = typeOfTag(message.firstTag);
    if (type === undefined) {
      this.refusals.warn(`${message.address} is not learned: its first argument's type "${message.firstTag}" is none of i f s T F`);
      return undefined;
    }
    const id = parameterIdOf(message.address.slice(1).split('/'));
    // Another address made this id already (they differ in characters an id cannot hold).
    if (id === undefined || this.parameters?.get(id)) {
      this.refusals.warn(`${message.address} is not learned: it makes no parameter id of its own`);
      return undefined;
    }
    const parameter = this.parameters?.define(id, { type, access: 'read-write' }, this.sendTo(message.address, type), { echoes: false });
    if (!parameter) return undefined;
    const made = { parameter, access: 'read-write' as const };
    this.bound.set(message.address, made);
    return made;
  }

  private async startOscQuery(asked: NonNullable<OscSettings['oscQuery']>): Promise<void> {
    const { context, settings } = this;
    this.oscQuery = new OscQueryServer(
      context.hub.graph,
      asked,
      {
        name: `patchbay ${context.id}`,
        transport: settings.transport === 'tcp' ? 'TCP' : 'UDP',
        port: () => (settings.transport === 'udp' ? this.transport?.localPort : undefined),
      },
      context.log,
      context.scheduler,
    );
    const port = await this.oscQuery.start();
    const { expose, write } = asked.written;
    context.log.info(
      `OSCQuery on http://${asked.bindIp || '0.0.0.0'}:${port}: shows ${expose.join(' ')}; ${write.length > 0 ? `writes ${write.join(' ')}` : 'takes no writes'}`,
    );
    if (asked.bindIp === '' && write.length > 0)
      context.log.warn(
        'OSCQuery takes writes from every machine that reaches this one: set oscQuery.bindIp (such as 127.0.0.1) or narrow oscQuery.write',
      );
  }
}
