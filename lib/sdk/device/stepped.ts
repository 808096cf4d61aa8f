/**
 * A number of a device that writes step from: a volume, a delay, a transition's duration,
 * moved by "+3 dB" from a panel's key. A key pressed twice in quick succession steps twice,
 * though the device has not yet said the first step's value: a step starts from the value
 * written last until the device says another (what it says while a write is under way does
 * not count: it may be the value before), or from what the device said when a write was
 * refused. Writes go one at a time, each once the one before was answered, as a device may
 * take two requests in flight in either order.
 */
export class Stepped {
  private said: number | undefined;
  private wanted: number | undefined;
  private underWay = 0;
  /** The last write sent: the next waits for its answer. */
  private last: Promise<unknown> = Promise.resolve();

  /** What the device said of the number. */
  heard(value: number): void {
    this.said = value;
    if (this.underWay === 0) this.wanted = value;
  }

  /** The value a step starts from; `otherwise` while nothing is known yet. */
  now(otherwise: number): number {
    return this.wanted ?? this.said ?? otherwise;
  }

  /**
   * Writes `value` with `send`, as the value the next step starts from, once the writes
   * before it are answered; answered as `send` is.
   */
  write<T>(value: number, send: (value: number) => Promise<T>): Promise<T> {
    this.wanted = value;
    this.underWay++;
    const sent = this.last.then(() => send(value));
    this.last = sent.catch(() => {});
    return sent.then(
      (answer) => {
        this.underWay--;
        return answer;
      },
      (error: unknown) => {
        this.underWay--;
        // Refused: steps start again from what the device said.
        this.wanted = this.said;
        throw error;
      },
    );
  }
}
