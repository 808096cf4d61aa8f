// @ts-check
/**
 * The hub's `CommandedParameters` with the one kind OBS needs beside them: a write-only
 * parameter whose write carries a value — a step (`volumeAdjust` by 3 dB), a command with
 * arguments (a fade, a screenshot) — sent as a request through the link as a commanded
 * parameter's write is.
 */
import { CommandedParameters } from 'patchbay-hub/connection';

/** @typedef {import('patchbay-hub/connection').Value} Value */

export class ObsParameters extends CommandedParameters {
  #link;

  /**
   * @param {import('patchbay-hub/connection').ConnectionContext} context
   * @param {import('patchbay-hub/connection').DeviceLink} link
   */
  constructor(context, link) {
    super(context, link);
    this.#link = link;
  }

  /**
   * A write-only parameter: each write a request, answered with OBS's outcome.
   * @param {string} id @param {import('patchbay-hub/connection').CommandedSpec} spec @param {(value: Value) => Promise<unknown>} command
   */
  writeOnly(id, spec, command) {
    return this.parameter(id, {
      ...spec,
      access: 'write-only',
      ownedHere: true,
      forward: (value, _origin, answered) => this.#link.command(() => command(value), answered),
    });
  }
}
