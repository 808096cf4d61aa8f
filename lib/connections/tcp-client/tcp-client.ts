/**
 * `tcp-client`: a device that listens on TCP and speaks a line protocol (R-N1, R-N2): video
 * routers, GPIO boxes, codecs. The hub connects to `host`:`port` and keeps connecting, with
 * backoff, while the device is away (R-G1). Frames and what they mean are the device kit's line protocol.
 *
 * Parameters:
 *   <parameter id>   type from its line in `parameters`   read-write when a `send` entry
 *                                                       names it, read-only otherwise
 */
import { Type } from '@sinclair/typebox';
import {
  connectTimeoutSetting,
  defineLineType,
  type FrameStreams,
  HubError,
  lineSettings,
  type LineTransport,
  type LinkAttempt,
  TcpConnection,
  type TcpTarget,
  hostSetting,
  portSetting,
} from '../../sdk/index.ts';

const settings = Type.Object({
  host: hostSetting("The device's host name or IP address."),
  port: portSetting("The device's TCP port."),
  connectTimeout: connectTimeoutSetting,
  ...lineSettings,
});

/** One TCP connection at a time to the device, opened again by the link after it closes. */
function tcpClient(target: TcpTarget, streams: FrameStreams): LineTransport {
  let connection: TcpConnection | undefined;
  return {
    open(attempt: LinkAttempt) {
      let opened: TcpConnection | undefined;
      const framer = streams.open((why) => opened?.close(`${why}; connecting again`));
      opened = TcpConnection.open(attempt, target, { data: (chunk) => framer.push(chunk), closed: () => framer.end() });
      connection = opened;
    },
    close() {
      connection?.close();
      connection = undefined;
    },
    send(frame, done) {
      if (!connection) return done(new HubError('PB_DEVICE_UNAVAILABLE', 'not connected'));
      connection.send(frame, done);
    },
    details: () => ({ host: target.host, port: target.port }),
  };
}

export const tcpClientType = defineLineType({
  type: 'tcp-client',
  summary: 'A device the hub connects to over TCP, speaking a line protocol of delimited, fixed or length-prefixed frames.',
  settings,
  open: ({ host, port, connectTimeout }, streams) => tcpClient({ host, port, connectTimeout }, streams),
});
