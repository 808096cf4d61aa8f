// @ts-check
/**
 * The parameters of an OBS connection, each defined once, the first time it is asked for, and
 * kept across reconnects; a write of one is a request to OBS through the link, answered with
 * OBS's outcome.
 */

/** @typedef {import('patchbay-hub/connection').OwnedParameter} OwnedParameter */
/** @typedef {import('patchbay-hub/connection').ParameterSpec} ParameterSpec */
/** @typedef {import('patchbay-hub/connection').Value} Value */

export class ObsParameters {
  #define;
  #link;
  /** Every parameter defined, by id. @type {Map<string, OwnedParameter>} */
  #defined = new Map();

  /**
   * @param {(id: string, spec: ParameterSpec) => OwnedParameter} define
   * @param {Pick<import('patchbay-hub/connection').DeviceLink, 'command'>} link what lets a write through (up, fenced, timed)
   */
  constructor(define, link) {
    this.#define = define;
    this.#link = link;
  }

  /** @param {string} id */
  has(id) {
    return this.#defined.has(id);
  }

  /** @param {string} id @param {ParameterSpec} spec */
  parameter(id, spec) {
    let found = this.#defined.get(id);
    if (!found) this.#defined.set(id, (found = this.#define(id, spec)));
    return found;
  }

  /**
   * A parameter a write commands of OBS, answered with its outcome.
   * @param {string} id @param {Omit<ParameterSpec, 'access' | 'forward'>} spec @param {(value: Value) => Promise<unknown>} command
   */
  commanded(id, spec, command) {
    return this.parameter(id, {
      ...spec,
      access: 'read-write',
      ownedHere: true,
      forward: (value, _o, answered) => this.#link.command(() => command(value), answered),
    });
  }

  /**
   * A trigger whose write is a request to OBS.
   * @param {string} id @param {string} label @param {() => Promise<unknown>} command
   */
  trigger(id, label, command) {
    return this.parameter(id, {
      type: 'T',
      access: 'write-only',
      meta: { label },
      ownedHere: true,
      forward: (_v, _o, answered) => this.#link.command(command, answered),
    });
  }

  /** @param {string} id @param {Omit<ParameterSpec, 'access'>} spec */
  readOnly(id, spec) {
    return this.parameter(id, { ...spec, access: 'read-only' });
  }
}
