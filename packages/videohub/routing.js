// @ts-check
/**
 * Routing as a control panel does it, beside the ports' own parameters: `route`, a command
 * that routes a source, the source of another destination, or the destination's previous
 * route, minding its lock unless told not to; and the panel's selection — a destination
 * selected, a source routed to it, or queued for a take when the connection's `take` is on.
 *
 * Destinations are numbered as Companion's module numbers them: the outputs from 0, then the
 * monitoring outputs. Serial ports have a command of their own, `serial/route`.
 */
import { HubError } from 'patchbay-hub/connection';
import { KINDS } from './kinds.js';

/** @typedef {import('patchbay-hub/connection').Answered} Answered */
/** @typedef {import('patchbay-hub/connection').SetResult} SetResult */
/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {{ kind: 'outputs' | 'monitors' | 'serials', n: number }} Destination */

/** The most routes kept per destination for `previous`. */
const HISTORY = 32;

/** @param {string} why */
const refused = (why) => ({ ok: /** @type {const} */ (false), error: new HubError('PB_CONVERSION', why) });

export class Routing {
  #ports;
  #take;
  /** The routes heard of each destination, oldest first, the current one last. @type {Map<string, number[]>} */
  #history = new Map();
  #route;
  #serialRoute;
  #selected;
  #selectedInput;
  #forceInput;
  #queued;
  #queuedInput;
  #queuedOutput;
  /** @type {{ destination: number, input: number } | undefined} */
  #queue;

  /**
   * @param {Pick<import('patchbay-hub/connection').ConnectionContext, 'define'>} context
   * @param {Pick<import('./ports.js').RouterPorts, 'size' | 'valueOf' | 'route' | 'nameOf'>} ports
   * @param {boolean} take whether a source routed to the selected destination waits for a take
   */
  constructor(context, ports, take) {
    this.#ports = ports;
    this.#take = take;
    this.#route = context.define('route', {
      type: 'S',
      access: 'write-only',
      meta: this.#routeMeta(),
      ownedHere: true,
      forward: (value, _origin, answered) => this.#routeWrite(String(value), answered),
    });
    this.#serialRoute = context.define('serial/route', {
      type: 'S',
      access: 'write-only',
      meta: this.#serialMeta(),
      ownedHere: true,
      forward: (value, _origin, answered) => {
        const { port, input, ignoreLock } = /** @type {{ port: number, input: number, ignoreLock?: boolean }} */ (
          JSON.parse(String(value))
        );
        const to = this.#serial(port);
        if (!to) return refused(`serial/route: no serial port ${port}`);
        return this.#send(to, input, ignoreLock === true, answered);
      },
    });
    this.#selected = context.define('selected/output', {
      type: 'I',
      access: 'read-write',
      initial: 0,
      meta: { label: 'Selected destination' },
      onWrite: () => this.#selectionChanged(),
    });
    this.#selectedInput = context.define('selected/input', {
      type: 'I',
      access: 'read-write',
      meta: { label: 'Source of the selected destination', description: 'routed to it at once, or queued when `take` is on' },
      ownedHere: true,
      forward: (value, _origin, answered) => this.#sourceWrite(Number(value), false, answered),
    });
    this.#forceInput = context.define('selected/forceInput', {
      type: 'I',
      access: 'write-only',
      meta: { label: 'Source of the selected destination, its lock ignored' },
      ownedHere: true,
      forward: (value, _origin, answered) => this.#sourceWrite(Number(value), true, answered),
    });
    this.#queued = context.define('take/queued', {
      type: 'B',
      access: 'read-only',
      initial: false,
      meta: { label: 'A route waits for a take' },
    });
    this.#queuedInput = context.define('take/input', {
      type: 'I',
      access: 'read-only',
      initial: -1,
      meta: { label: 'Source waiting for a take', description: '-1: none' },
    });
    this.#queuedOutput = context.define('take/output', {
      type: 'I',
      access: 'read-only',
      initial: -1,
      meta: { label: 'Destination waiting for a take', description: '-1: none' },
    });
    /** @param {string} id @param {string} label @param {(answered: Answered | undefined) => SetResult} act */
    const trigger = (id, label, act) =>
      context.define(id, {
        type: 'T',
        access: 'write-only',
        meta: { label },
        ownedHere: true,
        forward: (_v, _o, answered) => act(answered),
      });
    trigger('take', 'Take the queued route', (answered) => this.#takeWrite(false, answered));
    trigger('take/force', 'Take the queued route, its lock ignored', (answered) => this.#takeWrite(true, answered));
    context.define('take/clear', {
      type: 'T',
      access: 'write-only',
      meta: { label: 'Clear the queued route' },
      onWrite: () => this.#setQueue(undefined),
    });
  }

  /** A route the router said: kept for `previous`, and the selected source followed. @param {string} id @param {number} input */
  heard(id, input) {
    const history = this.#history.get(id) ?? [];
    if (history.at(-1) !== input) history.push(input);
    if (history.length > HISTORY) history.shift();
    this.#history.set(id, history);
    const selected = this.#destination(Number(this.#selected.value));
    if (selected && id === this.#routeId(selected)) this.#selectedInput.report(input);
  }

  /** The destinations and sources say their names anew: as ports are renamed or told of. */
  describe() {
    const destinations = this.#destinations();
    const inputs = this.#inputs();
    this.#selected.describe({ label: 'Selected destination', choices: destinations });
    this.#route.describe(this.#routeMeta(destinations, inputs));
    this.#selectedInput.describe({ ...this.#selectedInput.meta, choices: inputs });
    this.#forceInput.describe({ ...this.#forceInput.meta, choices: inputs });
    const { serials } = this.#ports.size;
    this.#serialRoute.describe(
      this.#serialMeta(Array.from({ length: serials }, (_, n) => ({ value: n, label: this.#ports.nameOf('serials', n) }))),
    );
    this.#selectionChanged();
  }

  /**
   * @param {import('patchbay-hub/connection').Choice[]} [destinations]
   * @param {import('patchbay-hub/connection').Choice[]} [inputs]
   * @returns {import('patchbay-hub/connection').ParameterMeta}
   */
  #routeMeta(destinations, inputs) {
    return {
      label: 'Route',
      description: 'one of input, from (the source of another destination) or previous (the route before)',
      arguments: {
        destination: {
          type: 'I',
          label: 'Destination',
          description: 'the outputs from 0, then the monitoring outputs',
          ...(destinations && { choices: destinations }),
        },
        input: { type: 'I', label: 'Source', optional: true, ...(inputs ? { choices: inputs } : { minimum: 0 }) },
        from: {
          type: 'I',
          label: 'The source of destination',
          optional: true,
          ...(destinations ? { choices: destinations } : { minimum: 0 }),
        },
        previous: { type: 'B', label: 'The previous route', optional: true },
        ignoreLock: { type: 'B', label: 'Ignore the lock', optional: true },
      },
    };
  }

  /** @param {import('patchbay-hub/connection').Choice[]} [ports] @returns {import('patchbay-hub/connection').ParameterMeta} */
  #serialMeta(ports) {
    return {
      label: 'Route a serial port',
      arguments: {
        port: { type: 'I', label: 'Serial port', ...(ports && { choices: ports }) },
        input: { type: 'I', label: 'Source port', ...(ports && { choices: ports }) },
        ignoreLock: { type: 'B', label: 'Ignore the lock', optional: true },
      },
    };
  }

  /** @param {string} text @param {Answered | undefined} answered */
  #routeWrite(text, answered) {
    const { destination, input, from, previous, ignoreLock } =
      /** @type {{ destination: number, input?: number, from?: number, previous?: boolean, ignoreLock?: boolean }} */ (JSON.parse(text));
    if ([input, from, previous].filter((given) => given !== undefined && given !== false).length !== 1)
      return refused('route: give one of input, from, or previous: true');
    const to = this.#destination(destination);
    if (!to) return refused(`route: no destination ${destination}`);
    let source = input;
    if (from !== undefined) {
      const other = this.#destination(from);
      const routed = other && this.#ports.valueOf(this.#routeId(other));
      if (typeof routed !== 'number') return refused(`route: no route known of destination ${from}`);
      source = routed;
    }
    if (previous) {
      source = this.#history.get(this.#routeId(to))?.at(-2);
      if (source === undefined) return refused('route: no previous route known');
    }
    return this.#send(to, Number(source), ignoreLock === true, answered, () => {
      // Back to the previous route: both leave the history, as the route heard next comes back in.
      if (previous) this.#history.get(this.#routeId(to))?.splice(-2, 2);
    });
  }

  /** @param {number} input @param {boolean} force @param {Answered | undefined} answered */
  #sourceWrite(input, force, answered) {
    const destination = Number(this.#selected.value);
    const to = this.#destination(destination);
    if (!to) return refused(`no destination ${destination} is selected`);
    if (!this.#take) return this.#send(to, input, force, answered);
    this.#setQueue({ destination, input });
    answered?.({ ok: true, value: true });
    return { ok: /** @type {const} */ (true), value: true };
  }

  /** @param {boolean} force @param {Answered | undefined} answered */
  #takeWrite(force, answered) {
    const queued = this.#queue;
    const to = queued && this.#destination(queued.destination);
    if (!queued || !to) return refused('take: no route is queued');
    this.#setQueue(undefined);
    return this.#send(to, queued.input, force, answered);
  }

  /**
   * Sends a route, unless the destination is locked (here or by another) and the lock is not ignored.
   * @param {Destination} to @param {number} input @param {boolean} force @param {Answered | undefined} answered @param {() => void} [sent]
   */
  #send(to, input, force, answered, sent) {
    const sources = this.#ports.size[KINDS[to.kind].sources];
    if (!(input >= 0 && input < sources)) return refused(`no source ${input}: the router has 0–${sources - 1}`);
    const lock = this.#ports.valueOf(`${KINDS[to.kind].prefix}/${to.n}/lock`);
    if (!force && lock !== undefined && lock !== 'U')
      return {
        ok: /** @type {const} */ (false),
        error: new HubError('PB_CONVERSION', `${this.#ports.nameOf(to.kind, to.n)} is locked (${lock}): unlock it, or ignore the lock`, {
          declared: 'VIDEOHUB_LOCKED',
        }),
      };
    const result = this.#ports.route(to.kind, to.n, input, answered);
    if (result.ok) sent?.();
    return result;
  }

  /** @param {{ destination: number, input: number } | undefined} queue */
  #setQueue(queue) {
    this.#queue = queue;
    this.#queued.report(queue !== undefined);
    this.#queuedInput.report(queue?.input ?? -1);
    this.#queuedOutput.report(queue?.destination ?? -1);
  }

  #selectionChanged() {
    const to = this.#destination(Number(this.#selected.value));
    const routed = to && this.#ports.valueOf(this.#routeId(to));
    if (typeof routed === 'number') this.#selectedInput.report(routed);
  }

  /** @param {Destination} to */
  #routeId(to) {
    return `${KINDS[to.kind].prefix}/${to.n}/input`;
  }

  /** A destination by its number: an output, or past them a monitoring output. @param {number} d @returns {Destination | undefined} */
  #destination(d) {
    const { outputs, monitors } = this.#ports.size;
    if (!Number.isInteger(d) || d < 0) return undefined;
    if (d < outputs) return { kind: 'outputs', n: d };
    return d < outputs + monitors ? { kind: 'monitors', n: d - outputs } : undefined;
  }

  /** @param {number} n @returns {Destination | undefined} */
  #serial(n) {
    return Number.isInteger(n) && n >= 0 && n < this.#ports.size.serials ? { kind: 'serials', n } : undefined;
  }

  #inputs() {
    return Array.from({ length: this.#ports.size.inputs }, (_, i) => ({ value: i, label: this.#ports.nameOf('inputs', i) }));
  }

  #destinations() {
    const { outputs, monitors } = this.#ports.size;
    return [
      ...Array.from({ length: outputs }, (_, n) => ({ value: n, label: this.#ports.nameOf('outputs', n) })),
      ...Array.from({ length: monitors }, (_, n) => ({ value: outputs + n, label: this.#ports.nameOf('monitors', n) })),
    ];
  }
}
