// @ts-check
/**
 * A number of OBS's that writes step from (a volume, a sync offset, a transition's duration):
 * a panel's key pressed twice in quick succession steps twice, though OBS has not yet said
 * the first step's value. The value is the one written last until OBS says another (its
 * word on a write under way does not count), or the one OBS said when a write is refused.
 */
export class Stepped {
  /** @type {number | undefined} */
  #said;
  /** @type {number | undefined} */
  #wanted;
  #underWay = 0;
  /** The last write sent: the next waits for its answer. @type {Promise<unknown>} */
  #last = Promise.resolve();

  /** What OBS said. @param {number} value */
  heard(value) {
    this.#said = value;
    if (this.#underWay === 0) this.#wanted = value;
  }

  /** The value a step starts from. @param {number} otherwise when nothing is known yet */
  now(otherwise) {
    return this.#wanted ?? this.#said ?? otherwise;
  }

  /**
   * Writes `value` with `send`, as the value the next step starts from; after the writes
   * before it are answered, as OBS may take two requests in flight in either order.
   * @param {number} value @param {(value: number) => Promise<unknown>} send
   */
  write(value, send) {
    this.#wanted = value;
    this.#underWay++;
    const sent = this.#last.then(() => send(value));
    this.#last = sent.catch(() => {});
    return sent.then(
      (answer) => {
        this.#underWay--;
        return answer;
      },
      (error) => {
        this.#underWay--;
        // Refused: steps start again from what OBS said.
        this.#wanted = this.#said;
        throw error;
      },
    );
  }
}
