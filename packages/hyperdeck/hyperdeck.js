// @ts-check
/**
 * `hyperdeck`: a Blackmagic HyperDeck recorder, through the client library
 * `hyperdeck-connection`, which connects, reconnects and pings on its own; `ClientLink`
 * takes what it says as the connection's status and gives its commands the hub's fencing
 * and timeout (R-PK7). Built on `patchbay-hub/connection` alone.
 *
 * Parameters:
 *   transport/status     S   read-only    preview, stopped, play, forward, rewind, jog, shuttle, record
 *   transport/speed      I   read-only    % of normal speed (negative: reverse)
 *   transport/timecode   S   read-only    the timecode the deck shows
 *   transport/loop       B   read-only
 *   transport/slot       I   read-write   the active slot; write to select one (choices: its slots, by volume)
 *   transport/clip       I   read-write   the current clip; write to go to one (choices: the clips, by name)
 *   play, stop, record   T   write-only   the transport commands
 *   slot/<n>/status      S   read-only    empty, mounting, error, mounted
 *   slot/<n>/volume      S   read-only    the volume's name
 *   slot/<n>/recordingTime I read-only    seconds of recording left
 *   clips/count          I   read-only
 *   device/model         S   read-only    as the deck names itself
 */
import { ClientLink, checked, connectTimeoutSetting, defineConnectionType, HubError, Type, withDefault } from 'patchbay-hub/connection';
import { Commands, Hyperdeck, SlotStatus, TransportStatus } from 'hyperdeck-connection';

const settings = Type.Object({
  host: Type.String({ minLength: 1, description: 'The deck: a host name or an IP address.' }),
  port: withDefault(Type.Integer({ minimum: 1, maximum: 65_535, description: "The deck's port." }), 9993),
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

/** The transport's states, as the deck names them, for a person. */
const TRANSPORT = [
  { value: TransportStatus.PREVIEW, label: 'Preview' },
  { value: TransportStatus.STOPPED, label: 'Stopped' },
  { value: TransportStatus.PLAY, label: 'Playing' },
  { value: TransportStatus.FORWARD, label: 'Forward' },
  { value: TransportStatus.REWIND, label: 'Rewind' },
  { value: TransportStatus.JOG, label: 'Jog' },
  { value: TransportStatus.SHUTTLE, label: 'Shuttle' },
  { value: TransportStatus.RECORD, label: 'Recording' },
];

const SLOT = [
  { value: SlotStatus.EMPTY, label: 'Empty' },
  { value: SlotStatus.MOUNTING, label: 'Mounting' },
  { value: SlotStatus.ERROR, label: 'Error' },
  { value: SlotStatus.MOUNTED, label: 'Mounted' },
];

/** The most clips offered as choices of `transport/clip`: a deck with more offers none, and takes any clip by number. */
const MOST_CLIP_CHOICES = 1000;

/**
 * The deck's refusal (the library rejects with its answer: `{ code, name }`) as this type's
 * own code (R-PK8), or the hub's timeout and link errors as they are.
 * @param {unknown} answer
 * @param {string} what
 */
function refusal(answer, what) {
  if (answer instanceof HubError) return answer;
  // The library's own refusal to send (a command it cannot write): its message says why.
  if (answer instanceof Error) return new HubError('PB_BAD_ANSWER', `${what}: ${answer.message}`, { declared: 'HYPERDECK_REFUSED' });
  const { code, name } = /** @type {{ code?: unknown, name?: unknown }} */ (answer ?? {});
  const said = `the deck refused ${what}: ${typeof name === 'string' ? name : 'no reason'}${typeof code === 'number' ? ` (${code})` : ''}`;
  const declared =
    code === 111
      ? 'HYPERDECK_REMOTE_DISABLED'
      : code === 104 || code === 105 || code === 106
        ? 'HYPERDECK_DISK'
        : code === 101 || code === 103
          ? 'HYPERDECK_UNSUPPORTED'
          : 'HYPERDECK_REFUSED';
  return new HubError('PB_BAD_ANSWER', said, { declared });
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
    {
      id: 'transport/status',
      type: 'S',
      access: 'read-only',
      description: 'preview, stopped, play, forward, rewind, jog, shuttle or record, each with a label',
    },
    { id: 'transport/speed', type: 'I', access: 'read-only', description: 'of normal speed; negative in reverse', unit: '%' },
    { id: 'transport/timecode', type: 'S', access: 'read-only', description: 'the timecode the deck shows' },
    { id: 'transport/loop', type: 'B', access: 'read-only', description: 'whether it plays in a loop' },
    {
      id: 'transport/slot',
      type: 'I',
      access: 'read-write',
      description: "the active slot; write one to select it (choices: the deck's slots, by volume name)",
    },
    {
      id: 'transport/clip',
      type: 'I',
      access: 'read-write',
      description:
        "the current clip; write one to go to it (choices: the deck's clips by name, read again when a recording ends; a deck of more than 1,000 clips takes any by number)",
    },
    {
      id: 'transport/goto',
      type: 'S',
      access: 'write-only',
      description: 'goes to a clip, a timecode, or both: a JSON object of `clip` (one of the clips) and `timecode`',
    },
    { id: 'play', type: 'T', access: 'write-only', description: 'plays' },
    { id: 'stop', type: 'T', access: 'write-only', description: 'stops' },
    { id: 'record', type: 'T', access: 'write-only', description: 'records' },
    { id: 'slot/<n>/status', type: 'S', access: 'read-only', description: 'empty, mounting, error or mounted' },
    { id: 'slot/<n>/volume', type: 'S', access: 'read-only', description: "the volume's name" },
    { id: 'slot/<n>/recordingTime', type: 'I', access: 'read-only', description: 'recording time left', unit: 's' },
    { id: 'clips/count', type: 'I', access: 'read-only', description: 'the clips on the active slot' },
    { id: 'device/model', type: 'S', access: 'read-only', description: 'as the deck names itself' },
  ],
  settings,
  parse(written) {
    /** @type {import('patchbay-hub/connection').Issue[]} */
    const issues = [];
    if (written.ping > 0 && written.ping < 1000) issues.push({ path: ['ping'], message: 'at least 1000 ms, or 0 for no pings' });
    return checked(issues, written);
  },
  discovers: () => ({ parameters: true }),
  create(context, { host, port, timeout, ping, connectTimeout }) {
    const deck = new Hyperdeck({ pingPeriod: ping, externalLog: (...args) => context.log.debug(args.map(String).join(' ')) });
    const link = new ClientLink(
      {
        start(events) {
          deck.on('connected', () => {
            events.up();
            read().catch((error) =>
              context.log.warn(`reading the deck's state failed: ${HubError.prototype.toString.call(refusal(error, 'a query'))}`),
            );
          });
          deck.on('disconnected', () => events.down('the deck closed the link, or did not answer'));
          deck.on('error', (message, error) => context.log.debug(`${message}: ${error instanceof Error ? error.message : String(error)}`));
          deck.connect(host, port);
        },
        // The library says `quit` to the deck as it leaves; a deck that refuses it is gone all the same.
        close: () => deck.disconnect().catch(() => {}),
      },
      {
        scheduler: context.scheduler,
        status: context.setStatus,
        timeoutMs: timeout,
        fence: context.fence,
        connectTimeoutMs: connectTimeout,
      },
    );

    // No declared values: what the deck says when it is read is each one's first value, a
    // change the hub's rules take even as it starts (R-DV2), not an assumed default.
    const model = context.define('device/model', { type: 'S', access: 'read-only', meta: { label: 'Model' } });
    const status = context.define('transport/status', {
      type: 'S',
      access: 'read-only',
      meta: { label: 'Transport', choices: TRANSPORT },
    });
    const speed = context.define('transport/speed', { type: 'I', access: 'read-only', meta: { label: 'Speed', unit: '%' } });
    const timecode = context.define('transport/timecode', { type: 'S', access: 'read-only', meta: { label: 'Timecode' } });
    const loop = context.define('transport/loop', { type: 'B', access: 'read-only', meta: { label: 'Loop' } });
    const clipCount = context.define('clips/count', { type: 'I', access: 'read-only', meta: { label: 'Clips' } });

    /**
     * A command of the deck as a write: answered when the deck answered it.
     * @param {() => import('hyperdeck-connection').Commands.AbstractCommand<unknown>} make
     * @param {string} what
     * @param {import('patchbay-hub/connection').Answered | undefined} answered
     */
    const command = (make, what, answered) =>
      link.command(() => deck.sendCommand(make()).catch((/** @type {unknown} */ error) => Promise.reject(refusal(error, what))), answered);

    /** @param {string} id @param {string} label @param {() => import('hyperdeck-connection').Commands.AbstractCommand<unknown>} make */
    const trigger = (id, label, make) =>
      context.define(id, {
        type: 'T',
        access: 'write-only',
        meta: { label },
        ownedHere: true,
        forward: (_v, _o, answered) => command(make, id, answered),
      });
    trigger('play', 'Play', () => new Commands.PlayCommand());
    trigger('stop', 'Stop', () => new Commands.StopCommand());
    trigger('record', 'Record', () => new Commands.RecordCommand());

    /**
     * A whole-number setting of the deck that a write commands and the deck reports back.
     * @param {string} id @param {string} label @param {(n: number) => import('hyperdeck-connection').Commands.AbstractCommand<unknown>} make
     */
    const selector = (id, label, make) =>
      context.define(id, {
        type: 'I',
        access: 'read-write',
        meta: { label },
        ownedHere: true,
        forward: (value, _origin, answered) => command(() => make(Number(value)), `${label.toLowerCase()} ${value}`, answered),
      });
    const slot = selector('transport/slot', 'Slot', (slotId) => Object.assign(new Commands.SlotSelectCommand(), { slotId }));
    const clip = selector('transport/clip', 'Clip', (clipId) => new Commands.GoToCommand(undefined, clipId));

    /**
     * `goto` with its arguments (R-PK8): a clip, a timecode, or both, as one write —
     * `{"clip": 2, "timecode": "00:00:05:00"}`; the hub checks the JSON against them first.
     * The protocol's `goto` takes one of them: both are two commands, the clip first,
     * answered when the deck answered both.
     * @param {import('patchbay-hub/connection').Choice[]} [clips]
     * @returns {import('patchbay-hub/connection').ParameterMeta}
     */
    const gotoMeta = (clips) => ({
      label: 'Go to',
      arguments: {
        clip: { type: 'I', label: 'Clip', optional: true, ...(clips && { choices: clips }) },
        timecode: { type: 'S', label: 'Timecode', description: 'hh:mm:ss:ff, or +/- frames from here', optional: true },
      },
    });
    const goTo = context.define('transport/goto', {
      type: 'S',
      access: 'write-only',
      meta: gotoMeta(),
      ownedHere: true,
      forward: (value, _origin, answered) => {
        const { clip: clipId, timecode } = /** @type {{ clip?: number, timecode?: string }} */ (JSON.parse(String(value)));
        const steps = [
          ...(clipId === undefined ? [] : [new Commands.GoToCommand(undefined, clipId)]),
          ...(timecode === undefined ? [] : [new Commands.GoToCommand(undefined, undefined, timecode)]),
        ];
        if (steps.length === 0) return { ok: false, error: new HubError('PB_CONVERSION', 'goto: give a clip, a timecode, or both') };
        return link.command(async () => {
          for (const step of steps)
            await deck.sendCommand(step).catch((/** @type {unknown} */ error) => Promise.reject(refusal(error, `goto ${value}`)));
        }, answered);
      },
    });

    /** @type {Map<number, { status: import('patchbay-hub/connection').OwnedParameter, volume: import('patchbay-hub/connection').OwnedParameter, time: import('patchbay-hub/connection').OwnedParameter }>} */
    const slots = new Map();
    /** @param {number} n */
    const slotOf = (n) => {
      let found = slots.get(n);
      if (!found) {
        found = {
          status: context.define(`slot/${n}/status`, {
            type: 'S',
            access: 'read-only',
            meta: { label: `Slot ${n}`, choices: SLOT },
          }),
          volume: context.define(`slot/${n}/volume`, { type: 'S', access: 'read-only', meta: { label: `Slot ${n} volume` } }),
          time: context.define(`slot/${n}/recordingTime`, {
            type: 'I',
            access: 'read-only',
            meta: { label: `Slot ${n} recording time left`, unit: 's' },
          }),
        };
        slots.set(n, found);
      }
      return found;
    };

    /** @param {{ status?: string, speed?: number, displayTimecode?: string, loop?: boolean, slotId?: number | null, clipId?: number | null }} t what the deck said of its transport, whole or a change */
    const transport = (t) => {
      if (t.speed !== undefined) speed.report(t.speed);
      if (t.displayTimecode !== undefined) timecode.report(t.displayTimecode);
      if (t.loop !== undefined) loop.report(t.loop);
      const otherSlot = typeof t.slotId === 'number' && slot.value !== t.slotId && slot.value !== 0;
      // A recording that ended made a clip: the list, and the choices with it, are read again.
      const recorded = t.status !== undefined && t.status !== 'record' && status.value === 'record';
      if (t.status !== undefined) status.report(t.status);
      if (typeof t.slotId === 'number') slot.report(t.slotId);
      // Another slot holds other clips: its list, and the choices with it.
      if (otherSlot || recorded)
        readClips().catch((error) =>
          context.log.warn(`reading the clips failed: ${HubError.prototype.toString.call(refusal(error, 'a query'))}`),
        );
      if (typeof t.clipId === 'number') clip.report(t.clipId);
    };
    /** @param {{ slotId: number, status?: string, volumeName?: string, recordingTime?: number }} s what the deck said of a slot, whole or a change */
    const slotInfo = (s) => {
      if (typeof s.slotId !== 'number' || s.slotId < 1 || s.slotId > 16) return;
      const { status: slotStatus, volume, time } = slotOf(s.slotId);
      if (s.status !== undefined) slotStatus.report(s.status);
      if (s.volumeName !== undefined) volume.report(s.volumeName);
      if (s.recordingTime !== undefined) time.report(s.recordingTime);
      slot.describe({
        label: 'Slot',
        choices: [...slots].map(([n, { volume: v }]) => ({ value: n, label: `Slot ${n}${v.value ? `: ${v.value}` : ''}` })),
      });
    };
    deck.on('notify.transport', transport);
    deck.on('notify.slot', slotInfo);

    /** The clips of the active slot, as the choices of `transport/clip`. */
    const readClips = async () => {
      const clips = await deck.sendCommand(new Commands.ClipsGetCommand());
      clipCount.report(clips.clipCount);
      // Past the bound no choices are offered: a list cut short would refuse the clips left out.
      const choices =
        clips.clips.length > MOST_CLIP_CHOICES
          ? undefined
          : clips.clips.map(({ clipId, name }) => ({ value: clipId, label: `${clipId}: ${name}` }));
      clip.describe({ label: 'Clip', ...(choices && { choices }) });
      goTo.describe(gotoMeta(choices));
    };
    /** What the deck is on each connect: its model, slots, clips and transport; then it tells every change. */
    const read = async () => {
      const info = await deck.sendCommand(new Commands.DeviceInfoCommand());
      model.report(info.model);
      for (let n = 1; n <= Math.min(info.slots || 0, 16); n++) slotInfo(await deck.sendCommand(new Commands.SlotInfoCommand(n)));
      await readClips();
      transport(await deck.sendCommand(new Commands.TransportInfoCommand()));
      await deck.sendCommand(Object.assign(new Commands.NotifySetCommand(), { transport: true, slot: true }));
    };

    return {
      start: () => link.start(),
      stop: () => link.stop(),
      details: () => ({ host, port }),
    };
  },
});
