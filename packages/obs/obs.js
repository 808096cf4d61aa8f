// @ts-check
/**
 * `obs`: OBS Studio through its WebSocket server (obs-websocket 5, built into OBS 28 and
 * later), with the client library `obs-websocket-js`. The library connects once a call and
 * does not reconnect: `DeviceLink` opens each attempt with it and tries again while OBS is
 * away, and gives every request the hub's fencing and timeout (R-PK7). Built on
 * `patchbay-hub/connection` alone.
 *
 * OBS names its scenes, sources and transitions; a parameter id holds a name as a segment
 * (`Camera 1` → `Camera_1`, `parameterIdOf`), and the name itself is the parameter's label
 * and the value of the scene parameters. Everything is read on every connect and kept current by
 * OBS's events, tally included (OBS says itself when a source goes on air or on show).
 * Parameters are defined without a declared value: what OBS says is their first value, a
 * change that the hub's rules take even as it starts (R-DV2).
 */
import { CommandedParameters, checked, DeviceLink, defineConnectionType, Type, withDefault } from 'patchbay-hub/connection';
import { EventSubscription, OBSWebSocket } from 'obs-websocket-js';
import { ObsControls, sceneNames } from './controls.js';
import { askOf } from './requests.js';
import { SceneItems } from './scene-items.js';
import { Segments } from './segments.js';
import { Tally } from './tally.js';

const settings = Type.Object({
  host: Type.String({ minLength: 1, description: 'The machine OBS runs on: a host name or an IP address.' }),
  port: withDefault(
    Type.Integer({ minimum: 1, maximum: 65_535, description: "OBS's WebSocket server port (Tools → WebSocket Server Settings)." }),
    4455,
  ),
  password: withDefault(Type.String({ description: "The WebSocket server's password, when authentication is on." }), ''),
  timeout: withDefault(
    Type.Integer({ minimum: 100, maximum: 60_000, description: 'Milliseconds a request waits for OBS to answer it.' }),
    2000,
  ),
});

/** OBS's close code for a client whose password it refused (obs-websocket's WebSocketCloseCode). */
const AUTHENTICATION_FAILED = 4009;

/** @typedef {import('patchbay-hub/connection').Parsed<typeof settings>} Settings */

/** OBS: the link to its WebSocket server, and what it has as parameters, read anew on every connect. */
class ObsConnection {
  #context;
  #settings;
  #obs = new OBSWebSocket();
  #url;
  #link;
  /** The attempt that is open: OBS closing the link ends it. @type {import('patchbay-hub/connection').LinkAttempt | undefined} */
  #attempt;
  /** Whether the open attempt got as far as OBS taking this client, and the last error its socket gave. */
  #identified = false;
  #socketError = '';
  #controls;
  #items;
  #tally;

  /**
   * @param {import('patchbay-hub/connection').ConnectionContext} context
   * @param {Settings} settings
   */
  constructor(context, settings) {
    this.#context = context;
    this.#settings = settings;
    this.#url = `ws://${settings.host}:${settings.port}`;
    this.#link = new DeviceLink(
      { open: (attempt) => this.#open(attempt), close: () => this.#obs.disconnect() },
      { scheduler: context.scheduler, status: context.setStatus, fence: context.fence, timeoutMs: settings.timeout },
    );
    this.#obs.on('ConnectionError', (error) => {
      this.#socketError = error?.message ?? '';
    });
    // Closed before OBS took the client (refused, a wrong password): the reason is the socket's error, or OBS's.
    this.#obs.on('ConnectionClosed', (error) =>
      this.#attempt?.down(this.#identified ? `OBS closed the link${error?.message ? `: ${error.message}` : ''}` : this.#notTaken(error)),
    );
    const ask = askOf(this.#obs);
    const parameters = new CommandedParameters(context, this.#link);
    const segments = new Segments();
    this.#controls = new ObsControls(this.#obs, ask, parameters);
    this.#items = new SceneItems(this.#obs, ask, parameters, segments);
    this.#tally = new Tally(this.#obs, parameters, segments);
    this.#listen();
  }

  start() {
    return this.#link.start();
  }

  stop() {
    return this.#link.stop();
  }

  details() {
    return { host: this.#settings.host, port: this.#settings.port };
  }

  /** @param {import('patchbay-hub/connection').LinkAttempt} attempt */
  #open(attempt) {
    this.#attempt = attempt;
    this.#identified = false;
    this.#socketError = '';
    this.#obs
      .connect(this.#url, this.#settings.password || undefined, {
        // Tally is OBS's own word on what is on air: events that OBS sends only when asked.
        eventSubscriptions: EventSubscription.All | EventSubscription.InputActiveStateChanged | EventSubscription.InputShowStateChanged,
      })
      .then(
        () => {
          this.#identified = true;
          attempt.up();
          this.#again(() => this.#readAll());
        },
        (error) => attempt.down(this.#notTaken(error)),
      );
  }

  /** Why OBS did not take this client: its password refused (OBS's 4009), or OBS not reached. @param {{ code?: number, message?: string } | undefined} error */
  #notTaken(error) {
    return error?.code === AUTHENTICATION_FAILED
      ? `OBS refused the password (${this.#settings.password ? 'the password setting is not the one in Tools → WebSocket Server Settings' : 'OBS asks for one: set password'})`
      : `cannot reach OBS at ${this.#url}: ${error?.message || this.#socketError || `closed (${error?.code})`}`;
  }

  /** The whole state, on every connect: OBS may have changed while away. */
  async #readAll() {
    const names = await this.#controls.read();
    await this.#items.read(names);
    await this.#tally.read();
  }

  /** OBS's events, each to the part it changes; a change of the scenes to both that show them. */
  #listen() {
    const again = (/** @type {() => Promise<unknown>} */ read) => this.#again(read);
    this.#controls.listen(again);
    this.#items.listen(again);
    this.#tally.listen(again);
    this.#obs.on('SceneListChanged', ({ scenes }) => {
      const names = sceneNames(scenes);
      this.#controls.scenes(names);
      again(() => this.#items.read(names));
    });
    this.#obs.on('SceneNameChanged', () =>
      again(async () => {
        const { scenes } = await this.#obs.call('GetSceneList');
        const names = sceneNames(scenes);
        this.#controls.scenes(names);
        await this.#items.read(names);
      }),
    );
  }

  /** Runs what an event asks to read again; a failure is said, not thrown into the library. @param {() => Promise<unknown>} read */
  #again(read) {
    void read().catch((error) => this.#context.log.warn(`reading OBS's state failed: ${error?.message ?? error}`));
  }
}

export default defineConnectionType({
  type: 'obs',
  summary:
    'OBS Studio (obs-websocket 5, TCP 4455): scenes, program and preview, studio mode, transitions, sources, recording, streaming, tally.',
  errors: {
    OBS_STUDIO_MODE: {
      status: 409,
      text: 'OBS is not in studio mode (or is, when the request wants it off): preview and the studio transition need it on; write true to `studioMode` first.',
    },
    OBS_OUTPUT: {
      status: 409,
      text: 'The output (recording, streaming) is not in a state the request can change: not running, already running, not paused; or it is switched off in OBS.',
    },
    OBS_NOT_FOUND: { status: 409, text: 'OBS no longer has the scene, source or transition the value names.' },
    OBS_REFUSED: { status: 502, text: 'OBS refused the request; the message gives its answer and code.' },
  },
  parameters: [
    { id: 'scene/program', type: 'S', access: 'read-write', description: "the scene on program (choices: OBS's scenes, by name)" },
    {
      id: 'scene/preview',
      type: 'S',
      access: 'read-write',
      description: 'the scene on preview in studio mode, empty when studio mode is off (choices: the scenes)',
    },
    { id: 'studioMode', type: 'B', access: 'read-write', description: 'whether studio mode (preview and program) is on' },
    {
      id: 'transition/run',
      type: 'T',
      access: 'write-only',
      description: 'takes preview to program with the current transition (studio mode)',
    },
    {
      id: 'transition/current',
      type: 'S',
      access: 'read-write',
      description: "the transition the next scene change uses (choices: OBS's transitions)",
    },
    { id: 'transition/duration', type: 'I', access: 'read-write', description: "the current transition's duration", unit: 'ms' },
    { id: 'transition/running', type: 'B', access: 'read-only', description: 'whether a transition is under way' },
    { id: 'scene/<scene>/source/<source>/visible', type: 'B', access: 'read-write', description: "a source's visibility in a scene" },
    { id: 'input/<input>/tally/program', type: 'B', access: 'read-only', description: 'the source is on air (OBS says it is active)' },
    {
      id: 'input/<input>/tally/preview',
      type: 'B',
      access: 'read-only',
      description: 'the source is shown but not on air: on preview in studio mode',
    },
    { id: 'recording/active', type: 'B', access: 'read-write', description: 'whether OBS records; write true to start, false to stop' },
    { id: 'recording/paused', type: 'B', access: 'read-write', description: 'whether the recording is paused' },
    { id: 'streaming/active', type: 'B', access: 'read-write', description: 'whether OBS streams; write true to start, false to stop' },
    { id: 'device/version', type: 'S', access: 'read-only', description: "OBS's version and its WebSocket server's" },
  ],
  settings,
  parse: (written) => checked([], written),
  discovers: () => ({ parameters: true }),
  create: (context, parsed) => new ObsConnection(context, parsed),
});
