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
 * OBS's events, tally included (OBS says itself when a source goes on air or on show); what
 * OBS does not tell (its stats, the time of media and outputs, texts before OBS 30.1) is polled
 * every 2 s while it is connected (`stats.js`). The parameters, by id: `parameter-list.js`.
 * Parameters are defined without a declared value: what OBS says is their first value, a
 * change that the hub's rules take even as it starts (R-DV2).
 */
import {
  checked,
  CommandedParameters,
  defineConnectionType,
  DeviceLink,
  hostSetting,
  portSetting,
  Type,
  withDefault,
} from 'patchbay-hub/connection';
import { EventSubscription, OBSWebSocket } from 'obs-websocket-js';
import { Audio } from './audio.js';
import { Collections } from './collections.js';
import { ObsControls, sceneNames } from './controls.js';
import { Filters } from './filters.js';
import { Hotkeys } from './hotkeys.js';
import { Media } from './media.js';
import { Outputs } from './outputs.js';
import { parameterList } from './parameter-list.js';
import { askOf } from './requests.js';
import { SceneItems } from './scene-items.js';
import { Screenshot } from './screenshot.js';
import { Segments } from './segments.js';
import { Sources } from './sources.js';
import { Stats } from './stats.js';
import { Switching } from './switching.js';
import { Tally } from './tally.js';

const settings = Type.Object({
  host: hostSetting('The machine OBS runs on: a host name or an IP address.'),
  port: withDefault(portSetting("OBS's WebSocket server port (Tools → WebSocket Server Settings)."), 4455),
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
  #switching;
  #items;
  #tally;
  #audio;
  #sources;
  #media;
  #filters;
  #outputs;
  #collections;
  #hotkeys;
  #screenshot;
  #stats;

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
    this.#obs.on('ConnectionClosed', (error) => {
      this.#stats.stop();
      this.#attempt?.down(this.#identified ? `OBS closed the link${error?.message ? `: ${error.message}` : ''}` : this.#notTaken(error));
    });
    const ask = askOf(this.#obs);
    const obs = this.#obs;
    const parameters = new CommandedParameters(context, this.#link);
    const segments = new Segments();
    this.#controls = new ObsControls(obs, ask, parameters);
    this.#switching = new Switching(obs, ask, parameters);
    this.#items = new SceneItems(obs, ask, parameters, segments);
    this.#tally = new Tally(obs, parameters, segments);
    this.#audio = new Audio(obs, ask, parameters, segments, context.scheduler);
    this.#sources = new Sources(obs, ask, parameters, segments);
    this.#media = new Media(obs, ask, parameters, segments);
    this.#filters = new Filters(obs, ask, parameters, segments);
    this.#outputs = new Outputs(obs, ask, parameters, segments);
    this.#collections = new Collections(obs, ask, parameters);
    this.#hotkeys = new Hotkeys(obs, ask, parameters);
    const program = () => String(parameters.get('scene/program')?.value ?? '');
    this.#screenshot = new Screenshot(obs, ask, parameters, program, () => context.scheduler.now());
    this.#stats = new Stats(
      obs,
      parameters,
      context.scheduler,
      [() => this.#sources.poll(), () => this.#media.poll(), () => this.#outputs.poll()],
      context.log,
    );
    this.#listen();
  }

  start() {
    return this.#link.start();
  }

  stop() {
    this.#stats.stop();
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
        // The meters (every 50 ms) are told at most 5 times a second an input (audio.js).
        eventSubscriptions:
          EventSubscription.All |
          EventSubscription.InputActiveStateChanged |
          EventSubscription.InputShowStateChanged |
          EventSubscription.InputVolumeMeters,
      })
      .then(
        () => {
          this.#identified = true;
          attempt.up();
          // Polled even when a part could not be read, but only while the link that read it is up.
          this.#again(() => this.#readAll().finally(() => (this.#obs.identified ? this.#stats.start() : undefined)));
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
    this.#switching.scenes(names);
    const [named, { availableRequests }] = await Promise.all([this.#inputs(), this.#obs.call('GetVersion')]);
    await Promise.all([
      this.#switching.read(),
      this.#items.read(names),
      this.#tally.read(),
      this.#audio.read(named),
      this.#sources.read(named),
      this.#media.read(named),
      this.#filters.read(names, named),
      this.#outputs.read(availableRequests),
      this.#collections.read(),
      this.#hotkeys.read(),
      this.#screenshot.read(),
    ]);
  }

  /** The inputs OBS has, as each part reads them. */
  async #inputs() {
    const { inputs } = await this.#obs.call('GetInputList');
    return inputs.map((input) => ({ inputName: String(input['inputName']), inputKind: String(input['inputKind']) }));
  }

  /** OBS's events, each to the part it changes; a change of the scenes to both that show them. */
  #listen() {
    const again = (/** @type {() => Promise<unknown>} */ read) => this.#again(read);
    for (const part of [
      this.#controls,
      this.#switching,
      this.#items,
      this.#tally,
      this.#audio,
      this.#sources,
      this.#media,
      this.#filters,
      this.#outputs,
    ])
      part.listen(again);
    this.#collections.listen(again, () => this.#readAll());
    const scenes = (/** @type {string[]} */ names) => {
      this.#controls.scenes(names);
      this.#switching.scenes(names);
      again(() => Promise.all([this.#items.read(names), this.#filters.read(names, [])]));
    };
    this.#obs.on('SceneListChanged', ({ scenes: list }) => scenes(sceneNames(list)));
    this.#obs.on('SceneNameChanged', () => again(async () => scenes(sceneNames((await this.#obs.call('GetSceneList')).scenes))));
    // A new input (or one renamed) is read by each part that has parameters of inputs.
    const inputs = () =>
      again(async () => {
        const named = await this.#inputs();
        await Promise.all([this.#audio.read(named), this.#sources.read(named), this.#media.read(named), this.#filters.read([], named)]);
      });
    this.#obs.on('InputCreated', inputs);
    this.#obs.on('InputNameChanged', inputs);
  }

  /** Runs what an event asks to read again; a failure is said, not thrown into the library. @param {() => Promise<unknown>} read */
  #again(read) {
    void read().catch((error) => this.#context.log.warn(`reading OBS's state failed: ${error?.message ?? error}`));
  }
}

export default defineConnectionType({
  type: 'obs',
  summary:
    'OBS Studio (obs-websocket 5, TCP 4455): scenes, program and preview, studio mode, transitions, sources, audio, text, media, filters, recording, streaming, replay buffer, virtual camera, stats, tally.',
  errors: {
    OBS_STUDIO_MODE: {
      status: 409,
      text: 'OBS is not in studio mode (or is, when the request wants it off): preview and the studio transition need it on; write true to `studioMode` first.',
    },
    OBS_OUTPUT: {
      status: 409,
      text: 'The output (recording, streaming, replay buffer, virtual camera) is not in a state the request can change: not running, already running, not paused; or it is switched off or not set up in OBS.',
    },
    OBS_NOT_FOUND: { status: 409, text: 'OBS no longer has the scene, source or transition the value names.' },
    OBS_REFUSED: { status: 502, text: 'OBS refused the request; the message gives its answer and code.' },
  },
  parameters: parameterList,
  settings,
  parse: (written) => checked([], written),
  discovers: () => ({ parameters: true }),
  create: (context, parsed) => new ObsConnection(context, parsed),
});
