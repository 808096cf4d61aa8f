// @ts-check
/**
 * What a switcher's panel does beside setting program and preview: the scene on program before
 * this one, preview stepped through the scenes, a smart key (a scene to preview, and taken if it
 * is there already), the transition stepped through OBS's list, its duration stepped, and a
 * quick transition (another transition for one take, then back). Built on the parameters of
 * `controls.js`, as a panel's keys would use them.
 */
import { HubError, Stepped } from 'patchbay-hub/connection';

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */

/** The duration OBS takes for a transition, as `transition/duration`'s range. */
const DURATION = { minimum: 50, maximum: 20_000 };

export class Switching {
  #obs;
  #previous;
  #smart;
  #quick;
  /** OBS's scenes top first, and its transitions. @type {string[]} */
  #scenes = [];
  /** @type {string[]} */
  #transitions = [];
  /** The scene on program, to tell the one before it when it changes. */
  #program = '';
  /** The transition's duration, as steps start from it. */
  #duration = new Stepped();

  /**
   * @param {import('obs-websocket-js').OBSWebSocket} obs
   * @param {import('./requests.js').Ask} ask
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters with those of `controls.js` defined
   */
  constructor(obs, ask, parameters) {
    this.#obs = obs;
    const value = (/** @type {string} */ id) => parameters.get(id)?.value;
    this.#previous = parameters.readOnly('scene/previous', { type: 'S', meta: { label: 'Previous program scene' } });
    // At either end of the list, preview stays where it is.
    const step = (/** @type {1 | -1} */ by) => {
      const preview = String(value('scene/preview'));
      const next = this.#scenes[this.#scenes.indexOf(preview) + by];
      return next === undefined && value('studioMode') === true
        ? Promise.resolve()
        : ask('SetCurrentPreviewScene', { sceneName: next ?? preview });
    };
    parameters.trigger('scene/previewNext', { label: 'Preview the next scene' }, () => step(1));
    parameters.trigger('scene/previewPrevious', { label: 'Preview the scene before' }, () => step(-1));
    this.#smart = parameters.order(
      'scene/smart',
      {
        type: 'S',
        meta: {
          label: 'Smart scene key',
          description: 'a scene to preview; taken to program if it is on preview already; put on program outside studio mode',
        },
      },
      (v) =>
        value('studioMode') !== true
          ? ask('SetCurrentProgramScene', { sceneName: String(v) })
          : value('scene/preview') === v
            ? ask('TriggerStudioModeTransition')
            : ask('SetCurrentPreviewScene', { sceneName: String(v) }),
    );
    const transitionStep = (/** @type {1 | -1} */ by) => {
      const at = this.#transitions.indexOf(String(value('transition/current')));
      const next = this.#transitions[(at + by + this.#transitions.length) % this.#transitions.length];
      return next === undefined ? Promise.resolve() : ask('SetCurrentSceneTransition', { transitionName: next });
    };
    parameters.trigger('transition/next', { label: 'Next transition' }, () => transitionStep(1));
    parameters.trigger('transition/previous', { label: 'Transition before' }, () => transitionStep(-1));
    parameters.order(
      'transition/durationAdjust',
      { type: 'I', meta: { label: 'Transition longer or shorter', unit: 'ms', minimum: -20_000, maximum: 20_000 } },
      (v) => {
        const to = Math.min(DURATION.maximum, Math.max(DURATION.minimum, this.#duration.now(300) + Number(v)));
        return this.#duration.write(to, (transitionDuration) => ask('SetCurrentSceneTransitionDuration', { transitionDuration }));
      },
    );
    this.#quick = parameters.order('transition/quick', { type: 'S', meta: quickMeta([]) }, async (v) => {
      const { transition, duration } = JSON.parse(String(v));
      if (value('studioMode') !== true)
        throw new HubError('PB_BAD_ANSWER', 'a quick transition takes preview to program: studio mode is off', {
          declared: 'OBS_STUDIO_MODE',
        });
      // What OBS has now, not what it last said: a transition chosen a moment ago is not told yet.
      const now = await obs.call('GetCurrentSceneTransition');
      const before = { name: now.transitionName, duration: now.transitionDuration };
      await ask('SetCurrentSceneTransition', { transitionName: transition });
      if (duration !== undefined) await ask('SetCurrentSceneTransitionDuration', { transitionDuration: duration });
      const took = await ask('TriggerStudioModeTransition').then(
        () => undefined,
        (/** @type {unknown} */ error) => error,
      );
      const { transitionDuration } = await obs.call('GetCurrentSceneTransition');
      // Back to the transition before once this one has ended, OBS waiting on its own.
      /** @type {import('obs-websocket-js').RequestBatchRequest[]} */
      const back = [
        { requestType: 'Sleep', requestData: { sleepMillis: took ? 0 : (transitionDuration ?? 0) + 100 } },
        { requestType: 'SetCurrentSceneTransition', requestData: { transitionName: before.name } },
        ...(typeof before.duration === 'number'
          ? [
              {
                requestType: /** @type {const} */ ('SetCurrentSceneTransitionDuration'),
                requestData: { transitionDuration: before.duration },
              },
            ]
          : []),
      ];
      void obs.callBatch(back).catch(() => {});
      if (took) throw took;
    });
  }

  /** Reads OBS's transitions (the choices of a quick transition). */
  async read() {
    const [{ transitions }, { currentProgramSceneName }] = await Promise.all([
      this.#obs.call('GetSceneTransitionList'),
      this.#obs.call('GetCurrentProgramScene'),
      this.#readDuration(),
    ]);
    this.#program = currentProgramSceneName;
    this.#transitions = transitions.map((t) => String(t['transitionName']));
    this.#quick.describe(quickMeta(this.#transitions));
  }

  async #readDuration() {
    const { transitionDuration } = await this.#obs.call('GetCurrentSceneTransition');
    if (transitionDuration !== null) this.#duration.heard(transitionDuration);
  }

  /** @param {(read: () => Promise<unknown>) => void} again */
  listen(again) {
    this.#obs.on('CurrentSceneTransitionDurationChanged', ({ transitionDuration }) => this.#duration.heard(transitionDuration));
    this.#obs.on('CurrentSceneTransitionChanged', () => again(() => this.#readDuration()));
    this.#obs.on('CurrentProgramSceneChanged', ({ sceneName }) => {
      const before = this.#program;
      this.#program = sceneName;
      if (before && before !== sceneName) this.#previous.report(before);
    });
  }

  /** OBS's scenes, top first: the smart key's choices, and preview's steps. @param {string[]} names */
  scenes(names) {
    this.#scenes = names;
    this.#smart.describe({ ...this.#smart.meta, choices: names.map((name) => ({ value: name, label: name })) });
  }
}

/** @param {string[]} transitions @returns {import('patchbay-hub/connection').ParameterMeta} */
function quickMeta(transitions) {
  return {
    label: 'Quick transition',
    description: 'takes preview to program with this transition, then goes back to the one before (studio mode)',
    arguments: {
      transition: { type: 'S', label: 'Transition', choices: transitions.map((t) => ({ value: t, label: t })) },
      duration: { type: 'I', label: 'Duration', unit: 'ms', ...DURATION, optional: true },
    },
  };
}
