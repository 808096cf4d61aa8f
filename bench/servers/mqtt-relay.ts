/**
 * The floor of scenario 9's chain: the same five processes as the hub path (a WebSocket
 * writer → A → Mosquitto → B → a WebSocket client), with bare relays for A and B that do
 * the least each hop must. `in` takes WebSocket batches of `{"p","v"}` and publishes each
 * value on its own retained topic, QoS 1; `out` subscribes to them and sends every value it
 * receives to its WebSocket clients as `{"p","v"}`. What the hubs' path costs beyond these
 * is the hubs'; what these cost beyond the raw MQTT.js pair is the two extra processes and
 * hops on the machine's cores.
 *
 *   node --import tsx bench/servers/mqtt-relay.ts in|out <broker url>
 */
import mqtt from 'mqtt';
import type { Socket } from 'node:net';
import { nativeBinaryLoaded, uws } from '../../lib/http/uws.ts';

if (!nativeBinaryLoaded) throw new Error('the native uWS binary did not load');
const [role, url] = process.argv.slice(2) as ['in' | 'out', string];
const PREFIX = 'relay/';

const client = await mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0 });
(client.stream as Partial<Socket>).setNoDelay?.(true);
const decoder = new TextDecoder();
const app = uws.App();
if (role === 'in') {
  app.ws('/*', {
    maxPayloadLength: 16 * 1024 * 1024,
    message(_ws, data) {
      for (const { p, v } of JSON.parse(decoder.decode(data)) as { p: string; v: string }[])
        client.publish(PREFIX + p, v, { qos: 1, retain: true });
    },
  });
} else {
  app.ws('/*', { maxBackpressure: 32 * 1024 * 1024, open: (ws) => void ws.subscribe('all') });
  client.on('message', (topic, payload) =>
    app.publish('all', `{"p":${JSON.stringify(topic.slice(PREFIX.length))},"v":${JSON.stringify(payload.toString())}}`),
  );
  await client.subscribeAsync(`${PREFIX}#`, { qos: 1 });
}
app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) throw new Error('cannot listen');
  console.log(`ready ${uws.us_socket_local_port(socket as never)}`);
});
