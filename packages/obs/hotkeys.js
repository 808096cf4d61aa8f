// @ts-check
/**
 * OBS's hotkeys, pressed from the hub: by name (OBS's list, `OBSBasic.StartRecording`), or as
 * the keys a person would press (`OBS_KEY_F1` with shift, alt, control, command).
 */

export class Hotkeys {
  #obs;
  #byName;

  /**
   * @param {import('obs-websocket-js').OBSWebSocket} obs
   * @param {import('./requests.js').Ask} ask
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   */
  constructor(obs, ask, parameters) {
    this.#obs = obs;
    this.#byName = parameters.order(
      'hotkey/press',
      { type: 'S', meta: { label: 'Press a hotkey', description: "OBS's name of the hotkey (choices: OBS's hotkeys)" } },
      (v) => ask('TriggerHotkeyByName', { hotkeyName: String(v) }),
    );
    const modifier = (/** @type {string} */ label) => ({ type: /** @type {const} */ ('B'), label, optional: true });
    parameters.order(
      'hotkey/keys',
      {
        type: 'S',
        meta: {
          label: 'Press keys',
          description: 'the key as OBS names it (`OBS_KEY_F1`), with the modifiers held',
          arguments: {
            key: { type: 'S', label: 'Key', description: '`OBS_KEY_A`, `OBS_KEY_F1`, `OBS_KEY_NUM1` …' },
            shift: modifier('Shift'),
            alt: modifier('Alt / Option'),
            control: modifier('Control'),
            command: modifier('Command (Mac)'),
          },
        },
      },
      (v) => {
        const { key, shift = false, alt = false, control = false, command = false } = JSON.parse(String(v));
        return ask('TriggerHotkeyByKeySequence', { keyId: key, keyModifiers: { shift, alt, control, command } });
      },
    );
  }

  async read() {
    const { hotkeys } = await this.#obs.call('GetHotkeyList');
    this.#byName.describe({ ...this.#byName.meta, choices: hotkeys.map((name) => ({ value: name, label: name })) });
  }
}
