/**
 * The session with one satellite: greeted, its lines read within `maxLineBytes` and a turn's
 * share at a time, each message answered, and its devices let go when it closes.
 */
import type { Socket } from 'node:net';
import type { ConnectionContext } from '../../sdk/index.ts';
import { type Devices, keyOf, type Satellite, send } from './devices.ts';
import { formatMessage, type Message, parseMessage } from './messages.ts';
import type { SatelliteOverruns } from './settings.ts';

/** The protocol version the hub speaks: keys by index, as `KEYS_TOTAL` counts them. */
const API_VERSION = '1.7.0';
/** Lines read from one satellite before the hub turns to its other work. */
const LINES_A_TURN = 100;

export interface SessionOptions {
  readonly context: ConnectionContext;
  /** The satellites connected, this one among them until it closes. */
  readonly satellites: Set<Satellite>;
  readonly devices: Devices;
  readonly overruns: SatelliteOverruns;
  readonly maxLineBytes: number;
  readonly counts: { pressed: number; unknown: number };
}

export function serveSatellite(socket: Socket, { context, satellites, devices, overruns, maxLineBytes, counts }: SessionOptions): void {
  const from: Satellite = {
    socket,
    peer: `${socket.remoteAddress}:${socket.remotePort}`,
    address: socket.remoteAddress ?? '',
    devices: new Set(),
    heardAt: context.scheduler.now(),
  };
  satellites.add(from);

  /**
   * Presses a key and answers, as Companion does: `KEY-PRESS OK` or `KEY-PRESS ERROR` with
   * why. The answer at once also carries the TCP acknowledgement of the press: a satellite
   * that leaves Nagle's algorithm on (Companion Satellite does) holds its next press until
   * the last is acknowledged, which a silent server's kernel delays by up to 40 ms.
   */
  const press = (params: Message['params']) => {
    const deviceId = String(params['DEVICEID'] ?? '');
    const refuse = (why: string) => {
      counts.unknown++;
      send(from, formatMessage('KEY-PRESS ERROR', { DEVICEID: deviceId, MESSAGE: why }));
    };
    const device = devices.get(deviceId);
    if (!device || device.satellite !== from) return refuse('Device not found');
    const key = keyOf(device, params['KEY']);
    if (key === undefined) return refuse(params['KEY'] === undefined ? 'Missing KEY' : 'Invalid KEY');
    const down = params['PRESSED'] === '1' || params['PRESSED'] === 'true' || params['PRESSED'] === true;
    counts.pressed++;
    devices.press(device, key, down, `satellite ${from.peer} ${device.deviceId} key ${key}`);
    send(from, formatMessage('KEY-PRESS OK', { DEVICEID: deviceId }));
  };

  const receive = (line: string) => {
    from.heardAt = context.scheduler.now();
    const message = parseMessage(line);
    switch (message.command) {
      case 'ADD-DEVICE':
        return devices.add(from, message.params);
      case 'REMOVE-DEVICE': {
        const device = devices.get(String(message.params['DEVICEID']));
        if (device?.satellite === from) devices.detach(device);
        return send(from, formatMessage('REMOVE-DEVICE OK', { DEVICEID: String(message.params['DEVICEID'] ?? '') }));
      }
      case 'KEY-PRESS':
        return press(message.params);
      case 'PING':
        return send(from, `PONG ${line.slice(5)}\n`);
      case 'PONG':
      case '':
        return;
      case 'QUIT':
        return void from.socket.end();
      default:
        counts.unknown++;
        send(from, formatMessage('ERROR', { MESSAGE: `Unknown command: ${message.command}` }));
    }
  };

  let buffered = '';
  /**
   * Reads the lines buffered, at most `LINES_A_TURN` before it lets the hub serve others:
   * a satellite that sends ten thousand lines at once is read over many turns, its
   * socket paused meanwhile, rather than holding every client up for all of them.
   */
  const readLines = () => {
    let end = buffered.indexOf('\n');
    for (let read = 0; end !== -1; read++) {
      if (read === LINES_A_TURN) {
        socket.pause();
        return void setImmediate(() => {
          readLines();
          if (!socket.destroyed) socket.resume();
        });
      }
      receive(buffered.slice(0, end).replace(/\r$/, ''));
      buffered = buffered.slice(end + 1);
      end = buffered.indexOf('\n');
    }
    if (buffered.length > maxLineBytes) {
      overruns.dropped('lines', `a line of more than maxLineBytes (${maxLineBytes}) from ${from.peer}: the satellite was dropped`);
      buffered = '';
      socket.destroy();
    }
  };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    readLines();
  });
  socket.on('close', () => {
    satellites.delete(from);
    devices.gone(from);
  });
  send(from, `BEGIN CompanionVersion=patchbay ApiVersion=${API_VERSION}\n`);
}
