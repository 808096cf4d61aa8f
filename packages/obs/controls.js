// @ts-check
/**
 * What OBS switches and runs: the scenes on program and preview, studio mode, the transition,
 * recording and streaming. Each is a parameter whose write is a request to OBS; all of it is
 * read on connect and kept current by OBS's events.
 */
import { HubError } from 'patchbay-hub/connection';

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {import('patchbay-hub/connection').Value} Value */
/** @typedef {import('obs-websocket-js').OBSWebSocket} OBSWebSocket */

/** Recording's output states that say it is paused, and that it goes on again. */
const PAUSED = 'OBS_WEBSOCKET_OUTPUT_PAUSED';
const RESUMED = 'OBS_WEBSOCKET_OUTPUT_RESUMED';

/**
 * The names of OBS's scenes, in the order of its scene list (OBS lists its scenes bottom first).
 * @param {{ [key: string]: unknown }[]} scenes
 */
export function sceneNames(scenes) {
  return scenes.map((scene) => String(scene['sceneName'])).reverse();
}

export class ObsControls {
  #obs;
  #version;
  #scenes;
  #transition;
  #outputs;

  /**
   * Defines the parameters, in the order of the reference.
   * @param {OBSWebSocket} obs
   * @param {import('./requests.js').Ask} ask
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   */
  constructor(obs, ask, parameters) {
    this.#obs = obs;
    this.#version = parameters.readOnly('device/version', { type: 'S', meta: { label: 'OBS version' } });
    this.#scenes = {
      program: parameters.commanded('scene/program', { type: 'S', meta: { label: 'Program scene' } }, (v) =>
        ask('SetCurrentProgramScene', { sceneName: String(v) }),
      ),
      preview: parameters.commanded('scene/preview', { type: 'S', meta: { label: 'Preview scene' } }, (v) =>
        ask('SetCurrentPreviewScene', { sceneName: String(v) }),
      ),
      studioMode: parameters.commanded('studioMode', { type: 'B', meta: { label: 'Studio mode' } }, (v) =>
        ask('SetStudioModeEnabled', { studioModeEnabled: v === true }),
      ),
    };
    parameters.trigger('transition/run', { label: 'Take (studio mode)' }, () => ask('TriggerStudioModeTransition'));
    this.#transition = {
      current: parameters.commanded('transition/current', { type: 'S', meta: { label: 'Next transition' } }, (v) =>
        ask('SetCurrentSceneTransition', { transitionName: String(v) }),
      ),
      duration: parameters.commanded(
        'transition/duration',
        { type: 'I', meta: { label: 'Transition duration', unit: 'ms', minimum: 50, maximum: 20_000 } },
        (v) => ask('SetCurrentSceneTransitionDuration', { transitionDuration: Number(v) }),
      ),
      running: parameters.readOnly('transition/running', { type: 'B', meta: { label: 'In transition' } }),
    };
    this.#outputs = outputs(ask, parameters);
  }

  /**
   * Reads all of it, on every connect (OBS may have changed while away).
   * @returns {Promise<string[]>} the names of the scenes
   */
  async read() {
    const obs = this.#obs;
    const [about, sceneList, mode, transitions, current, record, stream] = await Promise.all([
      obs.call('GetVersion'),
      obs.call('GetSceneList'),
      obs.call('GetStudioModeEnabled'),
      obs.call('GetSceneTransitionList'),
      obs.call('GetCurrentSceneTransition'),
      obs.call('GetRecordStatus'),
      obs.call('GetStreamStatus'),
    ]);
    this.#version.report(`OBS ${about.obsVersion}, obs-websocket ${about.obsWebSocketVersion}`);
    const names = sceneNames(sceneList.scenes);
    this.scenes(names);
    this.#scenes.program.report(sceneList.currentProgramSceneName);
    await this.#studio(mode.studioModeEnabled);
    const { current: transition, duration } = this.#transition;
    transition.describe({
      ...transition.meta,
      choices: transitions.transitions.map((t) => ({ value: String(t['transitionName']), label: String(t['transitionName']) })),
    });
    transition.report(current.transitionName);
    if (current.transitionDuration !== null) duration.report(current.transitionDuration);
    this.#outputs.recording.report(record.outputActive);
    this.#outputs.paused.report(record.outputPaused);
    this.#outputs.streaming.report(stream.outputActive);
    return names;
  }

  /** The scenes by name, as the choices of program and preview. @param {string[]} names */
  scenes(names) {
    const choices = names.map((name) => ({ value: name, label: name }));
    const { program, preview } = this.#scenes;
    program.describe({ ...program.meta, choices });
    preview.describe({ ...preview.meta, choices });
  }

  /**
   * Follows OBS's events of scenes, studio mode, transitions and outputs; a read they ask for goes through `again`.
   * @param {(read: () => Promise<unknown>) => void} again
   */
  listen(again) {
    const obs = this.#obs;
    const { program, preview } = this.#scenes;
    const { current: transition, duration, running } = this.#transition;
    const { recording, paused, streaming } = this.#outputs;
    obs.on('CurrentProgramSceneChanged', ({ sceneName }) => program.report(sceneName));
    obs.on('CurrentPreviewSceneChanged', ({ sceneName }) => preview.report(sceneName));
    obs.on('StudioModeStateChanged', ({ studioModeEnabled }) => again(() => this.#studio(studioModeEnabled)));
    // Each transition has its duration: the new one's is read (none for a fixed one, as Cut).
    obs.on('CurrentSceneTransitionChanged', ({ transitionName }) => {
      transition.report(transitionName);
      again(async () => {
        const { transitionDuration } = await obs.call('GetCurrentSceneTransition');
        if (transitionDuration !== null) duration.report(transitionDuration);
      });
    });
    obs.on('CurrentSceneTransitionDurationChanged', ({ transitionDuration }) => duration.report(transitionDuration));
    obs.on('SceneTransitionStarted', () => running.report(true));
    obs.on('SceneTransitionEnded', () => running.report(false));
    obs.on('RecordStateChanged', ({ outputActive, outputState }) => {
      recording.report(outputActive);
      if (outputState === PAUSED) paused.report(true);
      else if (outputState === RESUMED || !outputActive) paused.report(false);
    });
    obs.on('StreamStateChanged', ({ outputActive }) => streaming.report(outputActive));
  }

  /** @param {boolean} on */
  async #studio(on) {
    this.#scenes.studioMode.report(on);
    this.#scenes.preview.report(on ? (await this.#obs.call('GetCurrentPreviewScene')).currentPreviewSceneName : '');
  }
}

/**
 * Recording, its pause, and streaming: each started by a write of true and stopped by false.
 * @param {import('./requests.js').Ask} ask
 * @param {import('patchbay-hub/connection').CommandedParameters} parameters
 */
function outputs(ask, parameters) {
  /** @type {OwnedParameter} */
  const recording = parameters.commanded('recording/active', { type: 'B', meta: { label: 'Recording' } }, (v) =>
    onOff(
      recording,
      v,
      () => ask('StartRecord'),
      () => ask('StopRecord'),
    ),
  );
  // OBS 29 answers a pause of no recording with success, and does nothing: refused here.
  const notRecording = () =>
    Promise.reject(new HubError('PB_BAD_ANSWER', 'OBS does not record: nothing to pause', { declared: 'OBS_OUTPUT' }));
  /** @type {OwnedParameter} */
  const paused = parameters.commanded('recording/paused', { type: 'B', meta: { label: 'Recording paused' } }, (v) =>
    onOff(
      paused,
      v,
      () => (recording.value === true ? ask('PauseRecord') : notRecording()),
      () => ask('ResumeRecord'),
    ),
  );
  /** @type {OwnedParameter} */
  const streaming = parameters.commanded('streaming/active', { type: 'B', meta: { label: 'Streaming' } }, (v) =>
    onOff(
      streaming,
      v,
      () => ask('StartStream'),
      () => ask('StopStream'),
    ),
  );
  return { recording, paused, streaming };
}

/**
 * An output's on/off as a write: a write of the state it is in is answered at once (a
 * panel's "record" pressed while recording is not a refusal), else OBS is asked.
 * @param {OwnedParameter} self @param {Value} v @param {() => Promise<unknown>} on @param {() => Promise<unknown>} off
 * @returns {Promise<unknown>}
 */
function onOff(self, v, on, off) {
  return self.value === v ? Promise.resolve() : v === true ? on() : off();
}
