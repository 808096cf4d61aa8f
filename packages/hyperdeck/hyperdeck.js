// @ts-check
/**
 * `hyperdeck`: a Blackmagic HyperDeck recorder, through the client library
 * `hyperdeck-connection`, which connects, reconnects and pings on its own; `ClientLink`
 * takes what it says as the connection's status and gives its commands the hub's fencing
 * and timeout (R-PK7). Built on `patchbay-hub/connection` alone.
 *
 * The parameters of each area of the deck are made in a file of its own, on
 * `CommandedParameters`; each is listed under `parameters` below and in the README.
 */
import {
  checked,
  ClientLink,
  connectTimeoutSetting,
  defineConnectionType,
  hostSetting,
  HubError,
  portSetting,
  Type,
  unreachable,
  withDefault,
} from 'patchbay-hub/connection';
import { Commands, Hyperdeck, TransportStatus } from 'hyperdeck-connection';
import { Clips } from './clips.js';
import { DeckCommands, refusal } from './commands.js';
import { formatting } from './format.js';
import { recording } from './record.js';
import { Setup } from './setup.js';
import { Slots } from './slots.js';
import { Transport } from './transport.js';

const settings = Type.Object({
  host: hostSetting('The deck: a host name or an IP address.'),
  port: withDefault(portSetting("The deck's port."), 9993),
  timeout: withDefault(
    Type.Integer({ minimum: 100, maximum: 60_000, description: 'Milliseconds a command waits for the deck to answer it.' }),
    2000,
  ),
  ping: withDefault(
    Type.Integer({
      minimum: 0,
      maximum: 3_600_000,
      description: 'Milliseconds between pings of a quiet link (0: none); a deck that stops answering is reconnected.',
    }),
    10_000,
  ),
  connectTimeout: connectTimeoutSetting,
});

/** @typedef {import('patchbay-hub/connection').Parsed<typeof settings>} Settings */

/** A deck: the library's link to it, and what it says read onto the parameters of each area. */
class HyperdeckConnection {
  #context;
  #settings;
  #deck;
  #link;
  #commands;
  #model;
  #transport;
  #clips;
  #slots;
  #setup;
  #forgetFormat;

  /**
   * @param {import('patchbay-hub/connection').ConnectionContext} context
   * @param {Settings} settings
   */
  constructor(context, settings) {
    this.#context = context;
    this.#settings = settings;
    this.#deck = new Hyperdeck({
      pingPeriod: settings.ping,
      externalLog: (...args) => context.log.debug(args.map(String).join(' ')),
    });
    this.#link = new ClientLink(
      {
        start: (events) => this.#follow(events),
        // The library says `quit` to the deck as it leaves; a deck that refuses it is gone all the same.
        close: () => this.#deck.disconnect().catch(() => {}),
      },
      {
        scheduler: context.scheduler,
        status: context.setStatus,
        timeoutMs: settings.timeout,
        fence: context.fence,
        connectTimeoutMs: settings.connectTimeout,
      },
    );
    // No declared values: what the deck says when it is read is each one's first value, a
    // change the hub's rules take even as it starts (R-DV2), not an assumed default.
    const commands = new DeckCommands(context, this.#link, this.#deck);
    this.#commands = commands;
    this.#model = commands.readOnly('device/model', { type: 'S', meta: { label: 'Model' } });
    this.#transport = new Transport(commands);
    this.#clips = new Clips(commands);
    this.#slots = new Slots(commands);
    this.#setup = new Setup(commands);
    recording(commands, () => context.scheduler.now());
    this.#forgetFormat = formatting(commands, context.scheduler);
    this.#deck.on('notify.transport', (t) => this.#transportChanged(t));
    this.#deck.on('notify.slot', (s) => this.#slots.report(s));
    this.#deck.on('notify.configuration', (c) => this.#setup.report(c));
    this.#deck.on('notify.remote', (r) => this.#setup.remote(r));
  }

  start() {
    return this.#link.start();
  }

  stop() {
    this.#forgetFormat();
    return this.#link.stop();
  }

  details() {
    return { host: this.#settings.host, port: this.#settings.port };
  }

  /** Connects, and follows what the library says of the link. @param {import('patchbay-hub/connection').LinkAttempt} events */
  #follow(events) {
    const deck = this.#deck;
    deck.on('connected', () => {
      events.up();
      this.#read().catch((error) => this.#warn("reading the deck's state", error));
    });
    deck.on('disconnected', () => events.down('the deck closed the link, or did not answer'));
    deck.on('error', (message, error) => {
      this.#context.log.debug(`${message}: ${error instanceof Error ? error.message : String(error)}`);
      // A connect that failed (refused, no such host, no route) says why, as a TCP device of the
      // hub does; the library tries again on its own, and the same reason again changes nothing.
      if (!deck.connected && error instanceof Error && typeof (/** @type {NodeJS.ErrnoException} */ (error).code) === 'string')
        events.down(unreachable(/** @type {NodeJS.ErrnoException} */ (error), this.#settings.host, this.#settings.port));
    });
    deck.connect(this.#settings.host, this.#settings.port);
  }

  /** What the deck is on each connect: its model, slots, clips, transport and set-up; then it tells every change. */
  async #read() {
    const commands = this.#commands;
    const info = await commands.send('a query', new Commands.DeviceInfoCommand());
    this.#model.report(info.model);
    await this.#slots.read(info.slots || 0);
    await this.#clips.read();
    this.#transportChanged(await commands.send('a query', new Commands.TransportInfoCommand()));
    await commands.send(
      'a query',
      Object.assign(new Commands.NotifySetCommand(), { transport: true, slot: true, configuration: true, remote: true }),
    );
    await this.#setup.read();
  }

  /** @param {Partial<import('hyperdeck-connection').Commands.TransportInfoCommandResponse>} t what the deck said of its transport, whole or a change */
  #transportChanged(t) {
    const otherSlot = typeof t.slotId === 'number' && this.#slots.active !== t.slotId && this.#slots.active !== 0;
    // A recording that ended made a clip: the list, and the choices with it, are read again.
    const recorded = t.status !== undefined && t.status !== TransportStatus.RECORD && this.#transport.status === TransportStatus.RECORD;
    this.#transport.report(t);
    if (typeof t.slotId === 'number') this.#slots.activeIs(t.slotId);
    // Another slot holds other clips: its list, and the choices with it.
    if (otherSlot || recorded) this.#clips.read().catch((error) => this.#warn('reading the clips', error));
    if (typeof t.clipId === 'number') this.#clips.current(t.clipId);
  }

  /** @param {string} what @param {unknown} error */
  #warn(what, error) {
    this.#context.log.warn(`${what} failed: ${HubError.prototype.toString.call(refusal(error, 'a query'))}`);
  }
}

export default defineConnectionType({
  type: 'hyperdeck',
  summary: 'A Blackmagic HyperDeck recorder (TCP 9993): transport, clips, slots and timecode.',
  errors: {
    HYPERDECK_REMOTE_DISABLED: {
      status: 409,
      text: "The deck's remote control is switched off on its front panel (its answer 111): switch Remote on there.",
    },
    HYPERDECK_DISK: { status: 409, text: 'The deck has no disk in the slot, or the disk is full or failing (its answers 104–106).' },
    HYPERDECK_UNSUPPORTED: { status: 502, text: 'The deck does not support the command or one of its parameters (its answers 101, 103).' },
    HYPERDECK_REFUSED: { status: 502, text: 'The deck refused the command; the message gives its answer and code.' },
  },
  parameters: [
    { id: 'device/model', type: 'S', access: 'read-only', description: 'as the deck names itself' },
    {
      id: 'transport/status',
      type: 'S',
      access: 'read-only',
      description: 'preview, stopped, play, forward, rewind, jog, shuttle or record, each with a label',
    },
    { id: 'transport/speed', type: 'I', access: 'read-only', description: 'of normal speed; negative in reverse', unit: '%' },
    { id: 'transport/timecode', type: 'S', access: 'read-only', description: 'the timecode the deck shows' },
    { id: 'transport/loop', type: 'B', access: 'read-only', description: 'whether it plays in a loop' },
    { id: 'transport/singleClip', type: 'B', access: 'read-only', description: 'whether it plays the current clip alone' },
    { id: 'transport/videoFormat', type: 'S', access: 'read-only', description: 'the video format of the transport' },
    { id: 'transport/preview', type: 'B', access: 'read-write', description: 'true: the input is shown (preview); write to switch' },
    { id: 'play', type: 'T', access: 'write-only', description: 'plays' },
    { id: 'stop', type: 'T', access: 'write-only', description: 'stops' },
    {
      id: 'transport/play',
      type: 'S',
      access: 'write-only',
      description: 'plays with any of `speed` (%, -5000 to 5000), `loop` and `singleClip`: a JSON object of them',
    },
    {
      id: 'transport/shuttle',
      type: 'I',
      access: 'write-only',
      description: 'shuttles at this % of normal speed (-5000 to 5000)',
      unit: '%',
    },
    { id: 'transport/jog', type: 'S', access: 'write-only', description: 'jogs to a timecode, or by one: +00:00:00:05, -00:00:00:05' },
    {
      id: 'transport/slot',
      type: 'I',
      access: 'read-write',
      description: "the active slot; write one to select it (choices: the deck's slots, by volume name)",
    },
    {
      id: 'transport/select',
      type: 'S',
      access: 'write-only',
      description: 'selects a slot, a video format, or both at once: a JSON object of `slot` and `videoFormat`',
    },
    {
      id: 'transport/clip',
      type: 'I',
      access: 'read-write',
      description:
        "the current clip; write one to go to it (choices: the deck's clips by name, read again when a recording ends; a deck of more than 1,000 clips takes any by number)",
    },
    { id: 'transport/clipName', type: 'S', access: 'read-write', description: "the current clip's name; write one to go to it" },
    {
      id: 'transport/goto',
      type: 'S',
      access: 'write-only',
      description: 'goes to a clip, a timecode, or both: a JSON object of `clip` (one of the clips) and `timecode`',
    },
    { id: 'transport/skip', type: 'I', access: 'write-only', description: 'goes n clips forward, or back when negative' },
    { id: 'transport/clipStart', type: 'T', access: 'write-only', description: 'goes to the start of the clip' },
    { id: 'transport/clipEnd', type: 'T', access: 'write-only', description: 'goes to the end of the clip' },
    { id: 'record', type: 'T', access: 'write-only', description: 'records' },
    { id: 'record/name', type: 'S', access: 'write-only', description: 'records a clip of this name' },
    { id: 'record/timestamped', type: 'S', access: 'write-only', description: 'records a clip named <this>-YYYYMMDD_HHMM-' },
    { id: 'record/append', type: 'T', access: 'write-only', description: 'records onto the end of the last clip (Duplicator)' },
    { id: 'record/spill', type: 'I', access: 'write-only', description: 'goes on recording on slot n; 0: the next slot' },
    { id: 'slot/<n>/status', type: 'S', access: 'read-only', description: 'empty, mounting, error or mounted' },
    { id: 'slot/<n>/volume', type: 'S', access: 'read-only', description: "the volume's name" },
    { id: 'slot/<n>/recordingTime', type: 'I', access: 'read-only', description: 'recording time left', unit: 's' },
    { id: 'clips/count', type: 'I', access: 'read-only', description: 'the clips on the active slot' },
    { id: 'clips/fetch', type: 'T', access: 'write-only', description: 'reads the clips again' },
    { id: 'config/videoInput', type: 'S', access: 'read-write', description: 'SDI, HDMI, component, composite or optical' },
    { id: 'config/audioInput', type: 'S', access: 'read-write', description: 'embedded, XLR or RCA' },
    { id: 'config/audioCodec', type: 'S', access: 'read-write', description: 'PCM or AAC (AAC: 2 channels)' },
    { id: 'config/audioChannels', type: 'I', access: 'read-write', description: '2, 4, 8 or 16, recorded in PCM' },
    { id: 'config/fileFormat', type: 'S', access: 'read-write', description: 'the file format recorded, as the deck names it' },
    { id: 'remote', type: 'B', access: 'read-write', description: 'whether the deck takes remote control' },
    {
      id: 'format/prepare',
      type: 'S',
      access: 'write-only',
      description: 'asks the deck to format the active disk: a JSON object of `filesystem` and `seconds` to confirm in',
    },
    { id: 'format/ready', type: 'B', access: 'read-only', description: 'a format is prepared and may be confirmed' },
    { id: 'format/confirm', type: 'T', access: 'write-only', description: 'formats the disk prepared' },
  ],
  settings,
  parse(written) {
    /** @type {import('patchbay-hub/connection').Issue[]} */
    const issues = [];
    if (written.ping > 0 && written.ping < 1000) issues.push({ path: ['ping'], message: 'at least 1000 ms, or 0 for no pings' });
    return checked(issues, written);
  },
  discovers: () => ({ parameters: true }),
  create: (context, parsed) => new HyperdeckConnection(context, parsed),
});
