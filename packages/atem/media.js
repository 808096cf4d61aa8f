// @ts-check
/**
 * The media pool and players: what each player plays (a still or a clip, offered by name),
 * stepping a player through the stills, a still captured from program and a still cleared —
 * numbered from 1 as the panel names them (`mp/1`, `media/still/1`).
 */
import { Enums } from 'atem-connection';
import { HubError } from 'patchbay-hub/connection';

/** @typedef {import('atem-connection').AtemState} AtemState */

/** A player's source as people name it: `still/3`, `clip/1`. @param {import('atem-connection').MediaState.MediaPlayerSource} s */
const sourceOf = (s) => (s.sourceType === Enums.MediaSourceType.Clip ? `clip/${s.clipIndex + 1}` : `still/${s.stillIndex + 1}`);

export class Media {
  #atem;
  #parameters;
  #write;

  /**
   * @param {import('atem-connection').Atem} atem
   * @param {import('patchbay-hub/connection').CommandedParameters} parameters
   * @param {import('./steps.js').WriteOnly} write
   */
  constructor(atem, parameters, write) {
    this.#atem = atem;
    this.#parameters = parameters;
    this.#write = write;
  }

  /** The pool and every player, and the choices of each player's source. @param {AtemState} state */
  read(state) {
    if ((state.info.mediaPool?.stillCount ?? 0) > 0)
      this.#parameters.trigger('media/capture', { label: 'Capture a still from program' }, () => this.#atem.captureMediaPoolStill());
    state.media.stillPool.forEach((still, index) => this.#still(index, still));
    state.media.players.forEach((player, index) => this.#player(index, player));
    this.#offer(state);
  }

  /**
   * What a state path names: `media.stillPool.3`, `media.players.0`.
   * @param {AtemState} state @param {string} [kind] @param {number} [index]
   */
  changed(state, kind, index) {
    if (kind === 'stillPool' && index !== undefined) {
      this.#still(index, state.media.stillPool[index]);
      this.#offer(state);
    } else if (kind === 'players' && index !== undefined) this.#player(index, state.media.players[index]);
    else this.read(state);
  }

  /** @param {number} index @param {import('atem-connection').MediaState.StillFrame | undefined} still */
  #still(index, still) {
    const n = index + 1;
    this.#parameters
      .readOnly(`media/still/${n}/name`, { type: 'S', meta: { label: `Still ${n} name` } })
      .report(still?.isUsed ? still.fileName : '');
    this.#parameters.trigger(`media/still/${n}/clear`, { label: `Clear still ${n}` }, () => this.#atem.clearMediaPoolStill(index));
  }

  /** @param {number} index @param {import('atem-connection').MediaState.MediaPlayerState | undefined} player */
  #player(index, player) {
    if (!player) return;
    const atem = this.#atem;
    const n = index + 1;
    this.#parameters
      .commanded(`mp/${n}/source`, { type: 'S', meta: { label: `Media player ${n}` } }, (v) => {
        const [kind, number] = String(v).split('/');
        const at = Number(number) - 1;
        return atem.setMediaPlayerSource(
          kind === 'clip'
            ? { sourceType: Enums.MediaSourceType.Clip, clipIndex: at }
            : { sourceType: Enums.MediaSourceType.Still, stillIndex: at },
          index,
        );
      })
      .report(sourceOf(player));
    // A still or a clip by its place or its name, as a script has it: `{"slot": "Slate"}`, `{"slot": "2", "clip": true}`.
    const meta = {
      label: `Media player ${n} by place or name`,
      arguments: {
        slot: { type: /** @type {const} */ ('S'), label: 'Place (from 1) or name' },
        clip: { type: /** @type {const} */ ('B'), label: 'A clip', optional: true },
      },
    };
    this.#write(`mp/${n}/slot`, 'S', meta, (v) => {
      const { slot, clip } = /** @type {{ slot: string, clip?: boolean }} */ (JSON.parse(String(v)));
      const media = atem.state?.media;
      const pool = clip ? (media?.clipPool ?? []).map((c) => c?.name) : (media?.stillPool ?? []).map((s) => s?.fileName);
      const at = /^\d+$/.test(slot) ? Number(slot) - 1 : pool.indexOf(slot);
      if (at < 0)
        return Promise.reject(new HubError('PB_CONVERSION', `mp/${n}/slot: no ${clip ? 'clip' : 'still'} "${slot.slice(0, 40)}"`));
      return atem.setMediaPlayerSource(
        clip ? { sourceType: Enums.MediaSourceType.Clip, clipIndex: at } : { sourceType: Enums.MediaSourceType.Still, stillIndex: at },
        index,
      );
    });
    for (const [step, label] of /** @type {const} */ ([
      [1, 'next'],
      [-1, 'previous'],
    ]))
      this.#parameters.trigger(`mp/${n}/${label}`, { label: `Media player ${n} ${label} still` }, () => {
        // The next or previous place of the pool, round its end, as the panel steps.
        const pool = atem.state?.media.stillPool.length ?? 0;
        const now = atem.state?.media.players[index];
        const from = now?.sourceType === Enums.MediaSourceType.Still ? now.stillIndex : step > 0 ? -1 : 0;
        return atem.setMediaPlayerSource(
          { sourceType: Enums.MediaSourceType.Still, stillIndex: (from + step + pool) % Math.max(pool, 1) },
          index,
        );
      });
  }

  /** Every still (by name where it has one) and clip, as the choices of each player's source. @param {AtemState} state */
  #offer(state) {
    const stills = state.media.stillPool.map((still, index) => ({
      value: `still/${index + 1}`,
      label: `Still ${index + 1}${still?.isUsed ? `: ${still.fileName}` : ''}`,
    }));
    const clips = Array.from({ length: state.info.mediaPool?.clipCount ?? 0 }, (_, index) => ({
      value: `clip/${index + 1}`,
      label: `Clip ${index + 1}${state.media.clipPool[index]?.isUsed ? `: ${state.media.clipPool[index]?.name}` : ''}`,
    }));
    this.#parameters.offer(/^mp\/\d+\/source$/, [...stills, ...clips]);
  }
}
