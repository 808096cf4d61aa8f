import { connect, type Socket } from 'node:net';
import type { ExecutionContext } from 'ava';
import type { Hub } from '../../../lib/hub/hub.ts';
import { eventually } from '../../helpers/eventually.ts';
import { serve } from '../../helpers/http.ts';

/**
 * A satellite scripted from Companion Satellite's published protocol (its client,
 * satellite/src/client/client.ts): the lines it sends are formatted as that client
 * formats them (values quoted, booleans as 1/0, a space before the newline), and what it
 * reads is parsed here on its own.
 */
export class ScriptedSatellite {
  readonly lines: string[] = [];
  private buffered = '';
  /** Whether it answers the hub's pings, as a live client does (`keepAlive`). */
  private answering = false;
  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    // The hub may drop it (a bound, a silence): the spec reads that from the close.
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      this.buffered += chunk;
      let end = this.buffered.indexOf('\n');
      while (end !== -1) {
        const line = this.buffered.slice(0, end);
        this.lines.push(line);
        if (this.answering && line.startsWith('PING ')) socket.write(`PONG ${line.slice(5)}\n`);
        this.buffered = this.buffered.slice(end + 1);
        end = this.buffered.indexOf('\n');
      }
    });
  }

  /** Connects from `localAddress` (any of 127.0.0.0/8 on Linux): another machine, as the hub's bounds per address see it. */
  static async connect(t: ExecutionContext, port: number, localAddress = '127.0.0.1'): Promise<ScriptedSatellite> {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    t.teardown(() => socket.destroy());
    await new Promise((resolve) => socket.once('connect', resolve));
    return new ScriptedSatellite(socket);
  }

  send(command: string, deviceId: string | null, args: Record<string, string | number | boolean>): void {
    const chunks = [command];
    if (deviceId) chunks.push(`DEVICEID="${deviceId}"`);
    for (const [key, value] of Object.entries(args))
      chunks.push(`${key}=${typeof value === 'boolean' ? (value ? '1' : '0') : typeof value === 'number' ? value : `"${value}"`}`);
    chunks.push('\n');
    this.socket.write(chunks.join(' '));
  }

  /** Answers the hub's pings from now on, as a live client does; `false` to fall silent (its link lost without a close). */
  keepAlive(answering = true): void {
    this.answering = answering;
  }

  /** An ADD-DEVICE as the client sends it to a server of API below 1.9. */
  addDevice(deviceId: string, keys: number, perRow: number, bitmaps: number): void {
    this.send('ADD-DEVICE', deviceId, {
      KEYS_TOTAL: keys,
      KEYS_PER_ROW: perRow,
      BITMAPS: bitmaps,
      COLORS: 'hex',
      TEXT: true,
      TEXT_STYLE: false,
      PRODUCT_NAME: 'Elgato Stream Deck',
      VARIABLES: Buffer.from('[]').toString('base64'),
      BRIGHTNESS: 50,
      PINCODE_LOCK: 'FULL',
    });
  }

  /** A press as a current client sends it: KEY as row/column. */
  press(deviceId: string, row: number, column: number, pressed: boolean): void {
    this.send('KEY-PRESS', deviceId, { CONTROLID: `${row}/${column}`, KEY: `${row}/${column}`, PRESSED: pressed });
  }

  /** The messages received of `command`, parsed. */
  received(command: string): Record<string, string>[] {
    return this.lines.filter((line) => line === command || line.startsWith(`${command} `)).map(parseLine);
  }
}

/** `NAME=value` pairs of a line after its command, quotes taken off; bare words as "1". */
function parseLine(line: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const afterCommand = line.includes(' ') ? line.slice(line.indexOf(' ') + 1) : '';
  for (const match of afterCommand.matchAll(/([A-Za-z_]+)(?:=(?:"((?:[^"\\]|\\.)*)"|(\S*)))?/g)) {
    fields[match[1] as string] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '1');
  }
  return fields;
}

export const value = (hub: Hub, address: string) => hub.graph.get(address)?.value;
export const dropped = (hub: Hub) => (hub.connection('desk')?.info.details?.['dropped'] ?? {}) as Record<string, number>;

export async function surface(t: ExecutionContext, settings: object = {}, more: object = {}) {
  const served = await serve(t, {}, { desk: { type: 'satellite', port: 0, bindIp: '127.0.0.1', ...settings }, ...more });
  await eventually(() => served.hub.connection('desk')?.info.status === 'ok', 'listening');
  const port = served.hub.connection('desk')?.info.details?.['port'] as number;
  return { ...served, port };
}
