// @ts-check
/**
 * The router's ports as parameters: for each output its route, label and lock, for each
 * input its label, each written as a command to the router. Made for the ports configured
 * at start, or for those the router tells of; routes say anew what they are as ports are
 * renamed.
 */
import { after, HubError } from 'patchbay-hub/connection';
import { MAX_PORTS } from './protocol.js';

/** @typedef {import('patchbay-hub/connection').Value} Value */
/** @typedef {import('patchbay-hub/connection').ParameterMeta} ParameterMeta */
/** @typedef {import('patchbay-hub/connection').Answered} Answered */
/**
 * @typedef {(title: string, line: string, report: () => void, answered: Answered | undefined) => import('patchbay-hub/connection').SetResult} Command
 * Queues a line of a command block; `report` runs once the router took it.
 */

/** The lock a write asks for, by the letter written. */
const LOCK_WRITES = new Set(['O', 'U', 'F']);
/** A lock's letters for a person: what may be written, and L, which the router reports. */
const LOCKS = [
  { value: 'U', label: 'Unlocked' },
  { value: 'O', label: 'Locked here' },
  { value: 'F', label: 'Force an unlock' },
  { value: 'L', label: 'Locked by another' },
];
/** The longest label written, in bytes: what the router sends back must stay well within the line this type reads. */
const MAX_LABEL_BYTES = 255;

export class RouterPorts {
  #context;
  #configured;
  #command;
  #stateKnown;
  /** @type {Map<string, import('patchbay-hub/connection').OwnedParameter>} */
  #parameters = new Map();
  /** The ports known: as configured, or as many as the router said. */
  #size = { inputs: 0, outputs: 0 };
  /** Whether names or the number of ports changed since routes last said what they are. */
  #renamed = false;
  /** @type {{ unsubscribe(): void } | undefined} */
  #describing;
  /** What each route said last, by output. @type {Map<number, string>} */
  #said = new Map();

  /**
   * @param {Pick<import('patchbay-hub/connection').ConnectionContext, 'define' | 'scheduler'>} context
   * @param {{ inputs: number, outputs: number }} configured how many of each the settings name; 0: as many as the router says
   * @param {Command} command
   * @param {() => boolean} stateKnown whether the router's state dump of this connect is whole
   */
  constructor(context, configured, command, stateKnown) {
    this.#context = context;
    this.#configured = configured;
    this.#command = command;
    this.#stateKnown = stateKnown;
  }

  /** How many inputs and outputs have parameters. */
  get size() {
    return { inputs: this.#size.inputs, outputs: this.#size.outputs };
  }

  /** Makes the parameters of the ports the settings name. */
  configure() {
    this.grow('inputs', this.#configured.inputs, true);
    this.grow('outputs', this.#configured.outputs, true);
  }

  /**
   * Makes the parameters of ports up to `to`: those configured at start, those the router
   * tells of when none were configured.
   * @param {'inputs' | 'outputs'} which
   * @param {number} to
   * @param {boolean} [configuring]
   */
  grow(which, to, configuring = false) {
    if (!configuring && this.#configured[which] > 0) return;
    const before = this.#size[which];
    for (let n = before; n < Math.min(to, MAX_PORTS); n++) {
      if (which === 'inputs') this.#defineInput(n);
      else this.#defineOutput(n);
    }
    this.#size[which] = Math.max(before, Math.min(to, MAX_PORTS));
    if (which === 'inputs' && this.#size.inputs !== before) this.#renamed = true;
  }

  /** A block renamed ports: routes say so at the next `describeRoutes`. */
  renamed() {
    this.#renamed = true;
  }

  /**
   * Reports `value` on `output/<n>/<what>` or `input/<n>/label`; false when the port is not one of the router's.
   * @param {string} id
   * @param {Value} value
   */
  heard(id, value) {
    const parameter = this.#parameters.get(id);
    parameter?.report(value);
    return parameter !== undefined;
  }

  /**
   * Routes say anew what they are once blocks changed the names or the number of ports: at
   * once (after the state dump of a connect), then at most once a second, and only the routes whose words changed. A router that
   * sends its labels without end (or lies) costs one pass a second, not 288 descriptions
   * of 288 choices a block, each crossing to the hub.
   */
  describeRoutes() {
    // The state dump on connect says them once it is whole (its end, or its wait, passed).
    if (!this.#renamed || this.#describing || !this.#stateKnown()) return;
    this.#renamed = false;
    this.#describing = after(this.#context.scheduler, 1000, () => {
      this.#describing = undefined;
      this.describeRoutes();
    });
    for (let n = 0; n < this.#size.outputs; n++) {
      const meta = this.#routeMeta(n);
      const words = JSON.stringify(meta);
      if (this.#said.get(n) === words) continue;
      this.#said.set(n, words);
      this.#parameters.get(`output/${n}/input`)?.describe(meta);
    }
  }

  /** Stops describing routes. */
  stop() {
    this.#describing?.unsubscribe();
  }

  /** @param {number} n */
  #defineInput(n) {
    this.#defineCommand(`input/${n}/label`, 'S', oneLine, 'INPUT LABELS', (value) => `${n} ${value}`, { label: `Input ${n + 1}: name` });
  }

  /** @param {number} n */
  #defineOutput(n) {
    this.#defineCommand(
      `output/${n}/input`,
      'I',
      (value) =>
        Number(value) >= 0 && (this.#size.inputs === 0 || Number(value) < this.#size.inputs)
          ? undefined
          : `input ${value} is not one of the router's${this.#size.inputs > 0 ? ` 0–${this.#size.inputs - 1}` : ''}`,
      'VIDEO OUTPUT ROUTING',
      (value) => `${n} ${value}`,
      this.#routeMeta(n),
    );
    this.#defineCommand(`output/${n}/label`, 'S', oneLine, 'OUTPUT LABELS', (value) => `${n} ${value}`, { label: `Output ${n + 1}: name` });
    this.#defineCommand(
      `output/${n}/lock`,
      'S',
      (value) =>
        LOCK_WRITES.has(String(value)) ? undefined : `a lock is written O (lock), U (unlock) or F (force an unlock), not "${value}"`,
      'VIDEO OUTPUT LOCKS',
      (value) => `${n} ${value}`,
      { label: `Output ${n + 1}: lock`, choices: LOCKS },
    );
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
        return this.#command(title, line(value), () => parameter.report(value), answered);
      },
    });
    this.#parameters.set(id, parameter);
  }

  /**
   * What a route says of itself (R-PK6): its output by name, and the router's inputs by
   * name as its choices — a picker of sources, not a number typed by hand.
   * @param {number} n
   * @returns {ParameterMeta}
   */
  #routeMeta(n) {
    return {
      label: `${this.#portName('output', n)}: source`,
      choices: Array.from({ length: this.#size.inputs }, (_, i) => ({ value: i, label: this.#portName('input', i) })),
    };
  }

  /**
   * A port's name as its label says it, numbered from 1 as the router's own panel does.
   * @param {'input' | 'output'} which
   * @param {number} n
   */
  #portName(which, n) {
    const label = this.#parameters.get(`${which}/${n}/label`)?.value;
    return `${which === 'input' ? 'Input' : 'Output'} ${n + 1}${label ? `: ${label}` : ''}`;
  }
}

/** @param {Value} value */
function oneLine(value) {
  if (/[\r\n]/.test(String(value))) return 'a label is one line';
  const bytes = Buffer.byteLength(String(value));
  return bytes > MAX_LABEL_BYTES ? `a label is at most ${MAX_LABEL_BYTES} bytes, not ${bytes}` : undefined;
}
