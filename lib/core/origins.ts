/**
 * Who made a write, as its origin says it (R-O2: `rule rules[0]`, `flow panel`, `http …`):
 * what the hub's parts read of it.
 */

/**
 * The end of the origin of a write that must reach a device although it says what the hub
 * shows already: a rule that holds state writing again once its device is back (R-RS3),
 * which knows nothing of what it was told before it was switched off.
 */
export const HOLDING = ' (holding its state)';

/**
 * True for a write of a rule or a code flow that is not holding state: one of an unchanged
 * value is taken without a command (a two-way sync would echo every move to the device).
 */
export const automated = (origin: string | undefined): boolean =>
  origin !== undefined && (origin.startsWith('rule ') || origin.startsWith('flow ')) && !origin.endsWith(HOLDING);
