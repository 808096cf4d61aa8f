// @ts-check
/**
 * What an input does by its kind: a text source's text, a capture device reset, a browser
 * source refreshed. Texts are read on connect; OBS 30.1 and later tell a text changed
 * (`InputSettingsChanged`), older ones are read again on each poll (`poll`).
 */

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */

/** OBS's text sources: FreeType 2 on Linux and macOS, GDI+ on Windows. */
const TEXT_KINDS = new Set(['text_ft2_source_v2', 'text_ft2_source', 'text_gdiplus_v2', 'text_gdiplus_v3', 'text_gdiplus']);
/** Video capture devices, reset by applying their settings again. */
const CAPTURE_KINDS = new Set([
  'v4l2_input',
  'dshow_input',
  'av_capture_input',
  'av_capture_input_v2',
  'macos-avcapture',
  'decklink-input',
]);

export class Sources {
  #obs;
  #ask;
  #parameters;
  #segments;
  /** Text parameters by input name. @type {Map<string, OwnedParameter>} */
  #texts = new Map();

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

  /** @param {{ inputName: string, inputKind: string }[]} inputs */
  async read(inputs) {
    const ask = this.#ask;
    await Promise.all(
      inputs.map(async ({ inputName, inputKind }) => {
        const at = `input/${this.#segments.of('input', inputName)}`;
        if (TEXT_KINDS.has(inputKind)) await this.#readText(inputName);
        else if (CAPTURE_KINDS.has(inputKind))
          // The device opened again: OBS closes and opens a capture when its settings are applied.
          this.#parameters.trigger(`${at}/reset`, { label: `Reset ${inputName}` }, () =>
            ask('SetInputSettings', { inputName, inputSettings: {}, overlay: true }),
          );
        else if (inputKind === 'browser_source')
          this.#parameters.trigger(`${at}/refresh`, { label: `Refresh ${inputName}` }, () =>
            ask('PressInputPropertiesButton', { inputName, propertyName: 'refreshnocache' }),
          );
      }),
    );
  }

  /** @param {(read: () => Promise<unknown>) => void} _again */
  listen(_again) {
    this.#obs.on('InputSettingsChanged', ({ inputName, inputSettings }) => {
      const text = this.#texts.get(inputName);
      if (text && typeof inputSettings['text'] === 'string') text.report(inputSettings['text']);
    });
  }

  /** Reads every text again: OBS before 30.1 does not say when one changed. */
  poll() {
    return Promise.all([...this.#texts.keys()].map((inputName) => this.#readText(inputName)));
  }

  /** @param {string} inputName */
  async #readText(inputName) {
    const { inputSettings } = await this.#obs.call('GetInputSettings', { inputName });
    let text = this.#texts.get(inputName);
    if (!text) {
      text = this.#parameters.commanded(
        `input/${this.#segments.of('input', inputName)}/text`,
        { type: 'S', meta: { label: `${inputName} text` } },
        (v) => this.#ask('SetInputSettings', { inputName, inputSettings: { text: String(v) }, overlay: true }),
      );
      this.#texts.set(inputName, text);
    }
    text.report(typeof inputSettings['text'] === 'string' ? inputSettings['text'] : '');
  }
}
