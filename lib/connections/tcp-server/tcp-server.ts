/**
 * `tcp-server`: devices that connect to the hub over TCP and speak a line protocol (R-N1,
 * R-N2): tally boxes, automation that dials in. The hub listens on `port`; every client's
 * frames are read, and a send goes to every client connected. The link is up while the hub
 * listens; a write while no client is connected is refused (503, PB_DEVICE_UNAVAILABLE).
 * At most `maxClients` at once: one more is closed at once. A client that stops reading is
 * closed once it leaves 1 MiB unread, so it never holds the others up.
 *
 * Parameters:
 *   <parameter id>   type from its line in `parameters`   read-write when a `send` entry
 *                                                       names it, read-only otherwise
 */
import { Type } from '@sinclair/typebox';
import {
  allowSetting,
  defineLineType,
  type FrameStreams,
  HubError,
  lineSettings,
  type LineTransport,
  type LinkAttempt,
  openListenerWarnings,
  Peers,
  type TcpListenOptions,
  TcpListener,
  withDefault,
  writeBounded,
  listenAddressSetting,
  portSetting,
} from '../../sdk/index.ts';

const settings = Type.Object({
  port: portSetting('The TCP port the hub listens on for devices.'),
  bindIp: listenAddressSetting('The address to listen on; "" listens on every address.'),
  allow: allowSetting,
  maxClients: withDefault(
    Type.Integer({ minimum: 1, maximum: 1024, description: 'Clients connected at once at most; one more is closed at once.' }),
    16,
  ),
  ...lineSettings,
});

function tcpServer(options: TcpListenOptions, streams: FrameStreams): LineTransport {
  const listener = new TcpListener(options, (socket) => {
    const framer = streams.open((why) => socket.destroy(new Error(why)));
    socket.on('data', (chunk: Buffer) => framer.push(chunk));
    socket.on('close', () => framer.end());
  });
  return {
    open: (attempt: LinkAttempt) => listener.open(attempt),
    close: () => listener.close(),
    send(frame, done) {
      const { clients } = listener;
      if (clients.size === 0) return done(new HubError('PB_DEVICE_UNAVAILABLE', `no client is connected to port ${options.port}`));
      // Taken when one client took it; the write fails only when every client failed.
      let waiting = clients.size;
      let took = 0;
      let failure: Error | undefined;
      for (const socket of clients)
        writeBounded(socket, frame, (error) => {
          // A client that stopped reading is closed: the others must not wait for it.
          if (error) socket.destroy();
          else took++;
          failure ??= error;
          if (--waiting === 0) done(took > 0 ? undefined : failure);
        });
    },
    listening: () =>
      `listening for devices on ${options.bindIp || '*'}:${listener.port}; lets in ${(options.allow ?? Peers.anyone).describe()}, ${options.maxClients} at once at most`,
    details: () => ({
      port: options.port,
      clients: listener.clients.size,
      refusedClients: listener.refused,
      refusedPeers: listener.refusedPeers,
    }),
  };
}

export const tcpServerType = defineLineType({
  type: 'tcp-server',
  summary: 'Devices that connect to the hub over TCP, speaking a line protocol; a send goes to every client.',
  settings,
  claims: ({ port, bindIp }) => [{ what: `TCP port ${port}`, on: bindIp, path: ['port'] }],
  diagnose: ({ allow }) => {
    const peers = Peers.compile(allow);
    return Array.isArray(peers) ? peers : [];
  },
  // Without receive lines a client sets nothing: nothing to warn of.
  warn: (settings) => (settings.receive.length > 0 ? openListenerWarnings(settings, 'set the parameters its receive lines make') : []),
  open: ({ port, bindIp, maxClients, allow }, streams) => {
    const peers = Peers.compile(allow);
    return tcpServer({ port, bindIp, maxClients, allow: Array.isArray(peers) ? Peers.anyone : peers }, streams);
  },
});
