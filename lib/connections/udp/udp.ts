/**
 * `udp`: a device that speaks a line protocol in datagrams (R-N1, R-N2): tally and GPIO
 * boxes, players. The hub receives on `port` and sends to `host`:`sendPort`. Each datagram is
 * framed on its own: a delimited datagram's last frame needs no delimiter. Only datagrams
 * from `host` are taken (any sender with `acceptFrom: "any"`, or those `allow` lists), so a
 * stranger on the LAN cannot set the device's parameters. UDP has no link to lose: the connection is `ok` once
 * its port is bound, and a write is taken once the datagram is handed to the network.
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
  lineSettings,
  type LineTransport,
  type LinkAttempt,
  openListenerWarnings,
  Peers,
  UdpEndpoint,
  type UdpOptions,
  withDefault,
  hostSetting,
  listenAddressSetting,
  portSetting,
} from '../../sdk/index.ts';

const settings = Type.Object({
  port: withDefault(
    portSetting('The UDP port the hub receives on; 0 takes any free port (the device answers to it).', { anyFree: true }),
    0,
  ),
  bindIp: listenAddressSetting('The address to receive on; "" receives on every address.'),
  host: hostSetting("The device's host name or IP address: where frames go, and whom frames are taken from."),
  sendPort: portSetting("The device's UDP port, where frames go."),
  acceptFrom: withDefault(
    Type.Union([Type.Literal('host'), Type.Literal('any')], {
      description: '"host" takes datagrams only from the device\'s address; "any" from every sender `allow` lets in.',
    }),
    'host',
  ),
  allow: allowSetting,
  ...lineSettings,
});

function udp(options: UdpOptions, sendPort: number, acceptFrom: 'host' | 'any', streams: FrameStreams): LineTransport {
  let strangers = 0;
  const endpoint = new UdpEndpoint(options, (datagram, from) => {
    if (acceptFrom === 'host' && from.address !== endpoint.hostAddress) return void strangers++;
    const framer = streams.open(() => {});
    framer.push(datagram);
    framer.end({ lastFrameOpen: true });
  });
  const takes = acceptFrom === 'host' ? `${options.host} only` : (options.allow ?? Peers.anyone).describe();
  return {
    open: (attempt: LinkAttempt) => endpoint.open(attempt),
    close: () => endpoint.close(),
    send: (frame, done) => endpoint.send(frame, sendPort, endpoint.hostAddress, done),
    listening: () => `receiving on ${options.bindIp || '*'}:${endpoint.localPort}; takes datagrams from ${takes}`,
    details: () => ({ port: endpoint.localPort, host: options.host, sendPort, strangers, refusedPeers: endpoint.refusedPeers }),
  };
}

export const udpType = defineLineType({
  type: 'udp',
  summary: 'A device that speaks a line protocol in UDP datagrams, to and from one host.',
  settings,
  claims: ({ port, bindIp }) => (port === 0 ? [] : [{ what: `UDP port ${port}`, on: bindIp, path: ['port'] }]),
  diagnose: ({ allow, acceptFrom }) => {
    const peers = Peers.compile(allow);
    if (Array.isArray(peers)) return peers;
    return acceptFrom === 'host' && allow.length > 0
      ? [{ path: ['allow'], message: 'allow lists the senders of acceptFrom: "any"; with "host" only the device\'s address is taken' }]
      : [];
  },
  warn: (settings) =>
    settings.acceptFrom === 'any' && settings.receive.length > 0
      ? openListenerWarnings(settings, 'set the parameters its receive lines make (acceptFrom: "any")')
      : [],
  open: ({ port, bindIp, host, sendPort, acceptFrom, allow }, streams) => {
    const peers = Peers.compile(allow);
    return udp({ port, bindIp, host, allow: Array.isArray(peers) ? Peers.anyone : peers }, sendPort, acceptFrom, streams);
  },
});
