// @ts-check
/**
 * The outputs beside recording and streaming: the replay buffer (and saving it), the virtual
 * camera, any other output a plugin adds, the stream's settings and captions, and a recording
 * split or marked. Each on/off a parameter read on connect, the replay buffer and virtual camera
 * kept current by OBS's events, the others polled (`poll`): OBS says nothing of them.
 */
import { HubError } from 'patchbay-hub/connection';

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */

/** Outputs with parameters of their own (the frontend's recording, stream, replay buffer, virtual camera). */
const OWN_KINDS = new Set(['ffmpeg_muxer', 'ffmpeg_output', 'replay_buffer', 'rtmp_output', 'virtualcam_output']);

export class Outputs {
  #obs;
  #ask;
  #parameters;
  #segments;
  #replay;
  #virtualCam;
  #saved;
  /** Other outputs' `active`, by name. @type {Map<string, OwnedParameter>} */
  #others = new Map();

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
    /** @type {OwnedParameter} */
    const replay = parameters.commanded('replayBuffer/active', { type: 'B', meta: { label: 'Replay buffer' } }, (v) =>
      replay.value === v ? Promise.resolve() : ask(v === true ? 'StartReplayBuffer' : 'StopReplayBuffer'),
    );
    this.#replay = replay;
    parameters.trigger('replayBuffer/save', { label: 'Save replay' }, () => ask('SaveReplayBuffer'));
    this.#saved = parameters.readOnly('replayBuffer/lastSaved', { type: 'S', meta: { label: 'Last replay saved (its path)' } });
    /** @type {OwnedParameter} */
    const virtualCam = parameters.commanded('virtualCam/active', { type: 'B', meta: { label: 'Virtual camera' } }, (v) =>
      virtualCam.value === v ? Promise.resolve() : ask(v === true ? 'StartVirtualCam' : 'StopVirtualCam'),
    );
    this.#virtualCam = virtualCam;
    parameters.order(
      'streaming/caption',
      { type: 'S', meta: { label: 'Stream caption', description: 'sent with the stream as a CEA-608 caption (while streaming)' } },
      (v) => ask('SendStreamCaption', { captionText: String(v) }),
    );
    parameters.order(
      'streaming/settings',
      {
        type: 'S',
        meta: {
          label: 'Stream settings',
          description: 'where the stream goes: a service of OBS’s list, or a server of your own (RTMP or WHIP); the next start takes them',
          arguments: {
            type: {
              type: 'S',
              label: 'Kind',
              choices: [
                { value: 'rtmp_common', label: 'A service (OBS’s list)' },
                { value: 'rtmp_custom', label: 'Custom RTMP' },
                { value: 'whip_custom', label: 'Custom WHIP' },
              ],
            },
            service: { type: 'S', label: 'Service', description: 'as OBS names it: `Twitch`, `YouTube - RTMPS`', optional: true },
            server: { type: 'S', label: 'Server URL', optional: true },
            key: { type: 'S', label: 'Stream key', optional: true },
            username: { type: 'S', label: 'User name', description: 'custom RTMP with authentication', optional: true },
            password: { type: 'S', label: 'Password', optional: true },
            bearerToken: { type: 'S', label: 'Bearer token', description: 'WHIP', optional: true },
          },
        },
      },
      async (v) => ask('SetStreamServiceSettings', streamSettings(/** @type {Record<string, string>} */ (JSON.parse(String(v))))),
    );
  }

  /** Reads the outputs; what OBS has not got (OBS 29 cannot split a recording) has no parameter. @param {string[]} requests OBS's requests */
  async read(requests) {
    const obs = this.#obs;
    const has = new Set(requests);
    const ask = this.#ask;
    if (has.has('SplitRecordFile'))
      this.#parameters.trigger('recording/split', { label: 'Split the recording' }, () => ask('SplitRecordFile'));
    if (has.has('CreateRecordChapter'))
      this.#parameters.order(
        'recording/chapter',
        { type: 'S', meta: { label: 'Recording chapter', description: 'a chapter marker of this name (Hybrid MP4)' } },
        (v) => ask('CreateRecordChapter', v === '' ? undefined : { chapterName: String(v) }),
      );
    const [replay, virtualCam] = await Promise.all([
      // OBS refuses the status of a replay buffer switched off in its output settings: it is not running.
      obs.call('GetReplayBufferStatus').catch(() => ({ outputActive: false })),
      obs.call('GetVirtualCamStatus').catch(() => ({ outputActive: false })),
    ]);
    this.#replay.report(replay.outputActive);
    this.#virtualCam.report(virtualCam.outputActive);
    const { outputs } = await obs.call('GetOutputList');
    for (const output of outputs) {
      const name = String(output['outputName']);
      if (OWN_KINDS.has(String(output['outputKind'])) || this.#others.has(name)) continue;
      /** @type {OwnedParameter} */
      const active = this.#parameters.commanded(
        `output/${this.#segments.of('output', name)}/active`,
        { type: 'B', meta: { label: `${name} output` } },
        (v) => (active.value === v ? Promise.resolve() : ask(v === true ? 'StartOutput' : 'StopOutput', { outputName: name })),
      );
      this.#others.set(name, active);
    }
    await this.poll();
  }

  /** @param {(read: () => Promise<unknown>) => void} _again */
  listen(_again) {
    this.#obs.on('ReplayBufferStateChanged', ({ outputActive }) => this.#replay.report(outputActive));
    this.#obs.on('VirtualcamStateChanged', ({ outputActive }) => this.#virtualCam.report(outputActive));
    this.#obs.on('ReplayBufferSaved', ({ savedReplayPath }) => this.#saved.report(savedReplayPath));
  }

  /** The other outputs' state. */
  poll() {
    return Promise.all(
      [...this.#others].map(async ([outputName, active]) =>
        active.report((await this.#obs.call('GetOutputStatus', { outputName })).outputActive),
      ),
    );
  }
}

/**
 * The stream's settings as OBS takes them, from a write's arguments.
 * @param {Record<string, string>} a
 * @returns {import('obs-websocket-js').OBSRequestTypes['SetStreamServiceSettings']}
 */
function streamSettings(a) {
  const { type = 'rtmp_custom' } = a;
  /** @type {Record<string, string | boolean>} */
  const settings = {};
  if (a['service'] !== undefined) settings['service'] = a['service'];
  if (a['server'] !== undefined) settings['server'] = a['server'];
  if (a['key'] !== undefined) settings['key'] = a['key'];
  if (a['bearerToken'] !== undefined) settings['bearer_token'] = a['bearerToken'];
  if (a['username'] !== undefined || a['password'] !== undefined) {
    settings['use_auth'] = true;
    settings['username'] = a['username'] ?? '';
    settings['password'] = a['password'] ?? '';
  }
  if (type === 'rtmp_common' && settings['service'] === undefined)
    throw new HubError('PB_CONVERSION', 'a service of OBS’s list needs `service`: `Twitch`, `YouTube - RTMPS` …');
  return { streamServiceType: type, streamServiceSettings: settings };
}
