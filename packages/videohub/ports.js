// @ts-check
/**
 * The router's ports as parameters: for each output, monitoring output and serial port its
 * route, label and lock, for each input its label, each written as a command to the router.
 * Made for the ports configured at start, or for those the router tells of; routes say anew
 * what they are as ports are renamed.
 */
import { after, HubError } from 'patchbay-hub/connection';
import { KINDS, lockLetters, MAX_LABEL_BYTES } from './kinds.js';
import { MAX_PORTS } from './protocol.js';

/** @typedef {import('patchbay-hub/connection').Value} Value */
/** @typedef {import('patchbay-hub/connection').ParameterMeta} ParameterMeta */
/** @typedef {import('patchbay-hub/connection').Answered} Answered */
/** @typedef {import('./kinds.js').Kind} Kind */
/**
 * @typedef {(title: string, line: string, report: () => void, answered: Answered | undefined) => import('patchbay-hub/connection').SetResult} Command
 * Queues a line of a command block; `report` runs once the router took it.
 */

/** What a lock write asks for, by the letters written: sent as they are, or worked out from the lock as it is. */
const LOCK_WRITES = new Set(['O', 'U', 'F', 'T', 'FO', 'FT']);

export class RouterPorts {
  #context;
  #configured;
  #command;
  #stateKnown;
  #routed;
  /** @type {Map<string, import('patchbay-hub/connection').OwnedParameter>} */
  #parameters = new Map();
  /** The ports known: as configured, or as many as the router said. @type {Record<Kind, number>} */
  #size = { inputs: 0, outputs: 0, monitors: 0, serials: 0 };
  /** Whether names or the number of ports changed since routes last said what they are. */
  #renamed = false;
  /** @type {{ unsubscribe(): void } | undefined} */
  #describing;
  /** What each route said last, by id. @type {Map<string, string>} */
  #said = new Map();

  /**
   * @param {Pick<import('patchbay-hub/connection').ConnectionContext, 'define' | 'scheduler'>} context
   * @param {{ inputs: number, outputs: number }} configured how many of each the settings name; 0: as many as the router says
   * @param {Command} command
   * @param {() => boolean} stateKnown whether the router's state dump of this connect is whole
   * @param {(id: string, source: number) => void} routed told each route as it is shown: told by the router, or taken by it
   */
  constructor(context, configured, command, stateKnown, routed) {
    this.#context = context;
    this.#configured = configured;
    this.#command = command;
    this.#stateKnown = stateKnown;
    this.#routed = routed;
  }

  /** How many ports of each kind have parameters. */
  get size() {
    return { ...this.#size };
  }

  /** Makes the parameters of the ports the settings name. */
  configure() {
    this.grow('inputs', this.#configured.inputs, true);
    this.grow('outputs', this.#configured.outputs, true);
  }

  /**
   * Makes the parameters of ports up to `to`: those configured at start, those the router
   * tells of when none were configured.
   * @param {Kind} which
   * @param {number} to
   * @param {boolean} [configuring]
   */
  grow(which, to, configuring = false) {
    if (!configuring && (which === 'inputs' || which === 'outputs') && this.#configured[which] > 0) return;
    const before = this.#size[which];
    for (let n = before; n < Math.min(to, MAX_PORTS); n++) {
      if (which === 'inputs') this.#defineLabel('inputs', n);
      else this.#defineDestination(which, n);
    }
    this.#size[which] = Math.max(before, Math.min(to, MAX_PORTS));
    if (this.#size[which] !== before) this.#renamed = true;
  }

  /** A block renamed ports: routes say so at the next `describeRoutes`. */
  renamed() {
    this.#renamed = true;
  }

  /**
   * Reports `value` on a port's parameter (`output/<n>/input` …); false when the port is not one of the router's.
   * @param {string} id
   * @param {Value} value
   */
  heard(id, value) {
    const parameter = this.#parameters.get(id);
    if (parameter) this.#show(id, value);
    return parameter !== undefined;
  }

  /** The value of a port's parameter, as the router said it. @param {string} id */
  valueOf(id) {
    return this.#parameters.get(id)?.value;
  }

  /**
   * Routes `source` to a destination port: a command to the router, shown once it took it.
   * @param {Exclude<Kind, 'inputs'>} kind @param {number} n @param {number} source @param {Answered | undefined} answered
   */
  route(kind, n, source, answered) {
    const id = `${KINDS[kind].prefix}/${n}/input`;
    return this.#command(KINDS[kind].route, `${n} ${source}`, () => this.#show(id, source), answered);
  }

  /**
   * Routes say anew what they are once blocks changed the names or the number of ports: at
   * once (after the state dump of a connect), then at most once a second, and only the routes whose words changed. A router that
   * sends its labels without end (or lies) costs one pass a second, not 288 descriptions
   * of 288 choices a block, each crossing to the hub.
   * @param {() => void} [also] what else says its words anew with them (the choices of destinations)
   */
  describeRoutes(also) {
    // The state dump on connect says them once it is whole (its end, or its wait, passed).
    if (!this.#renamed || this.#describing || !this.#stateKnown()) return;
    this.#renamed = false;
    this.#describing = after(this.#context.scheduler, 1000, () => {
      this.#describing = undefined;
      this.describeRoutes(also);
    });
    for (const kind of /** @type {const} */ (['outputs', 'monitors', 'serials']))
      for (let n = 0; n < this.#size[kind]; n++) {
        const id = `${KINDS[kind].prefix}/${n}/input`;
        const meta = this.#routeMeta(kind, n);
        const words = JSON.stringify(meta);
        if (this.#said.get(id) === words) continue;
        this.#said.set(id, words);
        this.#parameters.get(id)?.describe(meta);
      }
    also?.();
  }

  /** Stops describing routes. */
  stop() {
    this.#describing?.unsubscribe();
  }

  /**
   * A port's name as its label says it, numbered from 1 as the router's own panel does.
   * @param {Kind} kind
   * @param {number} n
   */
  nameOf(kind, n) {
    const label = this.#parameters.get(`${KINDS[kind].prefix}/${n}/label`)?.value;
    return `${KINDS[kind].name} ${n + 1}${label ? `: ${label}` : ''}`;
  }

  /** @param {Kind} kind @param {number} n */
  #defineLabel(kind, n) {
    const { prefix, labels, name } = KINDS[kind];
    this.#defineCommand(`${prefix}/${n}/label`, 'S', oneLine, labels, (value) => `${n} ${value}`, { label: `${name} ${n + 1}: name` });
  }

  /** @param {Exclude<Kind, 'inputs'>} kind @param {number} n */
  #defineDestination(kind, n) {
    const { prefix, route, sources, name } = KINDS[kind];
    this.#defineCommand(
      `${prefix}/${n}/input`,
      'I',
      (value) => {
        const count = this.#size[sources];
        return Number(value) >= 0 && (count === 0 || Number(value) < count)
          ? undefined
          : `${KINDS[sources].name.toLowerCase()} ${value} is not one of the router's${count > 0 ? ` 0–${count - 1}` : ''}`;
      },
      route,
      (value) => `${n} ${value}`,
      this.#routeMeta(kind, n),
    );
    this.#defineLabel(kind, n);
    this.#defineLock(kind, n, `${name} ${n + 1}: lock`);
  }

  /**
   * A lock, written as the router's letters (O, U, F) or as the module's: T toggles (U to
   * O, any other to U), FO forces an unlock and locks, FT forces and toggles. A force and a
   * lock are two commands, the second sent once the router took the first.
   * @param {Exclude<Kind, 'inputs'>} kind @param {number} n @param {string} label
   */
  #defineLock(kind, n, label) {
    const id = `${KINDS[kind].prefix}/${n}/lock`;
    const title = KINDS[kind].locks;
    /** @type {import('patchbay-hub/connection').OwnedParameter} */
    const parameter = this.#context.define(id, {
      type: 'S',
      access: 'read-write',
      meta: { label, choices: lockLetters },
      ownedHere: true,
      forward: (value, _origin, answered) => {
        const written = String(value);
        if (!LOCK_WRITES.has(written))
          return {
            ok: false,
            error: new HubError('PB_CONVERSION', `a lock is written O, U, F, T, FO or FT, not "${written}"`),
          };
        const toggled = parameter.value === 'U' ? 'O' : 'U';
        const letter = written === 'T' ? toggled : written === 'FT' ? (toggled === 'O' ? 'FO' : 'F') : written;
        /** @param {string} sent @param {Answered | undefined} told */
        const send = (sent, told) => this.#command(title, `${n} ${sent}`, () => parameter.report(sent === 'O' ? 'O' : 'U'), told);
        if (letter !== 'FO') return send(letter, answered);
        return send('F', (forced) => {
          if (!forced.ok) return answered?.(forced);
          const locking = send('O', answered);
          if (!locking.ok) answered?.(locking);
        });
      },
    });
    this.#parameters.set(id, parameter);
  }

  /**
   * Defines a read-write parameter whose writes are commands to the router.
   * @param {string} id
   * @param {'I' | 'S'} type
   * @param {(value: Value) => string | undefined} problem why a value is refused, if it is
   * @param {string} title
   * @param {(value: Value) => string} line
   * @param {ParameterMeta} meta what it says of itself
   */
  #defineCommand(id, type, problem, title, line, meta) {
    if (this.#parameters.has(id)) return;
    /** @type {import('patchbay-hub/connection').OwnedParameter} */
    const parameter = this.#context.define(id, {
      type,
      access: 'read-write',
      meta,
      ownedHere: true,
      forward: (value, _origin, answered) => {
        const why = problem(value);
        if (why !== undefined) return { ok: false, error: new HubError('PB_CONVERSION', why) };
        return this.#command(title, line(value), () => this.#show(id, value), answered);
      },
    });
    this.#parameters.set(id, parameter);
  }

  /**
   * Shows `value` on a port's parameter; a route that changed is also told to `routed` (the
   * router's echo of a route it took, coming after the next write, is no change).
   * @param {string} id @param {Value} value
   */
  #show(id, value) {
    const parameter = this.#parameters.get(id);
    const changed = parameter?.value !== value;
    parameter?.report(value);
    if (changed && id.endsWith('/input') && typeof value === 'number') this.#routed(id, value);
  }

  /**
   * What a route says of itself (R-PK6): its destination by name, and the router's sources
   * by name as its choices — a picker of sources, not a number typed by hand.
   * @param {Exclude<Kind, 'inputs'>} kind
   * @param {number} n
   * @returns {ParameterMeta}
   */
  #routeMeta(kind, n) {
    const sources = KINDS[kind].sources;
    return {
      label: `${this.nameOf(kind, n)}: source`,
      choices: Array.from({ length: this.#size[sources] }, (_, i) => ({ value: i, label: this.nameOf(sources, i) })),
    };
  }
}

/** @param {Value} value */
function oneLine(value) {
  if (/[\r\n]/.test(String(value))) return 'a label is one line';
  const bytes = Buffer.byteLength(String(value));
  return bytes > MAX_LABEL_BYTES ? `a label is at most ${MAX_LABEL_BYTES} bytes, not ${bytes}` : undefined;
}
