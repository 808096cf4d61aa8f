/**
 * `tcp-client`: a device that listens on TCP and speaks a line protocol (R-N1, R-N2): video
 * routers, GPIO boxes, codecs. The hub connects to `host`:`port` and keeps connecting, with
 * backoff, while the device is away (R-G1). Frames and what they mean: `line-protocol.ts`.
 *
 * Parameters:
 *   <parameter id>   type from its line in `parameters`   read-write when a `send` entry
 *                                                       names it, read-only otherwise
 */
import { connect, type Socket } from 'node:net';
import { Type } from '@sinclair/typebox';
import {
  defineLineType,
  type FrameStreams,
  HubError,
  lineSettings,
  type LineTransport,
  type LinkAttempt,
  withDefault,
  writeBounded,
} from '../../sdk/index.ts';

const settings = Type.Object({
  host: Type.String({ minLength: 1, description: "The device's host name or IP address." }),
  port: Type.Integer({ minimum: 1, maximum: 65_535, description: "The device's TCP port." }),
  connectTimeout: withDefault(
    Type.Integer({ minimum: 100, maximum: 60_000, description: 'Milliseconds a connection attempt may take before it counts as failed.' }),
    5000,
  ),
  ...lineSettings,
});

/** One TCP connection at a time to the device, opened again by the link after it closes. */
function tcpClient(host: string, port: number, connectTimeout: number, streams: FrameStreams): LineTransport {
  let socket: Socket | undefined;
  let connected = false;
  return {
    open(attempt: LinkAttempt) {
      connected = false;
      let reason = 'the connection closed';
      const opened = connect({ host, port, noDelay: true, keepAlive: true, keepAliveInitialDelay: 10_000 });
      socket = opened;
      opened.setTimeout(connectTimeout, () => {
        if (!connected) opened.destroy(new Error(`no connection within ${connectTimeout} ms`));
      });
      const framer = streams.open((why) => opened.destroy(new Error(`${why}; connecting again`)));
      opened.on('connect', () => {
        connected = true;
        opened.setTimeout(0);
        attempt.up();
      });
      opened.on('data', (chunk: Buffer) => framer.push(chunk));
      opened.on('error', (error) => (reason = `${host}:${port}: ${error.message}`));
      opened.on('close', () => {
        if (socket === opened) connected = false;
        framer.end();
        attempt.down(reason);
      });
    },
    close() {
      socket?.destroy();
      socket = undefined;
    },
    send(frame, done) {
      if (!socket || !connected) return done(new HubError('PB_DEVICE_UNAVAILABLE', 'not connected'));
      writeBounded(socket, frame, done);
    },
    details: () => ({ host, port }),
  };
}

export const tcpClientType = defineLineType({
  type: 'tcp-client',
  summary: 'A device the hub connects to over TCP, speaking a line protocol of delimited, fixed or length-prefixed frames.',
  settings,
  open: ({ host, port, connectTimeout }, streams) => tcpClient(host, port, connectTimeout, streams),
});
