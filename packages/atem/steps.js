// @ts-check
/**
 * Writes that are commands with a value and keep nothing: a step (a write of a number that
 * moves a setting by that much from where the switcher has it — `+3` dB louder, `-1` frame
 * less delay — as a panel's knob does), or a value the switcher takes and never says back (the
 * time it should count from). The setting has its own parameter where the switcher says it.
 */

/** @typedef {import('patchbay-hub/connection').ParameterMeta & { readonly label: string }} Meta */
/** @typedef {(id: string, meta: Meta, command: (by: number) => Promise<unknown>) => void} Step */
/** @typedef {(id: string, type: 'S' | 'F' | 'I', meta: Meta, command: (value: import('patchbay-hub/connection').Value) => Promise<unknown>) => void} WriteOnly */

/**
 * Write-only parameters made on `parameters`, each write a command through `send` (the link:
 * fenced, timed, answered when the switcher took it).
 * @param {import('patchbay-hub/connection').CommandedParameters} parameters
 * @param {(command: () => Promise<unknown>, answered?: import('patchbay-hub/connection').Answered) => import('patchbay-hub/connection').SetResult} send
 * @returns {WriteOnly}
 */
export const writeOnly = (parameters, send) => (id, type, meta, command) => {
  parameters.parameter(id, {
    type,
    access: 'write-only',
    meta,
    ownedHere: true,
    forward: (value, _origin, answered) => send(() => command(value), answered),
  });
};

/** Steps: write-only numbers. @param {WriteOnly} write @returns {Step} */
export const steps = (write) => (id, meta, command) => write(id, 'F', meta, (value) => command(Number(value)));
