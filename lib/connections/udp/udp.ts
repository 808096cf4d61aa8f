/**
 * `udp`: a device that speaks a line protocol in datagrams (R-N1, R-N2): tally and GPIO
 * boxes, players. The hub receives on `port` and sends to `host`:`sendPort`. Each datagram is
 * framed on its own: a delimited datagram's last frame needs no delimiter. Only datagrams
 * from `host` are taken (any sender with `acceptFrom: "any"`), so a stranger on the LAN
 * cannot set the device's parameters. UDP has no link to lose: the connection is `ok` once
 * its port is bound, and a write is taken once the datagram is handed to the network.
 *
 * Parameters:
 *   <parameter id>   type from its line in `parameters`   read-write when a `send` entry
 *                                                       names it, read-only otherwise
 */
import { createSocket, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Type } from '@sinclair/typebox';
import {
  defineLineType,
  type FrameStreams,
  HubError,
  lineSettings,
  type LineTransport,
  type LinkAttempt,
  roomForBursts,
  withDefault,
} from '../../sdk/index.ts';

const settings = Type.Object({
  port: withDefault(
    Type.Integer({
      minimum: 0,
      maximum: 65_535,
      description: 'The UDP port the hub receives on; 0 takes any free port (the device answers to it).',
    }),
    0,
  ),
  bindIp: withDefault(Type.String({ description: 'The address to receive on; "" receives on every address.' }), ''),
  host: Type.String({
    minLength: 1,
    description: "The device's host name or IP address: where frames go, and whom frames are taken from.",
  }),
  sendPort: Type.Integer({ minimum: 1, maximum: 65_535, description: "The device's UDP port, where frames go." }),
  acceptFrom: withDefault(
    Type.Union([Type.Literal('host'), Type.Literal('any')], {
      description: '"host" takes datagrams only from the device\'s address; "any" from every sender.',
    }),
    'host',
  ),
  ...lineSettings,
});

function udp(
  port: number,
  bindIp: string,
  host: string,
  sendPort: number,
  acceptFrom: 'host' | 'any',
  streams: FrameStreams,
): LineTransport {
  let socket: Socket | undefined;
  /** The device's address, looked up at each attempt. */
  let address = '';
  let bound = 0;
  let strangers = 0;
  return {
    open(attempt: LinkAttempt) {
      void (async () => {
        try {
          address = isIP(host) ? host : (await lookup(host)).address;
        } catch (error) {
          return attempt.down(`${host}: ${(error as Error).message}`);
        }
        const opened = createSocket({ type: isIP(address) === 6 ? 'udp6' : 'udp4', reuseAddr: false });
        socket = opened;
        opened.on('message', (datagram, from) => {
          if (acceptFrom === 'host' && from.address !== address) return void strangers++;
          const framer = streams.open(() => {});
          framer.push(datagram);
          framer.end({ lastFrameOpen: true });
        });
        opened.on('error', (error) => {
          opened.close();
          attempt.down(`port ${port}: ${error.message}`);
        });
        opened.bind({ port, address: bindIp || undefined, exclusive: true }, () => {
          bound = opened.address().port;
          roomForBursts(opened);
          attempt.up();
        });
      })();
    },
    close() {
      socket?.close();
      socket = undefined;
    },
    send(frame, done) {
      if (!socket) return done(new HubError('PB_DEVICE_UNAVAILABLE', 'the socket is closed'));
      socket.send(frame, sendPort, address, (error) => done(error ?? undefined));
    },
    details: () => ({ port: bound, host, sendPort, strangers }),
  };
}

export const udpType = defineLineType({
  type: 'udp',
  summary: 'A device that speaks a line protocol in UDP datagrams, to and from one host.',
  settings,
  claims: ({ port, bindIp }) => (port === 0 ? [] : [{ what: `UDP port ${port}`, on: bindIp, path: ['port'] }]),
  open: ({ port, bindIp, host, sendPort, acceptFrom }, streams) => udp(port, bindIp, host, sendPort, acceptFrom, streams),
});
