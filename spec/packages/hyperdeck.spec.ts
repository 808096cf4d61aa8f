/**
 * The `hyperdeck` package (packages/hyperdeck), installed in a studio folder and run by a hub
 * in a process of its own, on the client library `hyperdeck-connection` through the SDK's
 * `ClientLink` (R-PK7), against `hyperdeck-server-connection` — a HyperDeck server library
 * nobody on the team wrote — as the deck (R-DV1, R-DV3). The package has no reconnect code
 * of its own: the library's comes back by itself.
 */
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { ParameterMeta } from '../../lib/core/parameter-meta.ts';
import { eventually } from '../helpers/eventually.ts';
import { type HubProcess, runHub } from '../helpers/hub-process.ts';
import { connectionOf, hubWithPackage, studioWith, update } from '../helpers/outside-package.ts';
import { freePort } from '../helpers/ports.ts';

const require = createRequire(import.meta.url);

type Command = { name: string; parameters: Record<string, string> };
type Handler = (command: Command) => Promise<unknown>;
const { HyperdeckServer } = require('hyperdeck-server-connection') as {
  HyperdeckServer: new (
    ip: string,
    port: number,
  ) => Record<string, Handler | undefined> & {
    close(): void;
    notifyTransport(params: Record<string, string>): void;
  };
};

/** A deck of two slots and three clips that records the commands it is given and tells its transport's changes. */
function deck(t: ExecutionContext, port: number) {
  const server = new HyperdeckServer('127.0.0.1', port);
  const heard: string[] = [];
  const transport = {
    status: 'stopped',
    speed: '0',
    'slot id': '1',
    'clip id': '1',
    'single clip': 'false',
    'display timecode': '00:00:10:00',
    timecode: '00:00:10:00',
    'video format': '1080i50',
    loop: 'false',
  };
  server['onDeviceInfo'] = async () => ({ 'protocol version': '1.11', model: 'HyperDeck Studio HD Mini', 'slot count': '2' });
  server['onSlotInfo'] = async (command) => {
    const id = command.parameters['slot id'] ?? '1';
    return {
      'slot id': id,
      status: 'mounted',
      'volume name': id === '1' ? 'SHOW A' : 'SHOW B',
      'recording time': '3600',
      'video format': '1080i50',
    };
  };
  // Each slot's disk holds clips of its own.
  server['onClipsGet'] = async () =>
    transport['slot id'] === '1'
      ? {
          'clip count': '3',
          1: 'Opener 00:00:00:00 00:00:30:00',
          2: 'Interview 00:00:30:00 00:10:00:00',
          3: 'Closer 00:10:30:00 00:00:20:00',
        }
      : { 'clip count': '1', 1: 'Replay 00:00:00:00 00:00:08:00' };
  server['onSlotSelect'] = async (command) => {
    heard.push(`slot select ${JSON.stringify(command.parameters)}`);
    transport['slot id'] = command.parameters['slot id'] ?? '1';
    server.notifyTransport({ 'slot id': transport['slot id'] });
  };
  server['onTransportInfo'] = async () => transport;
  server['onPlay'] = async (command) => {
    heard.push(`play ${JSON.stringify(command.parameters)}`);
    transport.status = 'play';
    transport.speed = '100';
    server.notifyTransport({ status: 'play', speed: '100' });
  };
  server['onGoTo'] = async (command) => {
    heard.push(`goto ${JSON.stringify(command.parameters)}`);
    server.notifyTransport({ 'clip id': command.parameters['clip id'] ?? '' });
  };
  // A deck whose remote control is off on its front panel.
  server['onStop'] = async () => {
    heard.push('stop');
    throw { code: 111, msg: 'remote control disabled' };
  };
  // Record: not handled, so the server library answers "unsupported" (103).
  /** The deck switched off: its listening socket and its links close (the library's `close` only unrefs them). */
  const off = () =>
    new Promise<void>((resolve) => {
      const inner = server as unknown as {
        _server: { close(done: () => void): void };
        _sockets: Record<string, { _socket: { destroy(): void } }>;
      };
      for (const held of Object.values(inner._sockets)) held._socket.destroy();
      inner._server.close(() => resolve());
    });
  t.teardown(off);
  return { server, heard, off };
}

const hubWith = (t: ExecutionContext, port: number) =>
  hubWithPackage(t, 'hyperdeck', { deck: { type: 'hyperdeck', host: '127.0.0.1', port, timeout: 1000, ping: 1000 } });

const meta = async (hub: HubProcess, address: string) =>
  ((await (await fetch(`${hub.base}/parameters?meta=1&filter=^${address}$`)).json()) as { meta?: ParameterMeta }[])[0]?.meta;

test.serial('a clip the deck records is a choice of the clip at once: the list is read again when a recording ends', async (t) => {
  const port = await freePort();
  const { server } = deck(t, port);
  // This deck records: a fourth clip is on its disk once the recording stops.
  let recorded = false;
  server['onRecord'] = async () => {
    server.notifyTransport({ status: 'record' });
  };
  server['onStop'] = async () => {
    recorded = true;
    server.notifyTransport({ status: 'stopped' });
  };
  const clipsOf = server['onClipsGet'] as Handler;
  server['onClipsGet'] = async (command) =>
    recorded
      ? { ...((await clipsOf(command)) as Record<string, string>), 'clip count': '4', 4: 'Take 2 00:10:50:00 00:00:40:00' }
      : clipsOf(command);
  const hub = await hubWith(t, port);
  await eventually(async () => (await hub.read('deck/clips/count')) === '3', 'the clips are read', 20_000);
  t.like(await update(hub, 'deck/transport/clip', '4'), { status: 400, code: 'PB_CONVERSION' }, 'no fourth clip yet');
  t.deepEqual(await update(hub, 'deck/record', 'true'), { status: 200 });
  await eventually(async () => (await hub.read('deck/transport/status')) === 'record', 'recording');
  t.deepEqual(await update(hub, 'deck/stop', 'true'), { status: 200 });
  await eventually(async () => (await hub.read('deck/clips/count')) === '4', 'the new clip counted', 10_000);
  t.deepEqual((await meta(hub, 'deck/transport/clip'))?.choices?.at(-1), { value: 4, label: '4: Take 2' });
  t.deepEqual(await update(hub, 'deck/transport/clip', '4'), { status: 200 }, 'and taken');
});

test.serial(
  "a HyperDeck through the client library: its state with labelled choices from the deck, transport commands answered with the deck's outcome and its own codes, and back by the library's own reconnect (R-PK7, R-DV1)",
  async (t) => {
    const port = await freePort();
    let device = deck(t, port);
    const hub = await hubWith(t, port);
    await eventually(async () => (await connectionOf(hub, 'deck'))?.status === 'ok', 'the deck is up', 20_000);
    await eventually(async () => (await hub.read('deck/transport/status')) === 'stopped', 'the transport is read', 10_000);
    t.is(await hub.read('deck/device/model'), 'HyperDeck Studio HD Mini');
    t.is(await hub.read('deck/transport/status'), 'stopped');
    t.is(await hub.read('deck/transport/timecode'), '00:00:10:00');
    t.is(await hub.read('deck/slot/2/volume'), 'SHOW B');
    t.is(await hub.read('deck/clips/count'), '3');
    // Labels and choices from the deck (R-PK6): the clips by name, the slots by volume.
    t.deepEqual((await meta(hub, 'deck/transport/clip'))?.choices, [
      { value: 1, label: '1: Opener' },
      { value: 2, label: '2: Interview' },
      { value: 3, label: '3: Closer' },
    ]);
    t.deepEqual((await meta(hub, 'deck/transport/slot'))?.choices, [
      { value: 1, label: 'Slot 1: SHOW A' },
      { value: 2, label: 'Slot 2: SHOW B' },
    ]);
    t.like(await meta(hub, 'deck/transport/status'), { label: 'Transport' });

    // Writes answered with the deck's outcome.
    t.deepEqual(await update(hub, 'deck/play', 'true'), { status: 200 });
    await eventually(async () => (await hub.read('deck/transport/status')) === 'play', 'the deck says it plays', 5000);
    t.is(await hub.read('deck/transport/speed'), '100');
    t.deepEqual(await update(hub, 'deck/transport/clip', '2'), { status: 200 });
    t.true(
      device.heard.some((line) => line.startsWith('goto') && line.includes('"clip id":"2"')),
      device.heard.join('\n'),
    );
    t.like(await update(hub, 'deck/transport/clip', '9'), { status: 400, code: 'PB_CONVERSION' });

    // A command with arguments (R-PK8): one write of a JSON object, checked against them before the deck hears of it.
    t.like((await meta(hub, 'deck/transport/goto'))?.arguments?.['clip'], {
      type: 'I',
      optional: true,
      choices: [{ value: 1 }, { value: 2 }, { value: 3 }],
    });
    t.deepEqual(await update(hub, 'deck/transport/goto', JSON.stringify({ clip: '3', timecode: '00:00:05:00' })), { status: 200 });
    // The protocol's goto takes one of them: the clip, then the timecode.
    t.deepEqual(device.heard.filter((line) => line.startsWith('goto')).slice(-2), [
      'goto {"clip id":"3"}',
      'goto {"timecode":"00:00:05:00"}',
    ]);
    const heard = device.heard.length;
    for (const [written, why] of [
      ['{"clip": 9}', 'deck/transport/goto: argument "clip": 9 is not one of its choices: 1 (1: Opener), 2 (2: Interview), 3 (3: Closer)'],
      ['{"clip": "two"}', 'argument "clip"'],
      ['{"clp": 2}', 'deck/transport/goto: it takes no argument "clp": expected a JSON object of clip, timecode'],
      ['clip 2', 'is not JSON: expected a JSON object of clip, timecode'],
      ['[2]', 'expected a JSON object of clip, timecode'],
      ['{}', 'goto: give a clip, a timecode, or both'],
    ] as const) {
      const answer = await update(hub, 'deck/transport/goto', written);
      t.like(answer, { status: 400, code: 'PB_CONVERSION' }, written);
      t.true(answer.message?.includes(why), `${written}: ${answer.message}`);
    }
    t.is(device.heard.length, heard, 'no refused write reached the deck');
    t.like(await update(hub, 'deck/stop', 'true'), {
      status: 409,
      code: 'HYPERDECK_REMOTE_DISABLED',
      message: 'the deck refused stop: remote control disabled (111)',
    });
    t.like(await update(hub, 'deck/record', 'true'), { status: 502, code: 'HYPERDECK_UNSUPPORTED' });

    // Another slot, other clips: the choices follow the active slot.
    t.deepEqual(await update(hub, 'deck/transport/slot', '2'), { status: 200 });
    await eventually(
      async () => JSON.stringify((await meta(hub, 'deck/transport/clip'))?.choices) === JSON.stringify([{ value: 1, label: '1: Replay' }]),
      "the clips of slot 2 are the clip's choices",
    );
    t.is(await hub.read('deck/clips/count'), '1');
    t.like(await update(hub, 'deck/transport/clip', '3'), { status: 400, code: 'PB_CONVERSION' });

    // The deck goes away: writes refused at once; it comes back on the same port and the library reconnects by itself.
    // A command the deck never answers: the hub's timeout answers it.
    device.server['onPlay'] = () => new Promise(() => {});
    t.like(await update(hub, 'deck/play', 'true'), { status: 504, code: 'PB_DEVICE_TIMEOUT' });

    await device.off();
    await eventually(async () => (await connectionOf(hub, 'deck'))?.status === 'degraded', 'the deck is away', 20_000);
    t.like(await update(hub, 'deck/play', 'true'), { status: 503, code: 'PB_DEVICE_UNAVAILABLE' });
    device = deck(t, port);
    await eventually(async () => (await connectionOf(hub, 'deck'))?.status === 'ok', 'the library reconnected', 30_000);
    t.deepEqual(await update(hub, 'deck/play', 'true'), { status: 200 });
    t.true(device.heard.some((line) => line.startsWith('play')));
  },
);

test.serial(
  "what the deck says as the hub starts reaches the hub's rules, a stopped deck's speed of 0 and loop off included (R-DV2)",
  async (t) => {
    const port = await freePort();
    deck(t, port);
    const studio = await studioWith('hyperdeck');
    await writeFile(
      join(studio, 'flow.json5'),
      JSON.stringify({
        plugins: ['patchbay-hyperdeck'],
        connections: {
          api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
          deck: { type: 'hyperdeck', host: '127.0.0.1', port },
          // A panel's lamps, lit until told otherwise.
          panel: { type: 'dummy', parameters: ['speed,I,50', 'loop,B,true'] },
        },
        rules: [
          { source: 'deck/transport/speed', destinations: ['panel/speed'] },
          { source: 'deck/transport/loop', destinations: ['panel/loop'] },
        ],
      }),
    );
    const hub = await runHub(t, 'flow.json5', { cwd: studio, args: ['--state', 'none'] });
    await eventually(async () => (await hub.read('deck/transport/status')) === 'stopped', 'the transport is read', 20_000);
    // Before, the package declared 0 and false, so the deck's 0 and false were no change and the lamps stayed lit.
    await eventually(async () => (await hub.read('panel/speed')) === '0', "the panel shows the deck's speed");
    t.is(await hub.read('panel/loop'), 'false');
    // A refusal with a code of the package's own: the log names it as the client got it, and the hub's beside it.
    t.like(await update(hub, 'deck/stop', 'true'), { status: 409, code: 'HYPERDECK_REMOTE_DISABLED' });
    await eventually(
      () => hub.log().includes('(HYPERDECK_REMOTE_DISABLED, PB_BAD_ANSWER)'),
      () => `the log names both codes: ${hub.log().slice(-1500)}`,
    );
  },
);

test.serial(
  'a deck that refuses the connection says so in the status, as a TCP device of the hub does: refused, where the port is, not "not connected yet"',
  async (t) => {
    const port = await freePort();
    const hub = await hubWith(t, port);
    await eventually(
      async () => /refused the connection \(ECONNREFUSED\): nothing listens there/.test((await connectionOf(hub, 'deck'))?.reason ?? ''),
      'the reason says the deck refused the connection',
      20_000,
    );
    t.is((await connectionOf(hub, 'deck'))?.status, 'degraded');
    // It comes up by itself once something listens there.
    deck(t, port);
    await eventually(async () => (await connectionOf(hub, 'deck'))?.status === 'ok', 'the library connected', 30_000);
  },
);
