// @ts-check
/**
 * A fade: a level moved to a value (or by a step) over a time, along a curve, as a fader's hand
 * does — `{"to": -20, "ms": 2000, "algorithm": "cubic", "curve": "ease-out"}` — written to
 * `<level>/fade`. It sends 25 values a second through the link, the first at once (the write is
 * answered when the switcher took it), the rest on the hub's scheduler; a new fade or a write
 * of the same level's fade stops the one under way, and so does the connection's stop.
 * The curves are Robert Penner's easing equations, as tween.js has them.
 */

const FRAME_MS = 40;

/** Each algorithm's ease-in, from 0 to 1; ease-out and ease-in-out are made from it. */
/** @type {Record<string, (k: number) => number>} */
const EASE_IN = {
  linear: (k) => k,
  quadratic: (k) => k ** 2,
  cubic: (k) => k ** 3,
  quartic: (k) => k ** 4,
  quintic: (k) => k ** 5,
  sinusoidal: (k) => 1 - Math.cos((k * Math.PI) / 2),
  exponential: (k) => (k === 0 ? 0 : 1024 ** (k - 1)),
  circular: (k) => 1 - Math.sqrt(1 - k * k),
  elastic: (k) => (k === 0 || k === 1 ? k : -(2 ** (10 * (k - 1))) * Math.sin((k - 1.1) * 5 * Math.PI)),
  back: (k) => k * k * (2.70158 * k - 1.70158),
  bounce: (k) => 1 - bounceOut(1 - k),
};

/** @param {number} k */
function bounceOut(k) {
  if (k < 1 / 2.75) return 7.5625 * k * k;
  if (k < 2 / 2.75) return 7.5625 * (k -= 1.5 / 2.75) * k + 0.75;
  if (k < 2.5 / 2.75) return 7.5625 * (k -= 2.25 / 2.75) * k + 0.9375;
  return 7.5625 * (k -= 2.625 / 2.75) * k + 0.984375;
}

/** How far along a fade is at `k` (0 to 1) for an algorithm and a curve. @param {string} algorithm @param {string} curve @param {number} k */
export function eased(algorithm, curve, k) {
  const ease = EASE_IN[algorithm] ?? EASE_IN['linear'];
  if (!ease) return k;
  if (curve === 'ease-out') return 1 - ease(1 - k);
  if (curve === 'ease-in-out') return k < 0.5 ? ease(2 * k) / 2 : 1 - ease(2 * (1 - k)) / 2;
  return ease(k);
}

const choices = (/** @type {string[]} */ values) => values.map((value) => ({ value, label: value[0]?.toUpperCase() + value.slice(1) }));

/**
 * @typedef {(id: string, label: string, range: { minimum: number, maximum: number, unit?: string }, now: () => number, set: (value: number) => Promise<unknown>) => void} Fade
 */

export class Fades {
  #scheduler;
  #write;
  #send;
  /** What is under way, by level: the steps still to go. @type {Map<string, { unsubscribe(): void }[]>} */
  #running = new Map();

  /**
   * @param {import('patchbay-hub/connection').ConnectionContext['scheduler']} scheduler
   * @param {import('./steps.js').WriteOnly} write
   * @param {(command: () => Promise<unknown>) => unknown} send a command through the link, not answered to anyone
   */
  constructor(scheduler, write, send) {
    this.#scheduler = scheduler;
    this.#write = write;
    this.#send = send;
  }

  /** `<id>/fade`, for the level `id`. @type {Fade} */
  fade = (id, label, range, now, set) => {
    const { minimum, maximum, unit } = range;
    const meta = {
      label: `${label} fade`,
      arguments: {
        to: { type: /** @type {const} */ ('F'), label: 'To', minimum, maximum, ...(unit && { unit }), optional: true },
        by: { type: /** @type {const} */ ('F'), label: 'By', ...(unit && { unit }), optional: true },
        ms: { type: /** @type {const} */ ('I'), label: 'Duration', unit: 'ms', minimum: 0, maximum: 60_000 },
        algorithm: { type: /** @type {const} */ ('S'), label: 'Algorithm', choices: choices(Object.keys(EASE_IN)), optional: true },
        curve: {
          type: /** @type {const} */ ('S'),
          label: 'Curve',
          choices: choices(['ease-in', 'ease-out', 'ease-in-out']),
          optional: true,
        },
      },
    };
    this.#write(`${id}/fade`, 'S', meta, (v) => {
      const {
        to,
        by,
        ms,
        algorithm = 'linear',
        curve = 'ease-in',
      } = /** @type {{ to?: number, by?: number, ms: number, algorithm?: string, curve?: string }} */ (JSON.parse(String(v)));
      const from = now();
      const target = Math.min(maximum, Math.max(minimum, to ?? from + (by ?? 0)));
      this.stop(id);
      const frames = Math.ceil(ms / FRAME_MS);
      if (frames <= 1) return set(target);
      const at = (/** @type {number} */ frame) => from + (target - from) * eased(algorithm, curve, frame / frames);
      this.#running.set(
        id,
        Array.from({ length: frames - 1 }, (_, n) =>
          this.#scheduler.schedule(() => this.#send(() => set(n + 2 === frames ? target : at(n + 2))), (n + 1) * FRAME_MS),
        ),
      );
      return set(at(1));
    });
  };

  /** Stops the fade of `id`, or every fade. @param {string} [id] */
  stop(id) {
    for (const [level, steps] of this.#running) {
      if (id !== undefined && level !== id) continue;
      for (const step of steps) step.unsubscribe();
      this.#running.delete(level);
    }
  }
}
