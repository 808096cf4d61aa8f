/**
 * The `hyperdeck` package's breadth beside Companion's module (R-DV4): play with speed,
 * record with a name, jog and shuttle, go to a clip by name or by some clips, slots with a
 * video format, the deck's set-up, remote control and formatting — each a labelled
 * parameter (R-PK6), each write the command `hyperdeck-server-connection` (a HyperDeck
 * server library nobody on the team wrote) hears with its parameters, and what the deck
 * tells read back.
 */
import { createRequire } from 'node:module';
import test, { type ExecutionContext } from 'ava';
import type { ParameterMeta } from '../../lib/core/parameter-meta.ts';
import { eventually } from '../helpers/eventually.ts';
import type { HubProcess } from '../helpers/hub-process.ts';
import { connectionOf, hubWithPackage, update } from '../helpers/outside-package.ts';
import { freePort } from '../helpers/ports.ts';

const require = createRequire(import.meta.url);

type Command = { name: string; parameters: Record<string, string> };
type Handler = (command: Command) => Promise<unknown>;
type Server = Record<string, Handler | undefined> & {
  notifyTransport(params: Record<string, string>): void;
  /** The library's notice to every client of a kind it has no public method for (2: remote, 3: configuration). */
  _notify(kind: number, params: Record<string, string>): void;
  _receivedCommand(command: Command): Promise<unknown>;
};
const { HyperdeckServer } = require('hyperdeck-server-connection') as { HyperdeckServer: new (ip: string, port: number) => Server };
const { TResponse } = require('hyperdeck-server-connection/dist/types') as {
  TResponse: new (code: number, name: string) => unknown;
};
const REMOTE = 2;
const CONFIGURATION = 3;

/** A deck of two slots, three clips, a set-up and remote control, that records every command it is given with its parameters. */
function deck(t: ExecutionContext, port: number) {
  const server = new HyperdeckServer('127.0.0.1', port);
  const heard: string[] = [];
  const hear = (command: Command) => heard.push(`${command.name} ${JSON.stringify(command.parameters)}`);
  const transport: Record<string, string> = {
    status: 'stopped',
    speed: '0',
    'slot id': '1',
    'clip id': '2',
    'single clip': 'false',
    'display timecode': '00:00:10:00',
    timecode: '00:00:10:00',
    'video format': '1080i50',
    loop: 'false',
  };
  const configuration: Record<string, string> = {
    'video input': 'SDI',
    'audio input': 'embedded',
    'file format': 'QuickTimeProRes',
    'audio codec': 'PCM',
    'audio input channels': '4',
  };
  let clips = ['Opener', 'Interview', 'Closer'];
  server['onDeviceInfo'] = async () => ({ 'protocol version': '1.11', model: 'HyperDeck Studio HD Plus', 'slot count': '2' });
  server['onSlotInfo'] = async (command) => ({
    'slot id': command.parameters['slot id'] ?? '1',
    status: 'mounted',
    'volume name': command.parameters['slot id'] === '2' ? 'SHOW B' : 'SHOW A',
    'recording time': '3600',
    'video format': '1080i50',
  });
  server['onClipsGet'] = async () => ({
    'clip count': String(clips.length),
    ...Object.fromEntries(clips.map((name, n) => [n + 1, `${name} 00:00:00:00 00:00:30:00`])),
  });
  server['onTransportInfo'] = async () => transport;
  for (const handler of ['onPlay', 'onStop', 'onRecord', 'onJog', 'onShuttle', 'onSlotSelect', 'onGoTo'])
    server[handler] = async (command) => void hear(command);
  server['onPreview'] = async (command) => {
    hear(command);
    transport['status'] = command.parameters['enable'] === 'true' ? 'preview' : 'stopped';
    server.notifyTransport({ status: transport['status'] });
  };
  // The set-up, and remote control: a query has no parameters, a change has some and is told to every client.
  server['onConfiguration'] = async (command) => {
    if (Object.keys(command.parameters).length === 0) return configuration;
    hear(command);
    Object.assign(configuration, command.parameters);
    server._notify(CONFIGURATION, command.parameters);
    return undefined;
  };
  let remote = true;
  server['onRemote'] = async (command) => {
    if (command.parameters['enable'] === undefined) return { enabled: remote, override: false };
    hear(command);
    remote = command.parameters['enable'] === 'true';
    server._notify(REMOTE, { enabled: String(remote) });
    return undefined;
  };
  server['onFormat'] = async (command) => {
    hear(command);
    return command.parameters['prepare'] ? { code: 'TOKEN-7' } : undefined;
  };
  // `record spill` is a command the server library does not know: this deck takes it.
  const received = server._receivedCommand.bind(server);
  server._receivedCommand = (command) =>
    command.name === 'record spill' ? Promise.resolve(void hear(command)).then(() => new TResponse(200, 'ok')) : received(command);
  t.teardown(() => {
    const inner = server as unknown as {
      _server: { close(): void };
      _sockets: Record<string, { _socket: { destroy(): void } }>;
    };
    for (const held of Object.values(inner._sockets)) held._socket.destroy();
    inner._server.close();
  });
  return {
    server,
    heard,
    transport,
    set clips(names: string[]) {
      clips = names;
    },
  };
}

const meta = async (hub: HubProcess, address: string) =>
  ((await (await fetch(`${hub.base}/parameters?meta=1&filter=^${address}$`)).json()) as { meta?: ParameterMeta }[])[0]?.meta;

/** A deck and a hub connected to it, its state read. */
async function connected(t: ExecutionContext) {
  const port = await freePort();
  const device = deck(t, port);
  const hub = await hubWithPackage(t, 'hyperdeck', { deck: { type: 'hyperdeck', host: '127.0.0.1', port, timeout: 1000, ping: 1000 } });
  await eventually(
    async () => (await connectionOf(hub, 'deck'))?.status === 'ok',
    () => `the deck is up: ${hub.log().slice(-3000)}`,
    20_000,
  );
  await eventually(async () => (await hub.read('deck/remote')) === 'true', 'the set-up is read', 10_000);
  /** Writes `value` and says what the deck heard of it. */
  const write = async (address: string, value: string) => {
    const before = device.heard.length;
    const answer = await update(hub, address, value);
    return { answer, heard: device.heard.slice(before) };
  };
  return { hub, device, write };
}

test.serial('the transport moves as a studio asks: play with speed, loop and single clip, shuttle, jog, preview (R-DV4)', async (t) => {
  const { hub, device, write } = await connected(t);
  t.is(await hub.read('deck/transport/singleClip'), 'false');
  t.is(await hub.read('deck/transport/videoFormat'), '1080i50');
  t.is(await hub.read('deck/transport/preview'), 'false');
  t.like((await meta(hub, 'deck/transport/play'))?.arguments?.['speed'], { type: 'I', minimum: -5000, maximum: 5000, unit: '%' });

  t.deepEqual(await write('deck/transport/play', JSON.stringify({ speed: -50, loop: true, singleClip: true })), {
    answer: { status: 200 },
    heard: ['play {"speed":"-50","loop":"true","single clip":"true"}'],
  });
  t.deepEqual((await write('deck/transport/play', '{}')).heard, ['play {}'], 'at normal speed');
  t.deepEqual((await write('deck/transport/shuttle', '400')).heard, ['shuttle {"speed":"400"}']);
  t.deepEqual((await write('deck/transport/shuttle', '-1600')).heard, ['shuttle {"speed":"-1600"}'], 'in reverse');
  t.deepEqual((await write('deck/transport/jog', '+00:00:00:05')).heard, ['jog {"timecode":"+00:00:00:05"}']);
  t.deepEqual((await write('deck/transport/jog', '-00:00:01:00')).heard, ['jog {"timecode":"-00:00:01:00"}']);
  for (const [address, value] of [
    ['deck/transport/shuttle', '6000'],
    ['deck/transport/play', '{"speed": 9000}'],
    ['deck/transport/jog', 'five frames'],
  ] as const) {
    const { answer, heard } = await write(address, value);
    t.like(answer, { status: 400, code: 'PB_CONVERSION' }, `${address} ${value}`);
    t.deepEqual(heard, [], `${address} ${value} not sent`);
  }

  // The deck says what it does: it plays one clip alone in a loop, in 1080p25.
  device.server.notifyTransport({ 'single clip': 'true', loop: 'true', 'video format': '1080p25' });
  await eventually(async () => (await hub.read('deck/transport/singleClip')) === 'true', 'single clip playback');
  t.is(await hub.read('deck/transport/loop'), 'true');
  t.is(await hub.read('deck/transport/videoFormat'), '1080p25');

  t.deepEqual(await write('deck/transport/preview', 'true'), { answer: { status: 200 }, heard: ['preview {"enable":"true"}'] });
  await eventually(async () => (await hub.read('deck/transport/preview')) === 'true', 'in preview');
  t.is(await hub.read('deck/transport/status'), 'preview');
  t.deepEqual((await write('deck/transport/preview', 'false')).heard, ['preview {"enable":"false"}']);
  await eventually(async () => (await hub.read('deck/transport/preview')) === 'false', 'the output shown again');
});

test.serial(
  'clips by name and by steps, slots with a format, and recording with a name, the date, appended or spilled (R-DV4)',
  async (t) => {
    const { hub, device, write } = await connected(t);
    t.is(await hub.read('deck/transport/clipName'), 'Interview', "the current clip's name");
    t.deepEqual((await meta(hub, 'deck/transport/clipName'))?.choices, [
      { value: 'Opener', label: 'Opener' },
      { value: 'Interview', label: 'Interview' },
      { value: 'Closer', label: 'Closer' },
    ]);
    t.deepEqual((await write('deck/transport/clipName', 'Closer')).heard, ['goto {"clip id":"3"}'], 'a clip by its name');
    const unknown = await write('deck/transport/clipName', 'Outtakes');
    t.like(unknown.answer, { status: 400, code: 'PB_CONVERSION' });
    t.deepEqual(unknown.heard, []);
    device.server.notifyTransport({ 'clip id': '1' });
    await eventually(async () => (await hub.read('deck/transport/clipName')) === 'Opener', 'the name follows the clip the deck is on');

    t.deepEqual((await write('deck/transport/skip', '2')).heard, ['goto {"clip id":"+2"}']);
    t.deepEqual((await write('deck/transport/skip', '-1')).heard, ['goto {"clip id":"-1"}']);
    t.like((await write('deck/transport/skip', '0')).answer, { status: 400 });
    t.deepEqual((await write('deck/transport/clipStart', 'true')).heard, ['goto {"clip":"start"}']);
    t.deepEqual((await write('deck/transport/clipEnd', 'true')).heard, ['goto {"clip":"end"}']);

    t.deepEqual((await write('deck/transport/select', JSON.stringify({ slot: 2, videoFormat: '1080p25' }))).heard, [
      'slot select {"slot id":"2","video format":"1080p25"}',
    ]);
    t.deepEqual((await write('deck/transport/select', JSON.stringify({ videoFormat: '720p50' }))).heard, [
      'slot select {"video format":"720p50"}',
    ]);
    t.like((await write('deck/transport/select', JSON.stringify({ slot: 3 }))).answer, { status: 400 }, 'no slot 3');
    t.like((await write('deck/transport/select', JSON.stringify({ videoFormat: '1080p26' }))).answer, { status: 400 });

    t.deepEqual((await write('deck/record/name', 'Interview A')).heard, ['record {"name":"Interview A"}']);
    const stamped = (await write('deck/record/timestamped', 'CAM')).heard;
    const now = new Date();
    const today = `${now.getFullYear()}${String(now.getMonth() + 1).padStart(2, '0')}${String(now.getDate()).padStart(2, '0')}`;
    t.regex(stamped[0] ?? '', new RegExp(`^record \\{"name":"CAM-${today}_\\d{4}-"\\}$`), 'named with the date and time');
    t.regex((await write('deck/record/timestamped', '')).heard[0] ?? '', new RegExp(`^record \\{"name":"${today}_\\d{4}-"\\}$`));
    t.deepEqual((await write('deck/record/append', 'true')).heard, ['record {"append":"true"}']);
    t.deepEqual((await write('deck/record/spill', '2')).heard, ['record spill {"slot id":"2"}']);
    t.deepEqual((await write('deck/record/spill', '0')).heard, ['record spill {}'], 'onto the next slot');
    t.like((await write('deck/record/name', 'two\nlines')).answer, { status: 400 });

    // A clip copied onto the disk by other means is a choice once the list is read again.
    device.clips = ['Opener', 'Interview', 'Closer', 'Sting'];
    t.deepEqual((await write('deck/clips/fetch', 'true')).answer, { status: 200 });
    t.is(await hub.read('deck/clips/count'), '4');
    t.deepEqual((await meta(hub, 'deck/transport/clipName'))?.choices?.at(-1), { value: 'Sting', label: 'Sting' });
  },
);

test.serial(
  "the deck's set-up, remote control and formatting: read, written as its commands, and followed as it changes (R-DV4)",
  async (t) => {
    const { hub, device, write } = await connected(t);
    t.is(await hub.read('deck/config/videoInput'), 'SDI');
    t.is(await hub.read('deck/config/audioInput'), 'embedded');
    t.is(await hub.read('deck/config/fileFormat'), 'QuickTimeProRes');
    t.is(await hub.read('deck/config/audioCodec'), 'PCM');
    t.is(await hub.read('deck/config/audioChannels'), '4');
    t.like(await meta(hub, 'deck/config/videoInput'), { label: 'Video input' });
    t.like(await meta(hub, 'deck/remote'), { label: 'Remote control' });

    t.deepEqual(await write('deck/config/videoInput', 'HDMI'), {
      answer: { status: 200 },
      heard: ['configuration {"video input":"HDMI"}'],
    });
    await eventually(async () => (await hub.read('deck/config/videoInput')) === 'HDMI', 'the input the deck switched to');
    t.deepEqual((await write('deck/config/audioInput', 'XLR')).heard, ['configuration {"audio input":"XLR"}']);
    t.deepEqual((await write('deck/config/fileFormat', 'H.264High')).heard, ['configuration {"file format":"H.264High"}']);
    t.deepEqual((await write('deck/config/audioChannels', '8')).heard, ['configuration {"audio codec":"PCM","audio input channels":"8"}']);
    await eventually(async () => (await hub.read('deck/config/audioChannels')) === '8', 'eight channels');
    t.deepEqual((await write('deck/config/audioCodec', 'AAC')).heard, ['configuration {"audio codec":"AAC","audio input channels":"2"}']);
    await eventually(async () => (await hub.read('deck/config/audioCodec')) === 'AAC', 'AAC');
    t.like((await write('deck/config/videoInput', 'SCART')).answer, { status: 400, code: 'PB_CONVERSION' });
    t.like((await write('deck/config/audioChannels', '6')).answer, { status: 400, code: 'PB_CONVERSION' });

    // Someone at the deck switches to HDMI audio input and takes remote control away.
    device.server._notify(CONFIGURATION, { 'audio input': 'RCA' });
    await eventually(async () => (await hub.read('deck/config/audioInput')) === 'RCA', 'the change at the deck');
    device.server._notify(REMOTE, { enabled: 'false' });
    await eventually(async () => (await hub.read('deck/remote')) === 'false', 'remote control off at the deck');
    t.deepEqual((await write('deck/remote', 'true')).heard, ['remote {"enable":"true"}']);
    await eventually(async () => (await hub.read('deck/remote')) === 'true', 'remote control on again');

    // Formatting takes two steps: nothing is erased by one press.
    t.like((await write('deck/format/confirm', 'true')).answer, { status: 400, code: 'PB_CONVERSION' }, 'nothing prepared');
    t.is(await hub.read('deck/format/ready'), 'false');
    t.deepEqual((await write('deck/format/prepare', JSON.stringify({ filesystem: 'exFAT', seconds: 30 }))).heard, [
      'format {"prepare":"exFAT"}',
    ]);
    await eventually(async () => (await hub.read('deck/format/ready')) === 'true', 'prepared');
    t.deepEqual((await write('deck/format/confirm', 'true')).heard, ['format {"confirm":"TOKEN-7"}'], "confirmed with the deck's token");
    t.is(await hub.read('deck/format/ready'), 'false');
    t.like((await write('deck/format/prepare', JSON.stringify({ filesystem: 'FAT32' }))).answer, { status: 400 });
    // A preparation not confirmed in time is forgotten.
    await write('deck/format/prepare', JSON.stringify({ filesystem: 'HFS+', seconds: 1 }));
    await eventually(async () => (await hub.read('deck/format/ready')) === 'true', 'prepared again');
    await eventually(async () => (await hub.read('deck/format/ready')) === 'false', 'forgotten after a second', 5000);
    t.like((await write('deck/format/confirm', 'true')).answer, { status: 400 });
  },
);
