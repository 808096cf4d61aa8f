/**
 * The floor of the press-to-wire bench: bare relays doing the hops a hub does between a key
 * press and the device's wire, and nothing else. `edge` takes Companion Satellite's
 * `KEY-PRESS` lines on a TCP port and WebSocket writes `{"p","v"}`, and hands each on as a
 * device's command line — straight to the device's TCP socket (`tcp`, the one-hub path), or
 * published on Mosquitto, QoS 1 (`mqtt`, the two-hub path); `far` takes those from Mosquitto
 * to the device's socket. Nagle off on every socket, as the hub's.
 *
 *   node --import tsx bench/servers/press-relay.ts edge tcp <device port> <satellite port>
 *   node --import tsx bench/servers/press-relay.ts edge mqtt <broker url> <satellite port>
 *   node --import tsx bench/servers/press-relay.ts far <broker url> <device port>
 */
import mqtt from 'mqtt';
import { connect, createServer, type Socket } from 'node:net';
import { nativeBinaryLoaded, uws } from '../../lib/http/uws.ts';

if (!nativeBinaryLoaded) throw new Error('the native uWS binary did not load');
const [role, way, target, satellitePort] = process.argv.slice(2) as ['edge' | 'far', string, string, string];
const TOPIC = 'relay/press';

/** The device's socket, as a line device's connection holds it. */
function deviceSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true }, () => resolve(socket));
    socket.once('error', reject);
  });
}

if (role === 'far') {
  const device = await deviceSocket(Number(target));
  const client = await mqtt.connectAsync(way, { protocolVersion: 5, reconnectPeriod: 0 });
  (client.stream as Partial<Socket>).setNoDelay?.(true);
  client.on('message', (_topic, payload) => device.write(payload));
  await client.subscribeAsync(TOPIC, { qos: 1 });
  console.log('ready 0');
} else {
  let send: (line: string) => void;
  if (way === 'tcp') {
    const device = await deviceSocket(Number(target));
    send = (line) => device.write(line);
  } else {
    const client = await mqtt.connectAsync(target, { protocolVersion: 5, reconnectPeriod: 0 });
    (client.stream as Partial<Socket>).setNoDelay?.(true);
    send = (line) => client.publish(TOPIC, line, { qos: 1 });
  }
  // A satellite's lines: a press of key 0 down or up becomes the command.
  const satellites = createServer({ noDelay: true }, (socket) => {
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    let held = '';
    socket.on('data', (chunk: string) => {
      held += chunk;
      for (let end = held.indexOf('\n'); end >= 0; end = held.indexOf('\n')) {
        const line = held.slice(0, end);
        held = held.slice(end + 1);
        if (!line.startsWith('KEY-PRESS ')) continue;
        const pressed = /PRESSED=(\S+)/.exec(line)?.[1];
        send(`TAKE ${pressed === '1' || pressed === 'true'}\r\n`);
      }
    });
  });
  await new Promise<void>((resolve) => satellites.listen(Number(satellitePort), '127.0.0.1', resolve));
  const decoder = new TextDecoder();
  const app = uws.App();
  app.ws('/*', {
    message(_ws, data) {
      const { v } = JSON.parse(decoder.decode(data)) as { v: unknown };
      send(`CUE ${v}\r\n`);
    },
  });
  app.listen('127.0.0.1', 0, (socket) => {
    if (!socket) throw new Error('cannot listen');
    console.log(`ready ${uws.us_socket_local_port(socket as never)}`);
  });
}
process.on('SIGTERM', () => process.exit(0));
