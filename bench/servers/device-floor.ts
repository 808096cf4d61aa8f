/**
 * The floor of `bench:devices`: a device's client library alone (for the Videohub, which has
 * none, a bare TCP client of its protocol) behind a bare WebSocket server — each change the
 * device tells goes out as `{p: 'value', v}`, and each `{v}` a client sends is the library's
 * command for it, as nothing but a process hop and a socket. Prints `ready <port>` once the
 * device is connected.
 *
 *   node --import tsx bench/servers/device-floor.ts atem|hyperdeck|obs|videohub <device port> [host]
 */
import { connect } from 'node:net';
import { WebSocketServer } from 'ws';

const [device, portText, host = '127.0.0.1'] = process.argv.slice(2);
const port = Number(portText);
const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await new Promise((resolve) => server.once('listening', resolve));
const say = (value: unknown) => {
  const message = JSON.stringify({ p: 'value', v: String(value) });
  for (const client of server.clients) client.send(message);
};
const ready = () => console.log(`ready ${(server.address() as { port: number }).port}`);
/** The library's command for a value a client sent. */
let command: (value: string) => unknown = () => {};
server.on('connection', (client) =>
  client.on('message', (data) => {
    const { v } = JSON.parse(String(data)) as { v: string };
    void command(String(v));
  }),
);

if (device === 'atem') {
  const { Atem } = await import('atem-connection');
  const atem = new Atem({ disableMultithreaded: true });
  atem.on('stateChanged', (state, paths) => {
    if (paths.includes('video.mixEffects.0.programInput')) say(state.video.mixEffects[0]?.programInput);
  });
  atem.on('connected', ready);
  command = (value) => atem.changeProgramInput(Number(value), 0);
  await atem.connect(host, port);
} else if (device === 'obs') {
  const { OBSWebSocket } = await import('obs-websocket-js');
  const obs = new OBSWebSocket();
  obs.on('CurrentProgramSceneChanged', ({ sceneName }) => say(sceneName));
  command = (sceneName) => obs.call('SetCurrentProgramScene', { sceneName });
  await obs.connect(`ws://${host}:${port}`);
  ready();
} else if (device === 'hyperdeck') {
  const { Commands, Hyperdeck } = await import('hyperdeck-connection');
  const deck = new Hyperdeck({ pingPeriod: 0 });
  deck.on('notify.transport', (transport: { clipId?: number | null }) => {
    if (typeof transport.clipId === 'number') say(transport.clipId);
  });
  deck.on('connected', () => {
    void deck.sendCommand(Object.assign(new Commands.NotifySetCommand(), { transport: true })).then(ready);
  });
  command = (clip) => deck.sendCommand(new Commands.GoToCommand(undefined, Number(clip)));
  deck.connect(host, port);
} else {
  // A Videohub: output 0's route, read from the router's blocks and commanded as one.
  const socket = connect({ host, port });
  socket.setNoDelay(true);
  let held = '';
  let prelude = true;
  socket.on('data', (chunk) => {
    held += chunk.toString('utf8');
    for (let end = held.indexOf('\n\n'); end >= 0; end = held.indexOf('\n\n')) {
      const [title = '', ...lines] = held.slice(0, end).split('\n');
      held = held.slice(end + 2);
      if (title === 'END PRELUDE:' && prelude) {
        prelude = false;
        ready();
      }
      if (title !== 'VIDEO OUTPUT ROUTING:') continue;
      const route = lines.find((line) => line.startsWith('0 '));
      if (route) say(route.slice(2));
    }
  });
  command = (input) => socket.write(`VIDEO OUTPUT ROUTING:\n0 ${input}\n\n`);
}
process.on('SIGTERM', () => process.exit(0));
