// @ts-check
/**
 * Media inputs (a file or a playlist: `ffmpeg_source`, `vlc_source`): playing or paused,
 * restart, stop, next and previous, where the play is and how much is left, scrubbing, and
 * the file. The state is told by OBS's events; the time is polled (`poll`), as OBS does not
 * tell it.
 */

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {{ playing: OwnedParameter, time: OwnedParameter, duration: OwnedParameter, remaining: OwnedParameter, file: OwnedParameter | undefined }} Player */

const MEDIA_KINDS = new Set(['ffmpeg_source', 'vlc_source']);
const ACTION = 'OBS_WEBSOCKET_MEDIA_INPUT_ACTION_';

export class Media {
  #obs;
  #ask;
  #parameters;
  #segments;
  /** Players by input name. @type {Map<string, Player>} */
  #players = new Map();

  /**
   * @param {import('obs-websocket-js').OBSWebSocket} obs
   * @param {import('./requests.js').Ask} ask
   * @param {import('./parameters.js').ObsParameters} parameters
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
    const media = inputs.filter(({ inputKind }) => MEDIA_KINDS.has(inputKind));
    await Promise.all(media.map(({ inputName, inputKind }) => this.#read(inputName, inputKind)));
  }

  /** @param {(read: () => Promise<unknown>) => void} again */
  listen(again) {
    const obs = this.#obs;
    const status = (/** @type {string} */ inputName) => {
      if (this.#players.has(inputName)) again(() => this.#status(inputName));
    };
    obs.on('MediaInputPlaybackStarted', ({ inputName }) => status(inputName));
    obs.on('MediaInputPlaybackEnded', ({ inputName }) => status(inputName));
    obs.on('MediaInputActionTriggered', ({ inputName }) => status(inputName));
    obs.on('InputSettingsChanged', ({ inputName, inputSettings }) => {
      const file = this.#players.get(inputName)?.file;
      if (file && typeof inputSettings['local_file'] === 'string') file.report(inputSettings['local_file']);
    });
  }

  /** Where each player is, and its file (OBS before 30.1 does not say when that changed). */
  poll() {
    return Promise.all([...this.#players.keys()].map((inputName) => this.#status(inputName, true)));
  }

  /** @param {string} inputName @param {string} inputKind */
  async #read(inputName, inputKind) {
    if (!this.#players.has(inputName)) this.#players.set(inputName, this.#player(inputName, inputKind));
    await this.#status(inputName, true);
  }

  /** @param {string} inputName @param {boolean} [withFile] */
  async #status(inputName, withFile = false) {
    const player = this.#players.get(inputName);
    if (!player) return;
    const obs = this.#obs;
    const [{ mediaState, mediaDuration, mediaCursor }, settings] = await Promise.all([
      obs.call('GetMediaInputStatus', { inputName }),
      withFile && player.file ? obs.call('GetInputSettings', { inputName }) : undefined,
    ]);
    player.playing.report(mediaState === 'OBS_MEDIA_STATE_PLAYING');
    const duration = Math.max(0, Math.round(mediaDuration ?? 0));
    const time = Math.max(0, Math.round(mediaCursor ?? 0));
    player.duration.report(duration);
    player.time.report(time);
    player.remaining.report(Math.max(0, duration - time));
    const file = settings?.inputSettings['local_file'];
    if (player.file && typeof file === 'string') player.file.report(file);
  }

  /** @param {string} inputName @param {string} inputKind @returns {Player} */
  #player(inputName, inputKind) {
    const p = this.#parameters;
    const ask = this.#ask;
    const at = `input/${this.#segments.of('input', inputName)}/media`;
    const label = (/** @type {string} */ what) => `${inputName} ${what}`;
    const act = (/** @type {string} */ action) => ask('TriggerMediaInputAction', { inputName, mediaAction: `${ACTION}${action}` });
    for (const [action, what] of /** @type {const} */ ([
      ['restart', 'RESTART'],
      ['stop', 'STOP'],
      ['next', 'NEXT'],
      ['previous', 'PREVIOUS'],
    ]))
      p.trigger(`${at}/${action}`, { label: label(action) }, () => act(what));
    p.writeOnly(
      `${at}/scrub`,
      { type: 'I', meta: { label: label('forward or back'), unit: 'ms', description: 'moves the play this far from where it is' } },
      (v) => ask('OffsetMediaInputCursor', { inputName, mediaCursorOffset: Number(v) }),
    );
    return {
      playing: p.commanded(
        `${at}/playing`,
        { type: 'B', meta: { label: label('playing'), description: 'true plays, false pauses' } },
        (v) => act(v === true ? 'PLAY' : 'PAUSE'),
      ),
      time: p.commanded(`${at}/time`, { type: 'I', meta: { label: label('time'), unit: 'ms', minimum: 0 } }, (v) =>
        ask('SetMediaInputCursor', { inputName, mediaCursor: Number(v) }),
      ),
      duration: p.readOnly(`${at}/duration`, { type: 'I', meta: { label: label('duration'), unit: 'ms' } }),
      remaining: p.readOnly(`${at}/remaining`, { type: 'I', meta: { label: label('time left'), unit: 'ms' } }),
      // A playlist (VLC) has no one file.
      file:
        inputKind === 'ffmpeg_source'
          ? p.commanded(
              `${at}/file`,
              { type: 'S', meta: { label: label('file'), description: 'the path of the file, on OBS’s machine' } },
              (v) => ask('SetInputSettings', { inputName, inputSettings: { local_file: String(v), is_local_file: true }, overlay: true }),
            )
          : undefined,
    };
  }
}
