// @ts-check
/**
 * The filters of every scene and input: each on or off, and its settings changed by a write.
 * Read on connect and as filters come and go, kept current by OBS's events.
 */

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */

export class Filters {
  #obs;
  #ask;
  #parameters;
  #segments;
  /** The `enabled` parameter of each filter, by source and filter name. @type {Map<string, OwnedParameter>} */
  #filters = new Map();
  /** Each source's place in ids (`scene/<scene>`, `input/<input>`), by name. @type {Map<string, string>} */
  #sources = new Map();

  /**
   * @param {import('obs-websocket-js').OBSWebSocket} obs
   * @param {import('./requests.js').Ask} ask
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('./segments.js').Segments} segments
   */
  constructor(obs, ask, parameters, segments) {
    this.#obs = obs;
    this.#ask = ask;
    this.#parameters = parameters;
    this.#segments = segments;
  }

  /** Reads the filters of the scenes and inputs named. @param {string[]} scenes @param {{ inputName: string }[]} inputs */
  read(scenes, inputs) {
    for (const scene of scenes) this.#sources.set(scene, `scene/${this.#segments.of('scene', scene)}`);
    for (const { inputName } of inputs) this.#sources.set(inputName, `input/${this.#segments.of('input', inputName)}`);
    return Promise.all([...scenes, ...inputs.map(({ inputName }) => inputName)].map((source) => this.#readSource(source)));
  }

  /** @param {(read: () => Promise<unknown>) => void} again */
  listen(again) {
    const obs = this.#obs;
    obs.on('SourceFilterEnableStateChanged', ({ sourceName, filterName, filterEnabled }) => {
      const enabled = this.#filters.get(key(sourceName, filterName));
      if (enabled) enabled.report(filterEnabled);
      else again(() => this.#readSource(sourceName));
    });
    obs.on('SourceFilterCreated', ({ sourceName }) => again(() => this.#readSource(sourceName)));
    obs.on('SourceFilterNameChanged', ({ sourceName }) => again(() => this.#readSource(sourceName)));
  }

  /** @param {string} sourceName */
  async #readSource(sourceName) {
    const at = this.#sources.get(sourceName);
    if (!at) return;
    const { filters } = await this.#obs.call('GetSourceFilterList', { sourceName });
    for (const filter of filters) this.#filter(sourceName, at, String(filter['filterName'])).report(filter['filterEnabled'] === true);
  }

  /** @param {string} sourceName @param {string} at @param {string} filterName */
  #filter(sourceName, at, filterName) {
    let enabled = this.#filters.get(key(sourceName, filterName));
    if (enabled) return enabled;
    const ask = this.#ask;
    // All of a source's filters at once, each flipped by `toggle`.
    this.#parameters.order(`${at}/filters/all`, { type: 'S', meta: { label: `${sourceName}: all filters`, choices: ALL } }, async (v) => {
      const { filters } = await this.#obs.call('GetSourceFilterList', { sourceName });
      await Promise.all(
        filters.map((filter) =>
          ask('SetSourceFilterEnabled', {
            sourceName,
            filterName: String(filter['filterName']),
            filterEnabled: v === 'toggle' ? filter['filterEnabled'] !== true : v === 'on',
          }),
        ),
      );
    });
    const base = `${at}/filter/${this.#segments.of(`filter:${sourceName}`, filterName)}`;
    enabled = this.#parameters.commanded(`${base}/enabled`, { type: 'B', meta: { label: `${sourceName}: ${filterName} on` } }, (v) =>
      ask('SetSourceFilterEnabled', { sourceName, filterName, filterEnabled: v === true }),
    );
    this.#parameters.order(
      `${base}/settings`,
      {
        type: 'S',
        meta: {
          label: `${sourceName}: ${filterName} settings`,
          description: 'a JSON object of the filter\'s settings to change (OBS\'s names: `{"opacity": 0.5}`); the others stay',
        },
      },
      (v) => ask('SetSourceFilterSettings', { sourceName, filterName, filterSettings: parseObject(String(v)) ?? {}, overlay: true }),
      // Refused before anything is sent.
      {
        refuse: (v) =>
          parseObject(String(v)) ? undefined : `${JSON.stringify(String(v)).slice(0, 80)} is not a JSON object of the filter's settings`,
      },
    );
    this.#filters.set(key(sourceName, filterName), enabled);
    return enabled;
  }
}

const ALL = [
  { value: 'on', label: 'All on' },
  { value: 'off', label: 'All off' },
  { value: 'toggle', label: 'Each switched over' },
];

/** @param {string} sourceName @param {string} filterName */
const key = (sourceName, filterName) => `${sourceName}\u0000${filterName}`;

/** @param {string} text @returns {import('obs-websocket-js').OBSRequestTypes['SetSourceFilterSettings']['filterSettings'] | undefined} */
function parseObject(text) {
  try {
    const parsed = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
