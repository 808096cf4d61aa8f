// @ts-check
/**
 * OBS's names as segments of parameter ids (`Camera 1` → `Camera_1`, `parameterIdOf`), each
 * kept for the connection's life: a renamed scene is a new one.
 */
import { parameterIdOf } from 'patchbay-hub/connection';

export class Segments {
  /** The segment of each name, by kind (`scene`, `input`, `output`, and the filters of each source). @type {Map<string, Map<string, string>>} */
  #made = new Map();

  /**
   * A name of OBS as one segment of an id; a second name of the same segment (`Cam 1` and
   * `Cam_1`) gets `-2`.
   * @param {string} kind @param {string} name
   */
  of(kind, name) {
    let made = this.#made.get(kind);
    if (!made) this.#made.set(kind, (made = new Map()));
    const known = made.get(name);
    if (known) return known;
    const base = parameterIdOf([name]) ?? '-';
    const taken = new Set(made.values());
    let segment = base;
    for (let n = 2; taken.has(segment); n++) segment = `${base}-${n}`;
    made.set(name, segment);
    return segment;
  }
}
