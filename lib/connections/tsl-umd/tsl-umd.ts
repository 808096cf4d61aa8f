/**
 * `tsl-umd`: TSL UMD tally and under-monitor displays (R-SU1), v3.1 over UDP or v5.0 over
 * UDP or TCP.
 *
 * `mode: "receive"`: the hub listens on `port` and shows each display it hears (and those
 * listed in `displays` from the start) as read-only parameters — what a vision mixer's
 * tally says, for rules to carry to lamps, cameras and dashboards. Displays are made as
 * heard, at most `maxDisplays`: past it a new one takes the place of the display heard
 * longest ago once that one has gone unheard for `forgetAfter`, or else of one of the
 * sender holding the most displays, while it holds more than the new one's sender would
 * (heard-displays.ts). At most `MOST_DATAGRAMS_A_SECOND` datagrams are taken a second, and
 * over TCP, when `maxClients` are connected, a sender that has not sent one whole packet
 * gives its slot to a new one. `host`, when set, is the only sender taken.
 *
 * `mode: "send"`: the hub sends to `host`:`port` the displays listed in `displays`, whose
 * parameters are writable: a display's message goes whenever one of its parameters
 * changes (the changes of one turn in one message), to every display when the link comes
 * up, and every `repeat` ms when set. TSL has no answers: a write is taken once the message
 * is handed to the network. What it sends is kept across restarts (with a state folder):
 * a hub killed and started again shows the displays their last tally and text at once.
 *
 * Malformed packets are counted and logged sparsely at debug, never an error (R-G4).
 *
 * Parameters (v3.1, address 0–126; v5.0, `<screen>/<index>`):
 *   <display>/text          S   16 printable ASCII characters in v3.1; any text in v5.0
 *   <display>/brightness    I   0–3
 *   <address>/tally/1 … 4   B   v3.1
 *   <display>/tally/rh      I   v5.0 right-hand tally: 0 off, 1 red, 2 green, 3 amber
 *   <display>/tally/text    I   v5.0 text tally
 *   <display>/tally/lh      I   v5.0 left-hand tally
 */
import { isIP, type Socket } from 'node:net';
import {
  afterTurn,
  checked,
  defineConnectionType,
  DeviceLink,
  DeviceParameters,
  type DeviceSend,
  droppedMetric,
  every,
  HubError,
  type Issue,
  type LinkAttempt,
  type LinkProtocol,
  openListenerWarnings,
  Overruns,
  Peers,
  TcpConnection,
  TcpListener,
  UdpEndpoint,
  type Value,
  SparseLog,
} from '../../sdk/index.ts';
import { HeardDisplays } from './heard-displays.ts';
import { displayKey, FIELDS, type Field, matches, tslUmdSettings } from './settings.ts';
import { decodeV5, decodeV31, encodeV5, encodeV31, EVERY, V5StreamReader, wrapV5 } from './packets.ts';

/** A display's values, by field id. */
type DisplayValues = Map<string, Value>;

const OVERRUN_KINDS = ['displays', 'parameters', 'datagrams'] as const;
/**
 * Datagrams a receiver takes a second: a mixer naming a thousand displays three times a
 * second stays under it, and a flood past it costs the hub a bounded share of its loop.
 */
const MOST_DATAGRAMS_A_SECOND = 5000;

export const tslUmdType = defineConnectionType({
  type: 'tsl-umd',
  summary: 'TSL UMD tally and under-monitor displays, v3.1 or v5.0: received from a tally source, or sent to displays.',
  settings: tslUmdSettings,
  parse(written) {
    const issues: Issue[] = [];
    const displays: string[] = [];
    const texts: Record<string, string> = {};
    for (const [index, entry] of written.displays.entries()) {
      const key = displayKey(written.version, typeof entry === 'object' ? entry.display : entry);
      if (typeof key !== 'string') {
        issues.push({ path: typeof entry === 'object' ? ['displays', index, 'display'] : ['displays', index], message: key.problem });
        continue;
      }
      displays.push(key);
      if (typeof entry === 'object') texts[key] = entry.text;
    }
    if (new Set(displays).size !== displays.length) issues.push({ path: ['displays'], message: 'each display once' });
    if (written.transport === 'tcp' && written.version === '3.1')
      issues.push({ path: ['transport'], message: 'v3.1 travels over UDP only; tcp needs version "5.0"' });
    if (written.mode === 'send') {
      if (written.host === '') issues.push({ path: ['host'], message: 'expected the device to send to' });
      if (written.port === 0) issues.push({ path: ['port'], message: "expected the device's port" });
      if (written.displays.length === 0) issues.push({ path: ['displays'], message: 'expected the displays to send' });
      if (written.repeat > 0 && written.repeat < 50) issues.push({ path: ['repeat'], message: 'at least 50 ms, or 0 for no repeats' });
    }
    if (written.mode === 'receive' && written.host !== '' && !isIP(written.host))
      issues.push({ path: ['host'], message: 'expected the IP address of the only sender taken, or "" for every sender' });
    const peers = Peers.compile(written.allow);
    if (Array.isArray(peers)) issues.push(...peers);
    else if (written.mode === 'send' && written.allow.length > 0)
      issues.push({ path: ['allow'], message: 'allow lists the senders a receiver takes; a sender listens to no one' });
    return checked(issues, { ...written, displays, texts, peers: Array.isArray(peers) ? Peers.anyone : peers });
  },
  warn: (settings) => (settings.mode === 'receive' && settings.host === '' ? openListenerWarnings(settings, 'set tally and text') : []),
  discovers: ({ mode }) => ({ parameters: mode === 'receive' }),
  claims: ({ mode, transport, port, bindIp }) =>
    mode === 'receive' && port !== 0 ? [{ what: `${transport.toUpperCase()} port ${port}`, on: bindIp, path: ['port'] }] : [],
  metrics: [
    {
      name: 'patchbay_tsl_umd_messages_total',
      help: 'TSL UMD display messages a tsl-umd connection received and sent, and packets it dropped as malformed or from another sender.',
      kind: 'counter',
      labelNames: ['kind'],
      samples: (details) =>
        (['received', 'sent', 'malformed', 'strangers'] as const).map((kind) => ({ labels: { kind }, value: Number(details[kind] ?? 0) })),
    },
    droppedMetric('patchbay_tsl_umd_dropped_total', 'What a tsl-umd connection dropped past its bounds, by kind (R-G4).'),
  ],
  create(context, options) {
    const { version, mode, transport, port, bindIp, host, peers, repeat, connectTimeout, maxDisplays, forgetAfter, maxClients } = options;
    const fields = FIELDS[version];
    const overruns = new Overruns(OVERRUN_KINDS, context.scheduler, context.setStatus);
    const debug = new SparseLog(context.log, context.scheduler, 'dropped', 'debug');
    const counts = { received: 0, sent: 0, malformed: 0, strangers: 0, displays: 0 };
    const values = new Map<string, DisplayValues>();
    const recent = new HeardDisplays(() => context.scheduler.now(), forgetAfter);
    const listed = new Set(options.displays);
    const due = new Map<string, ((error?: unknown) => void)[]>();
    let sendOut: ((packet: Buffer, done: (error?: Error) => void) => void) | undefined;

    const malformed = (why: string, from: string) => {
      counts.malformed++;
      debug.warn(`${from}: ${why}`);
    };

    /** What a display's message says now. */
    const encode = (key: string): Buffer => {
      const shown = values.get(key) as DisplayValues;
      const field = (id: string) => shown.get(id) as Value;
      if (version === '3.1')
        return encodeV31({
          address: Number(key),
          text: String(field('text')),
          brightness: Number(field('brightness')),
          tally: [field('tally/1') === true, field('tally/2') === true, field('tally/3') === true, field('tally/4') === true],
        });
      const [screen, index] = key.split('/').map(Number) as [number, number];
      const packet = encodeV5(screen, [
        {
          index,
          text: String(field('text')),
          brightness: Number(field('brightness')),
          rh: Number(field('tally/rh')),
          textTally: Number(field('tally/text')),
          lh: Number(field('tally/lh')),
        },
      ]);
      return transport === 'tcp' ? wrapV5(packet) : packet;
    };

    /** Sends a display's message at the end of the turn, once for all of the turn's writes to it. */
    const sendSoon = (key: string, confirm?: (error?: unknown) => void) => {
      const waiting = due.get(key);
      if (waiting) return void (confirm && waiting.push(confirm));
      due.set(key, confirm ? [confirm] : []);
      afterTurn(() => {
        const confirms = due.get(key) ?? [];
        due.delete(key);
        if (!sendOut) return confirms.forEach((done) => done(new HubError('PB_DEVICE_UNAVAILABLE', link.downReason || 'not connected')));
        sendOut(encode(key), (error) => {
          if (!error) counts.sent++;
          for (const done of confirms) done(error);
        });
      });
    };

    const sendField =
      (key: string, field: Field): DeviceSend =>
      (value, confirm) => {
        values.get(key)?.set(field.id, value);
        sendSoon(key, confirm);
      };

    /** Makes a display's parameters (once), read-only when received, writable when sent. */
    const display = (key: string, source = ''): DisplayValues | undefined => {
      const known = values.get(key);
      if (known) return known;
      if (mode === 'receive' && values.size >= maxDisplays) {
        const stale = recent.takeFor(source);
        if (stale === undefined) {
          overruns.dropped('displays', `more than maxDisplays (${maxDisplays}) displays: the others not shown`);
          return undefined;
        }
        values.delete(stale);
        for (const field of fields) parameters.remove(`${stale}/${field.id}`);
      }
      const initial = (field: Field) => (field.id === 'text' ? (options.texts[key] ?? field.initial) : field.initial);
      const made: DisplayValues = new Map(fields.map((field) => [field.id, initial(field)]));
      values.set(key, made);
      counts.displays = values.size;
      for (const field of fields) {
        const parameter = parameters.define(
          `${key}/${field.id}`,
          // What the hub drives displays with is kept (R-DV2): after a restart they show the last tally, not dark lamps, until its sources speak again.
          {
            type: field.type,
            access: mode === 'send' ? 'read-write' : 'read-only',
            initial: initial(field),
            persist: mode === 'send',
            ...(field.meta && { meta: field.meta }),
          },
          sendField(key, field),
          { echoes: false },
        );
        if (parameter?.value !== undefined) made.set(field.id, parameter.value);
      }
      return made;
    };

    /** Shows what a received display message says. */
    const show = (key: string, heard: Readonly<Record<string, Value>>, from: string) => {
      // Displays are shared out by the sender's address (`address:port`, the port its own).
      const source = from.slice(0, from.lastIndexOf(':'));
      const shown = display(key, source);
      if (!shown) return;
      if (!listed.has(key)) recent.heard(key, source);
      counts.received++;
      for (const [id, value] of Object.entries(heard)) {
        shown.set(id, value);
        parameters.get(`${key}/${id}`)?.report(value, `tsl ${from}`);
      }
    };

    const receiveV31 = (packet: Buffer, from: string) => {
      const heard = decodeV31(packet);
      if (typeof heard === 'string') return malformed(heard, from);
      const [t1, t2, t3, t4] = heard.tally;
      show(
        String(heard.address),
        { text: heard.text, brightness: heard.brightness, 'tally/1': t1, 'tally/2': t2, 'tally/3': t3, 'tally/4': t4 },
        from,
      );
    };

    const receiveV5 = (packet: Buffer, from: string) => {
      const heard = decodeV5(packet);
      if (typeof heard === 'string') return malformed(heard, from);
      for (const shown of heard.displays) {
        const said: Record<string, Value> = {
          text: shown.text,
          brightness: shown.brightness,
          'tally/rh': shown.rh,
          'tally/text': shown.textTally,
          'tally/lh': shown.lh,
        };
        // 0xFFFF is every screen or every index: the displays shown already.
        if (heard.screen === EVERY || shown.index === EVERY) {
          for (const key of values.keys()) if (matches(key, heard.screen, shown.index)) show(key, said, from);
        } else show(`${heard.screen}/${shown.index}`, said, from);
      }
    };

    const receive = version === '3.1' ? receiveV31 : receiveV5;
    const protocol = mode === 'receive' ? receiver() : sender();
    const link = new DeviceLink(protocol, {
      scheduler: context.scheduler,
      status: overruns.status,
      fence: context.fence,
    });
    const parameters = new DeviceParameters(context, link, overruns);
    let repeating: { unsubscribe(): void } | undefined;

    function receiver(): LinkProtocol & { details(): Record<string, unknown> } {
      const takes = `takes ${host === '' ? peers.describe() : `${host} only`}`;
      /** Says where it listens and whom it takes, as every listener does, then is up. */
      const listening = (attempt: LinkAttempt, where: () => string) => ({
        up() {
          context.log.info(`receiving TSL UMD ${version} over ${transport.toUpperCase()} on ${bindIp || '*'}:${where()}; ${takes}`);
          attempt.up();
        },
        down: (reason: string) => attempt.down(reason),
      });
      if (transport === 'udp') {
        const rate = {
          mostASecond: MOST_DATAGRAMS_A_SECOND,
          dropped: (first: boolean) =>
            overruns.dropped('datagrams', `more than ${MOST_DATAGRAMS_A_SECOND} datagrams a second: the others dropped`, 1, !first),
        };
        const endpoint = new UdpEndpoint({ port, bindIp, host: '', allow: peers, rate }, (packet, from) => {
          if (host !== '' && from.address !== host) return void counts.strangers++;
          receive(packet, `${from.address}:${from.port}`);
        });
        return {
          open: (attempt) => endpoint.open(listening(attempt, () => String(endpoint.localPort))),
          close: () => endpoint.close(),
          details: () => ({ port: endpoint.localPort, refusedPeers: endpoint.refusedPeers }),
        };
      }
      // Senders that sent a whole packet: the others (half a packet and silence) give up their slots to new ones.
      const spoke = new WeakSet<Socket>();
      const yields = (socket: Socket) => !spoke.has(socket);
      const listener = new TcpListener({ port, bindIp, maxClients, allow: peers, yields }, (socket: Socket) => {
        const from = `${socket.remoteAddress}:${socket.remotePort}`;
        if (host !== '' && socket.remoteAddress !== host) {
          counts.strangers++;
          return void socket.destroy();
        }
        const packet = (bytes: Buffer) => {
          spoke.add(socket);
          receive(bytes, from);
        };
        const reader = new V5StreamReader({ packet, skipped: (why) => malformed(why, from) });
        socket.on('data', (chunk: Buffer) => reader.push(chunk));
      });
      return {
        open: (attempt) => listener.open(listening(attempt, () => String(listener.port))),
        close: () => listener.close(),
        details: () => ({
          port: listener.port,
          clients: listener.clients.size,
          refusedClients: listener.refused,
          yieldedClients: listener.yielded,
          refusedPeers: listener.refusedPeers,
        }),
      };
    }

    function sender(): LinkProtocol & { details(): Record<string, unknown> } {
      const everyDisplay = () => {
        for (const key of values.keys()) sendSoon(key);
      };
      if (transport === 'udp') {
        const endpoint = new UdpEndpoint({ port: 0, bindIp, host }, () => {});
        return {
          open(attempt: LinkAttempt) {
            endpoint.open({
              up() {
                sendOut = (packet, done) => endpoint.send(packet, port, endpoint.hostAddress, done);
                attempt.up();
                everyDisplay();
              },
              down(reason) {
                sendOut = undefined;
                attempt.down(reason);
              },
            });
          },
          close: () => {
            sendOut = undefined;
            endpoint.close();
          },
          details: () => ({ host, port }),
        };
      }
      let connection: TcpConnection | undefined;
      return {
        open(attempt: LinkAttempt) {
          const opened = TcpConnection.open(
            attempt,
            { host, port, connectTimeout },
            {
              // What a display device sends back is not part of the protocol: read and let go.
              data: () => {},
              connected: () => {
                sendOut = (packet, done) => opened.send(packet, done);
                everyDisplay();
              },
              closed: () => (sendOut = undefined),
            },
          );
          connection = opened;
        },
        close: () => {
          sendOut = undefined;
          connection?.close();
        },
        details: () => ({ host, port }),
      };
    }

    return {
      async start() {
        for (const key of options.displays) display(key);
        await link.start();
        if (mode === 'send' && repeat > 0)
          repeating = every(context.scheduler, repeat, () => {
            if (sendOut) for (const key of values.keys()) sendSoon(key);
          });
      },
      details: () => ({ version, mode, transport, ...protocol.details(), ...counts, dropped: { ...overruns.counts } }),
      async stop() {
        repeating?.unsubscribe();
        overruns.stop();
        await link.stop();
      },
    };
  },
});
