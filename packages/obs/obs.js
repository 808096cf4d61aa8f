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
import { checked, DeviceLink, defineConnectionType, HubError, parameterIdOf, Type, withDefault } from 'patchbay-hub/connection';
import { EventSubscription, OBSWebSocket } from 'obs-websocket-js';

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

/**
 * OBS's answers to a refused request (obs-websocket's RequestStatus) as this type's own codes
 * (R-PK8), and what they mean: OBS 29 gives most of them without a comment.
 * @type {Record<number, { declared: string, means: string }>}
 */
const REFUSALS = {
  500: { declared: 'OBS_OUTPUT', means: 'the output is already running' },
  501: { declared: 'OBS_OUTPUT', means: 'the output is not running' },
  502: { declared: 'OBS_OUTPUT', means: 'the output is paused' },
  503: { declared: 'OBS_OUTPUT', means: 'the output is not paused' },
  504: { declared: 'OBS_OUTPUT', means: 'the output is switched off in OBS' },
  505: { declared: 'OBS_STUDIO_MODE', means: 'studio mode is on' },
  506: { declared: 'OBS_STUDIO_MODE', means: 'studio mode is off' },
  600: { declared: 'OBS_NOT_FOUND', means: 'OBS has no such scene, source or transition' },
};

/**
 * OBS's refusal (the library rejects with `{ code, message }`) as this type's own code, or
 * the hub's timeout and link errors as they are.
 * @param {unknown} error @param {string} request
 */
function refusal(error, request) {
  if (error instanceof HubError) return error;
  const { code, message } = /** @type {{ code?: unknown, message?: unknown }} */ (error ?? {});
  const known = typeof code === 'number' ? REFUSALS[code] : undefined;
  const why = typeof message === 'string' && message ? message : (known?.means ?? 'no reason');
  const said = `OBS refused ${request}: ${why}${typeof code === 'number' ? ` (${code})` : ''}`;
  return new HubError('PB_BAD_ANSWER', said, { declared: known?.declared ?? 'OBS_REFUSED' });
}

/** OBS's close code for a client whose password it refused (obs-websocket's WebSocketCloseCode). */
const AUTHENTICATION_FAILED = 4009;

/** Recording's output states that say it is paused, and that it goes on again. */
const PAUSED = 'OBS_WEBSOCKET_OUTPUT_PAUSED';
const RESUMED = 'OBS_WEBSOCKET_OUTPUT_RESUMED';

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {import('patchbay-hub/connection').ParameterSpec} ParameterSpec */
/** @typedef {import('patchbay-hub/connection').Value} Value */

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
  create(context, { host, port, password, timeout }) {
    const obs = new OBSWebSocket();
    const url = `ws://${host}:${port}`;
    /** The attempt that is open: OBS closing the link ends it. @type {import('patchbay-hub/connection').LinkAttempt | undefined} */
    let attempt;
    /** Whether the open attempt got as far as OBS taking this client, and the last error its socket gave. */
    let identified = false;
    let socketError = '';
    const link = new DeviceLink(
      {
        open(opened) {
          attempt = opened;
          identified = false;
          socketError = '';
          obs
            .connect(url, password || undefined, {
              // Tally is OBS's own word on what is on air: events that OBS sends only when asked.
              eventSubscriptions:
                EventSubscription.All | EventSubscription.InputActiveStateChanged | EventSubscription.InputShowStateChanged,
            })
            .then(
              () => {
                identified = true;
                opened.up();
                readAll().catch((error) => context.log.warn(`reading OBS's state failed: ${error?.message ?? error}`));
              },
              (error) => opened.down(notTaken(error)),
            );
        },
        close: () => obs.disconnect(),
      },
      { scheduler: context.scheduler, status: context.setStatus, fence: context.fence, timeoutMs: timeout },
    );
    obs.on('ConnectionError', (error) => {
      socketError = error?.message ?? '';
    });
    // Closed before OBS took the client (refused, a wrong password): the reason is the socket's error, or OBS's.
    obs.on('ConnectionClosed', (error) =>
      attempt?.down(identified ? `OBS closed the link${error?.message ? `: ${error.message}` : ''}` : notTaken(error)),
    );
    /** Why OBS did not take this client: its password refused (OBS's 4009), or OBS not reached. @param {{ code?: number, message?: string } | undefined} error */
    const notTaken = (error) =>
      error?.code === AUTHENTICATION_FAILED
        ? `OBS refused the password (${password ? 'the password setting is not the one in Tools → WebSocket Server Settings' : 'OBS asks for one: set password'})`
        : `cannot reach OBS at ${url}: ${error?.message || socketError || `closed (${error?.code})`}`;

    /**
     * A request to OBS as a write's outcome: answered when OBS answered it, with its refusal as this type's code.
     * @param {Parameters<OBSWebSocket['call']>[0]} request @param {Record<string, unknown>} [data]
     */
    const ask = (request, data) =>
      /** @type {Promise<unknown>} */ (obs.call(request, /** @type {never} */ (data))).catch((error) =>
        Promise.reject(refusal(error, request)),
      );

    /** Every parameter this connection has defined, by id: defined once, kept across reconnects. @type {Map<string, OwnedParameter>} */
    const defined = new Map();
    /** @param {string} id @param {ParameterSpec} spec */
    const parameter = (id, spec) => {
      let found = defined.get(id);
      if (!found) defined.set(id, (found = context.define(id, spec)));
      return found;
    };
    /** A parameter a write commands of OBS, answered with its outcome. @param {string} id @param {Omit<ParameterSpec, 'access' | 'forward'>} spec @param {(value: Value) => Promise<unknown>} command */
    const commanded = (id, spec, command) =>
      parameter(id, {
        ...spec,
        access: 'read-write',
        ownedHere: true,
        forward: (value, _o, answered) => link.command(() => command(value), answered),
      });
    /** @param {string} id @param {Omit<ParameterSpec, 'access'>} spec */
    const readOnly = (id, spec) => parameter(id, { ...spec, access: 'read-only' });

    /** The segment of each of OBS's names, for the connection's life (a renamed scene is a new one), by kind. */
    const segments = {
      /** @type {Map<string, string>} */ scene: new Map(),
      /** @type {Map<string, string>} */ input: new Map(),
    };
    /**
     * A name of OBS as one segment of an id; a second name of the same segment (`Cam 1` and
     * `Cam_1`) gets `-2`.
     * @param {'scene' | 'input'} kind @param {string} name
     */
    const segment = (kind, name) => {
      const known = segments[kind].get(name);
      if (known) return known;
      const base = parameterIdOf([name]) ?? '-';
      const taken = new Set(segments[kind].values());
      let made = base;
      for (let n = 2; taken.has(made); n++) made = `${base}-${n}`;
      segments[kind].set(name, made);
      return made;
    };

    const version = readOnly('device/version', { type: 'S', meta: { label: 'OBS version' } });
    const program = commanded('scene/program', { type: 'S', meta: { label: 'Program scene' } }, (v) =>
      ask('SetCurrentProgramScene', { sceneName: String(v) }),
    );
    const preview = commanded('scene/preview', { type: 'S', meta: { label: 'Preview scene' } }, (v) =>
      ask('SetCurrentPreviewScene', { sceneName: String(v) }),
    );
    const studioMode = commanded('studioMode', { type: 'B', meta: { label: 'Studio mode' } }, (v) =>
      ask('SetStudioModeEnabled', { studioModeEnabled: v === true }),
    );
    parameter('transition/run', {
      type: 'T',
      access: 'write-only',
      meta: { label: 'Take (studio mode)' },
      ownedHere: true,
      forward: (_v, _o, answered) => link.command(() => ask('TriggerStudioModeTransition'), answered),
    });
    const transition = commanded('transition/current', { type: 'S', meta: { label: 'Next transition' } }, (v) =>
      ask('SetCurrentSceneTransition', { transitionName: String(v) }),
    );
    const duration = commanded(
      'transition/duration',
      { type: 'I', meta: { label: 'Transition duration', unit: 'ms', minimum: 50, maximum: 20_000 } },
      (v) => ask('SetCurrentSceneTransitionDuration', { transitionDuration: Number(v) }),
    );
    const transitionRunning = readOnly('transition/running', { type: 'B', meta: { label: 'In transition' } });
    /**
     * An output's on/off as a write: a write of the state it is in is answered at once (a
     * panel's "record" pressed while recording is not a refusal), else OBS is asked.
     * @param {OwnedParameter} self @param {() => Promise<unknown>} on @param {() => Promise<unknown>} off
     * @returns {(value: Value) => Promise<unknown>}
     */
    const onOff = (self, on, off) => (v) => (self.value === v ? Promise.resolve() : v === true ? on() : off());
    /** @type {OwnedParameter} */
    const recording = commanded('recording/active', { type: 'B', meta: { label: 'Recording' } }, (v) =>
      onOff(
        recording,
        () => ask('StartRecord'),
        () => ask('StopRecord'),
      )(v),
    );
    // OBS 29 answers a pause of no recording with success, and does nothing: refused here.
    const notRecording = () =>
      Promise.reject(new HubError('PB_BAD_ANSWER', 'OBS does not record: nothing to pause', { declared: 'OBS_OUTPUT' }));
    /** @type {OwnedParameter} */
    const paused = commanded('recording/paused', { type: 'B', meta: { label: 'Recording paused' } }, (v) =>
      onOff(
        paused,
        () => (recording.value === true ? ask('PauseRecord') : notRecording()),
        () => ask('ResumeRecord'),
      )(v),
    );
    /** @type {OwnedParameter} */
    const streaming = commanded('streaming/active', { type: 'B', meta: { label: 'Streaming' } }, (v) =>
      onOff(
        streaming,
        () => ask('StartStream'),
        () => ask('StopStream'),
      )(v),
    );

    /** The scenes by name, as the choices of program and preview. @param {string[]} names */
    const scenes = (names) => {
      const choices = names.map((name) => ({ value: name, label: name }));
      program.describe({ ...program.meta, choices });
      preview.describe({ ...preview.meta, choices });
    };

    /** A scene's sources and their visibility. @param {string} sceneName */
    const readScene = async (sceneName) => {
      const { sceneItems } = await obs.call('GetSceneItemList', { sceneName });
      for (const item of sceneItems)
        sceneItem(sceneName, Number(item['sceneItemId']), String(item['sourceName']), item['sceneItemEnabled'] === true);
    };
    /** Scene items by scene and OBS's item id: the visibility parameter of each. @type {Map<string, OwnedParameter>} */
    const items = new Map();
    /** @param {string} sceneName @param {number} sceneItemId @param {string} sourceName @param {boolean} enabled */
    const sceneItem = (sceneName, sceneItemId, sourceName, enabled) => {
      const key = `${sceneName}\u0000${sceneItemId}`;
      let visible = items.get(key);
      if (!visible) {
        // A source twice in one scene: the second item's id gets `-2`.
        const source = `scene/${segment('scene', sceneName)}/source/${segment('input', sourceName)}`;
        let id = `${source}/visible`;
        for (let n = 2; defined.has(id); n++) id = `${source}-${n}/visible`;
        visible = commanded(id, { type: 'B', meta: { label: `${sceneName}: ${sourceName} visible` } }, (v) =>
          ask('SetSceneItemEnabled', { sceneName, sceneItemId, sceneItemEnabled: v === true }),
        );
        items.set(key, visible);
      }
      visible.report(enabled);
    };

    /** Tally by input: OBS's own word on what is on air (active) and shown (showing). @type {Map<string, { program: OwnedParameter, preview: OwnedParameter, active: boolean, showing: boolean }>} */
    const tallies = new Map();
    /** @param {string} inputName @param {{ active?: boolean, showing?: boolean }} said */
    const tally = (inputName, said) => {
      let known = tallies.get(inputName);
      if (!known) {
        const at = `input/${segment('input', inputName)}/tally`;
        known = {
          program: readOnly(`${at}/program`, { type: 'B', meta: { label: `${inputName} on air` } }),
          preview: readOnly(`${at}/preview`, { type: 'B', meta: { label: `${inputName} on preview` } }),
          active: false,
          showing: false,
        };
        tallies.set(inputName, known);
      }
      if (said.active !== undefined) known.active = said.active;
      if (said.showing !== undefined) known.showing = said.showing;
      // OBS tells a cut as two events (shown, then on air): told at the end of the turn, a
      // camera going on air is not on preview for a moment between them.
      tallyDue.add(known);
      if (tallyDue.size === 1) setImmediate(tellTally);
    };
    /** @type {Set<{ program: OwnedParameter, preview: OwnedParameter, active: boolean, showing: boolean }>} */
    const tallyDue = new Set();
    const tellTally = () => {
      for (const known of tallyDue) {
        known.program.report(known.active);
        known.preview.report(known.showing && !known.active);
      }
      tallyDue.clear();
    };
    const readInputs = async () => {
      const { inputs } = await obs.call('GetInputList');
      await Promise.all(
        inputs.map(async ({ inputName }) => {
          const name = String(inputName);
          const { videoActive, videoShowing } = await obs.call('GetSourceActive', { sourceName: name });
          tally(name, { active: videoActive, showing: videoShowing });
        }),
      );
    };

    /** @param {boolean} on */
    const studio = async (on) => {
      studioMode.report(on);
      preview.report(on ? (await obs.call('GetCurrentPreviewScene')).currentPreviewSceneName : '');
    };

    /** The whole state, on every connect: OBS may have changed while away. */
    const readAll = async () => {
      const [about, sceneList, mode, transitions, current, record, stream] = await Promise.all([
        obs.call('GetVersion'),
        obs.call('GetSceneList'),
        obs.call('GetStudioModeEnabled'),
        obs.call('GetSceneTransitionList'),
        obs.call('GetCurrentSceneTransition'),
        obs.call('GetRecordStatus'),
        obs.call('GetStreamStatus'),
      ]);
      version.report(`OBS ${about.obsVersion}, obs-websocket ${about.obsWebSocketVersion}`);
      // OBS lists its scenes bottom first.
      const names = sceneList.scenes.map((scene) => String(scene['sceneName'])).reverse();
      scenes(names);
      program.report(sceneList.currentProgramSceneName);
      await studio(mode.studioModeEnabled);
      transition.describe({
        ...transition.meta,
        choices: transitions.transitions.map((t) => ({ value: String(t['transitionName']), label: String(t['transitionName']) })),
      });
      transition.report(current.transitionName);
      if (current.transitionDuration !== null) duration.report(current.transitionDuration);
      recording.report(record.outputActive);
      paused.report(record.outputPaused);
      streaming.report(stream.outputActive);
      await Promise.all(names.map(readScene));
      await readInputs();
    };

    /** Runs what an event asks to read again; a failure is said, not thrown into the library. @param {() => Promise<unknown>} read */
    const again = (read) => void read().catch((error) => context.log.warn(`reading OBS's state failed: ${error?.message ?? error}`));

    obs.on('CurrentProgramSceneChanged', ({ sceneName }) => program.report(sceneName));
    obs.on('CurrentPreviewSceneChanged', ({ sceneName }) => preview.report(sceneName));
    obs.on('StudioModeStateChanged', ({ studioModeEnabled }) => again(() => studio(studioModeEnabled)));
    obs.on('SceneListChanged', ({ scenes: list }) => {
      const names = list.map((scene) => String(scene['sceneName'])).reverse();
      scenes(names);
      again(() => Promise.all(names.map(readScene)));
    });
    obs.on('SceneNameChanged', () =>
      again(async () => {
        const { scenes: list } = await obs.call('GetSceneList');
        const names = list.map((scene) => String(scene['sceneName'])).reverse();
        scenes(names);
        await Promise.all(names.map(readScene));
      }),
    );
    // Each transition has its duration: the new one's is read (none for a fixed one, as Cut).
    obs.on('CurrentSceneTransitionChanged', ({ transitionName }) => {
      transition.report(transitionName);
      again(async () => {
        const { transitionDuration } = await obs.call('GetCurrentSceneTransition');
        if (transitionDuration !== null) duration.report(transitionDuration);
      });
    });
    obs.on('CurrentSceneTransitionDurationChanged', ({ transitionDuration }) => duration.report(transitionDuration));
    obs.on('SceneTransitionStarted', () => transitionRunning.report(true));
    obs.on('SceneTransitionEnded', () => transitionRunning.report(false));
    obs.on('RecordStateChanged', ({ outputActive, outputState }) => {
      recording.report(outputActive);
      if (outputState === PAUSED) paused.report(true);
      else if (outputState === RESUMED || !outputActive) paused.report(false);
    });
    obs.on('StreamStateChanged', ({ outputActive }) => streaming.report(outputActive));
    obs.on('SceneItemEnableStateChanged', ({ sceneName, sceneItemId, sceneItemEnabled }) => {
      const visible = items.get(`${sceneName}\u0000${sceneItemId}`);
      if (visible) visible.report(sceneItemEnabled);
      else again(() => readScene(sceneName));
    });
    obs.on('SceneItemCreated', ({ sceneName }) => again(() => readScene(sceneName)));
    obs.on('InputCreated', () => again(readInputs));
    obs.on('InputNameChanged', () => again(readInputs));
    obs.on('InputActiveStateChanged', ({ inputName, videoActive }) => tally(inputName, { active: videoActive }));
    obs.on('InputShowStateChanged', ({ inputName, videoShowing }) => tally(inputName, { showing: videoShowing }));

    return {
      start: () => link.start(),
      stop: () => link.stop(),
      details: () => ({ host, port }),
    };
  },
});
