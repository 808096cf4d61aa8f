// @ts-check
/**
 * A still of the program, or of any scene or source, saved on OBS's machine: into the
 * recordings folder under the date, the source and the time, or where the write says.
 */

/** @param {number} n */
const two = (n) => String(n).padStart(2, '0');

export class Screenshot {
  #obs;
  #parameter;

  /**
   * @param {import('obs-websocket-js').OBSWebSocket} obs
   * @param {import('./requests.js').Ask} ask
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {() => string} program the program scene's name
   * @param {() => number} now the hub's clock
   */
  constructor(obs, ask, parameters, program, now) {
    this.#obs = obs;
    this.#parameter = parameters.order('screenshot', { type: 'S', meta: screenshotMeta(['png']) }, async (v) => {
      const { source = program(), format = 'png', quality, folder, name } = JSON.parse(String(v));
      const at = new Date(now());
      const stamp = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
      const time = `${two(at.getHours())}-${two(at.getMinutes())}-${two(at.getSeconds())}`;
      const into = folder || (await obs.call('GetRecordDirectory')).recordDirectory;
      const file = `${name || `${stamp}_${source}_${time}`.replace(/[/\\:]/g, '-')}.${format}`;
      await ask('SaveSourceScreenshot', {
        sourceName: source,
        imageFormat: format,
        imageFilePath: `${into.replace(/[/\\]$/, '')}/${file}`,
        ...(quality !== undefined && { imageCompressionQuality: quality }),
      });
    });
  }

  /** The image formats OBS can write are the choices of `format`. */
  async read() {
    const { supportedImageFormats } = await this.#obs.call('GetVersion');
    this.#parameter.describe(screenshotMeta(supportedImageFormats));
  }
}

/** @param {string[]} formats @returns {import('patchbay-hub/connection').ParameterMeta} */
function screenshotMeta(formats) {
  return {
    label: 'Screenshot',
    description:
      'saves a still of the program (or of `source`) as a file on OBS’s machine; `{}` takes the program as PNG into the recordings folder',
    arguments: {
      source: { type: 'S', label: 'Scene or source', description: 'the program scene when left out', optional: true },
      format: { type: 'S', label: 'Format', choices: formats.map((f) => ({ value: f, label: f.toUpperCase() })), optional: true },
      quality: { type: 'I', label: 'Quality', description: '0–100, -1 for the format’s own', minimum: -1, maximum: 100, optional: true },
      folder: { type: 'S', label: 'Folder', description: 'on OBS’s machine; the recordings folder when left out', optional: true },
      name: { type: 'S', label: 'File name', description: 'without its extension; date_source_time when left out', optional: true },
    },
  };
}
