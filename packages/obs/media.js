// @ts-check
/**
 * Media inputs (a file or a playlist: `ffmpeg_source`, `vlc_source`): playing or paused,
 * restart, stop, next and previous, where the play is and how much is left, scrubbing, and
 * the file. The state is told by OBS's events; the time is polled (`poll`), as OBS does not
 * tell it. The same keys under `media/` act on the media that started playing last, whichever
 * it is (a panel's PLAY key for whatever clip is up).
 */
import { HubError } from 'patchbay-hub/connection';

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
  /** The media that started playing last: its name, and whether it plays. */
  #current;

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
    this.#current = this.#currentKeys();
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
    obs.on('MediaInputPlaybackStarted', ({ inputName }) => {
      if (this.#players.has(inputName)) this.#current.name.report(inputName);
      status(inputName);
    });
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
    // Connected while a clip plays: it is the one that played last, until another starts.
    if (mediaState === 'OBS_MEDIA_STATE_PLAYING' && !this.#current.name.value) this.#current.name.report(inputName);
    if (this.#current.name.value === inputName) this.#current.playing.report(mediaState === 'OBS_MEDIA_STATE_PLAYING');
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
    const at = `input/${this.#segments.of('input', inputName)}/media`;
    const label = (/** @type {string} */ what) => `${inputName} ${what}`;
    const does = this.#commands(() => inputName);
    for (const key of TRIGGERS) p.trigger(`${at}/${key}`, { label: label(key) }, does[key]);
    p.order(`${at}/scrub`, { type: 'I', meta: scrubMeta(label('forward or back')) }, does.scrub);
    return {
      playing: p.commanded(`${at}/playing`, { type: 'B', meta: playingMeta(label('playing')) }, does.play),
      time: p.commanded(`${at}/time`, { type: 'I', meta: { label: label('time'), unit: 'ms', minimum: 0 } }, does.time),
      duration: p.readOnly(`${at}/duration`, { type: 'I', meta: { label: label('duration'), unit: 'ms' } }),
      remaining: p.readOnly(`${at}/remaining`, { type: 'I', meta: { label: label('time left'), unit: 'ms' } }),
      // A playlist (VLC) has no one file.
      file: inputKind === 'ffmpeg_source' ? p.commanded(`${at}/file`, { type: 'S', meta: fileMeta(label('file')) }, does.file) : undefined,
    };
  }

  /** The keys of the media that started playing last, under `media/`. */
  #currentKeys() {
    const p = this.#parameters;
    const name = p.readOnly('media/current', {
      type: 'S',
      meta: { label: 'Media playing last', description: 'the media source that started playing last' },
    });
    const does = this.#commands(() => {
      const current = name.value;
      if (typeof current === 'string' && current !== '') return current;
      throw new HubError('PB_BAD_ANSWER', 'no media source has played yet', { declared: 'OBS_NOT_FOUND' });
    });
    for (const key of TRIGGERS) p.trigger(`media/${key}`, { label: `Media playing last: ${key}` }, does[key]);
    p.order('media/scrub', { type: 'I', meta: scrubMeta('Media playing last: forward or back') }, does.scrub);
    p.order('media/time', { type: 'I', meta: { label: 'Media playing last: time', unit: 'ms', minimum: 0 } }, does.time);
    p.order('media/file', { type: 'S', meta: fileMeta('Media playing last: file') }, does.file);
    return { name, playing: p.commanded('media/playing', { type: 'B', meta: playingMeta('Media playing last: playing') }, does.play) };
  }

  /**
   * What a media source does, as requests: for the input `which` names when a write comes.
   * @param {() => string} which
   */
  #commands(which) {
    const ask = this.#ask;
    /** @param {string} action */
    const act = async (action) => ask('TriggerMediaInputAction', { inputName: which(), mediaAction: `${ACTION}${action}` });
    return {
      restart: () => act('RESTART'),
      stop: () => act('STOP'),
      next: () => act('NEXT'),
      previous: () => act('PREVIOUS'),
      play: async (/** @type {Value} */ v) => act(v === true ? 'PLAY' : 'PAUSE'),
      time: async (/** @type {Value} */ v) => ask('SetMediaInputCursor', { inputName: which(), mediaCursor: Number(v) }),
      scrub: async (/** @type {Value} */ v) => ask('OffsetMediaInputCursor', { inputName: which(), mediaCursorOffset: Number(v) }),
      file: async (/** @type {Value} */ v) =>
        ask('SetInputSettings', { inputName: which(), inputSettings: { local_file: String(v), is_local_file: true }, overlay: true }),
    };
  }
}

/** @typedef {import('patchbay-hub/connection').Value} Value */

const TRIGGERS = /** @type {const} */ (['restart', 'stop', 'next', 'previous']);

/** @param {string} label */
const playingMeta = (label) => ({ label, description: 'true plays, false pauses' });
/** @param {string} label */
const scrubMeta = (label) => ({ label, unit: 'ms', description: 'moves the play this far from where it is' });
/** @param {string} label */
const fileMeta = (label) => ({ label, description: "the path of the file, on OBS's machine" });
