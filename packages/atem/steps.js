// @ts-check
/**
 * A step: a write of a number that moves a setting by that much from where the switcher has it
 * (`+3` dB louder, `-1` frame less delay), as a panel's knob does — write-only, for nothing is
 * kept but the setting, which has its own parameter. The step is worked out when the command
 * goes, from the switcher's state then.
 */

/**
 * @typedef {(id: string, meta: import('patchbay-hub/connection').ParameterMeta & { readonly label: string }, command: (by: number) => Promise<unknown>) => void} Step
 */

/**
 * Steps made on `parameters`, each write a command through `send` (the link: fenced, timed, answered).
 * @param {import('patchbay-hub/connection').CommandedParameters} parameters
 * @param {(command: () => Promise<unknown>, answered: import('patchbay-hub/connection').Answered | undefined) => import('patchbay-hub/connection').SetResult} send
 * @returns {Step}
 */
export const steps = (parameters, send) => (id, meta, command) => {
  parameters.parameter(id, {
    type: 'F',
    access: 'write-only',
    meta,
    ownedHere: true,
    forward: (value, _origin, answered) => send(() => command(Number(value)), answered),
  });
};
