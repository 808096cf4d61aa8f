// @ts-check
/**
 * The tally of every source: OBS's own word on what is on air (active) and shown (showing),
 * read on connect and kept current by OBS's events.
 */

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {{ program: OwnedParameter, preview: OwnedParameter, active: boolean, showing: boolean }} Lamps */

export class Tally {
  #obs;
  #parameters;
  #segments;
  /** Tally by input. @type {Map<string, Lamps>} */
  #tallies = new Map();
  /** What changed this turn, told at its end. @type {Set<Lamps>} */
  #due = new Set();

  /**
   * @param {import('obs-websocket-js').OBSWebSocket} obs
   * @param {Pick<import('patchbay-hub/connection').CommandedParameters, 'readOnly'>} parameters
   * @param {import('./segments.js').Segments} segments
   */
  constructor(obs, parameters, segments) {
    this.#obs = obs;
    this.#parameters = parameters;
    this.#segments = segments;
  }

  /** Reads the tally of every input OBS has. */
  async read() {
    const { inputs } = await this.#obs.call('GetInputList');
    await Promise.all(
      inputs.map(async ({ inputName }) => {
        const name = String(inputName);
        const { videoActive, videoShowing } = await this.#obs.call('GetSourceActive', { sourceName: name });
        this.#heard(name, { active: videoActive, showing: videoShowing });
      }),
    );
  }

  /**
   * Follows OBS's events of inputs; a read they ask for goes through `again`.
   * @param {(read: () => Promise<unknown>) => void} again
   */
  listen(again) {
    this.#obs.on('InputCreated', () => again(() => this.read()));
    this.#obs.on('InputNameChanged', () => again(() => this.read()));
    this.#obs.on('InputActiveStateChanged', ({ inputName, videoActive }) => this.#heard(inputName, { active: videoActive }));
    this.#obs.on('InputShowStateChanged', ({ inputName, videoShowing }) => this.#heard(inputName, { showing: videoShowing }));
  }

  /** @param {string} inputName @param {{ active?: boolean, showing?: boolean }} said */
  #heard(inputName, said) {
    const known = this.#lamps(inputName);
    if (said.active !== undefined) known.active = said.active;
    if (said.showing !== undefined) known.showing = said.showing;
    // OBS tells a cut as two events (shown, then on air): told at the end of the turn, a
    // camera going on air is not on preview for a moment between them.
    this.#due.add(known);
    if (this.#due.size === 1) setImmediate(() => this.#tell());
  }

  /** An input's lamps, defined the first time it is heard of. @param {string} inputName */
  #lamps(inputName) {
    let known = this.#tallies.get(inputName);
    if (!known) {
      const at = `input/${this.#segments.of('input', inputName)}/tally`;
      known = {
        program: this.#parameters.readOnly(`${at}/program`, { type: 'B', meta: { label: `${inputName} on air` } }),
        preview: this.#parameters.readOnly(`${at}/preview`, { type: 'B', meta: { label: `${inputName} on preview` } }),
        active: false,
        showing: false,
      };
      this.#tallies.set(inputName, known);
    }
    return known;
  }

  #tell() {
    for (const known of this.#due) {
      known.program.report(known.active);
      known.preview.report(known.showing && !known.active);
    }
    this.#due.clear();
  }
}
