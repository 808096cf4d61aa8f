// @ts-check
/**
 * The parameters of an ATEM connection, each defined once, the first time it is asked for,
 * and kept across reconnects; a write of one is a command of the library, answered when the
 * switcher took it.
 */

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {import('patchbay-hub/connection').ParameterSpec} ParameterSpec */
/** @typedef {import('patchbay-hub/connection').Answered} Answered */
/** @typedef {(command: () => Promise<unknown>, answered: Answered | undefined) => import('patchbay-hub/connection').SetResult} Send */

/** The parameters whose values are inputs, offered by name. */
const SOURCES = /^(me\/\d+\/(program|preview)|aux\/\d+\/source)$/;

export class AtemParameters {
  #define;
  #send;
  /** Every parameter defined, by id. @type {Map<string, OwnedParameter>} */
  #defined = new Map();

  /**
   * @param {(id: string, spec: ParameterSpec) => OwnedParameter} define
   * @param {Send} send runs a command through the link, answered when the switcher took it
   */
  constructor(define, send) {
    this.#define = define;
    this.#send = send;
  }

  /**
   * The parameter of this id, defined the first time it is asked for.
   * @param {string} id
   * @param {ParameterSpec} spec
   */
  parameter(id, spec) {
    let found = this.#defined.get(id);
    if (!found) this.#defined.set(id, (found = this.#define(id, spec)));
    return found;
  }

  /**
   * A setting of the switcher that a write commands and the switcher reports back: the
   * write is answered when the switcher took the command.
   * @param {string} id
   * @param {Omit<ParameterSpec, 'access' | 'forward'>} spec
   * @param {(value: import('patchbay-hub/connection').Value) => Promise<unknown>} command
   */
  commanded(id, spec, command) {
    return this.parameter(id, {
      ...spec,
      access: 'read-write',
      ownedHere: true,
      forward: (value, _o, answered) => this.#send(() => command(value), answered),
    });
  }

  /** @param {string} id @param {string} label @param {() => Promise<unknown>} command */
  trigger(id, label, command) {
    return this.parameter(id, {
      type: 'T',
      access: 'write-only',
      meta: { label },
      ownedHere: true,
      forward: (_v, _o, answered) => this.#send(command, answered),
    });
  }

  /** @param {string} id @param {Omit<ParameterSpec, 'access'>} spec */
  readOnly(id, spec) {
    return this.parameter(id, { ...spec, access: 'read-only' });
  }

  /**
   * The switcher's inputs as the choices of every source parameter.
   * @param {{ value: number, label: string }[]} choices
   */
  offerInputs(choices) {
    for (const [id, owned] of this.#defined) {
      if (SOURCES.test(id)) owned.describe({ ...owned.meta, choices });
    }
  }
}
