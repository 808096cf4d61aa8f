/**
 * `serial`: a device on a serial port speaking a line protocol (R-N1, R-N2): GPIO boxes,
 * tally interfaces, older routers. The hub opens `path` (`/dev/ttyUSB0`) and opens it again,
 * with backoff, when it fails or the adapter is unplugged (R-G1). Through `serialport`, whose
 * native part ships prebuilt inside its package.
 *
 * Parameters:
 *   <parameter id>   type from its line in `parameters`   read-write when a `send` entry
 *                                                       names it, read-only otherwise
 */
import { Type } from '@sinclair/typebox';
import { SerialPort } from 'serialport';
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
  path: Type.String({ minLength: 1, onMachine: 'device', description: 'The serial port: /dev/ttyUSB0, /dev/serial/by-id/…, COM3.' }),
  baudRate: withDefault(Type.Integer({ minimum: 50, maximum: 4_000_000, description: 'Bits per second.' }), 9600),
  dataBits: withDefault(
    Type.Union([Type.Literal(5), Type.Literal(6), Type.Literal(7), Type.Literal(8)], { description: 'Data bits per character.' }),
    8,
  ),
  parity: withDefault(
    Type.Union([Type.Literal('none'), Type.Literal('even'), Type.Literal('odd'), Type.Literal('mark'), Type.Literal('space')], {
      description: 'The parity bit.',
    }),
    'none',
  ),
  stopBits: withDefault(Type.Union([Type.Literal(1), Type.Literal(1.5), Type.Literal(2)], { description: 'Stop bits per character.' }), 1),
  ...lineSettings,
});

interface PortSettings {
  readonly path: string;
  readonly baudRate: number;
  readonly dataBits: 5 | 6 | 7 | 8;
  readonly parity: 'none' | 'even' | 'odd' | 'mark' | 'space';
  readonly stopBits: 1 | 1.5 | 2;
}

function serial(port: PortSettings, streams: FrameStreams): LineTransport {
  let opened: SerialPort | undefined;
  let isOpen = false;
  return {
    open(attempt: LinkAttempt) {
      let reason = `${port.path} closed`;
      const serialPort = new SerialPort({ ...port, autoOpen: false });
      opened = serialPort;
      const framer = streams.open((why) => serialPort.close(() => attempt.down(why)));
      serialPort.on('data', (chunk: Buffer) => framer.push(chunk));
      serialPort.on('error', (error) => (reason = `${port.path}: ${error.message}`));
      serialPort.on('close', () => {
        isOpen = false;
        framer.end();
        attempt.down(reason);
      });
      serialPort.open((error) => {
        if (error) return attempt.down(`${port.path}: ${error.message}`);
        isOpen = true;
        attempt.up();
      });
    },
    async close() {
      const serialPort = opened;
      opened = undefined;
      isOpen = false;
      if (serialPort?.isOpen) await new Promise<void>((resolve) => serialPort.close(() => resolve()));
    },
    send(frame, done) {
      if (!opened || !isOpen) return done(new HubError('PB_DEVICE_UNAVAILABLE', `${port.path} is not open`));
      writeBounded(opened, frame, done);
    },
    details: () => ({ path: port.path, baudRate: port.baudRate }),
  };
}

export const serialType = defineLineType({
  type: 'serial',
  summary: 'A device on a serial port, speaking a line protocol of delimited, fixed or length-prefixed frames.',
  settings,
  claims: ({ path }) => [{ what: `serial port ${path}`, on: '', path: ['path'] }],
  // The port is opened as written (a relative one from the working folder, as `COM3` must be):
  // shown relative to the flow file folder, it would name a file the hub never opens.
  pathsAsWritten: ({ path }) => [path],
  open: ({ path, baudRate, dataBits, parity, stopBits }, streams) => serial({ path, baudRate, dataBits, parity, stopBits }, streams),
});
