// @ts-check
/**
 * Recording: plain, with a name, with a name and the date and time, appended (the
 * Duplicator), and spilled onto another slot.
 */
import { Commands } from 'hyperdeck-connection';

/** @param {number} n */
const two = (n) => String(n).padStart(2, '0');

/**
 * The date and time a timestamped recording is named with, as the deck's own panel would
 * read it: `20261129_0435`, in the hub's local time.
 * @param {Date} at
 */
export const stamp = (at) =>
  `${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())}_${two(at.getHours())}${two(at.getMinutes())}`;

/** @param {import('patchbay-hub/connection').Value} value */
const oneLine = (value) => (/[\r\n:]/.test(String(value)) ? 'a name is one line, without a colon' : undefined);

/**
 * @param {import('./commands.js').DeckCommands} commands
 * @param {() => number} now the hub's clock, for timestamped names
 */
export function recording(commands, now) {
  commands.trigger('record', 'Record', () => new Commands.RecordCommand());
  commands.trigger('record/append', 'Record, appended to the last clip', () => new Commands.RecordCommand(undefined, true));
  commands.order(
    'record/name',
    { type: 'S', meta: { label: 'Record with a name', description: "the clip's name, without its extension (a reel: `A001-`)" } },
    (value) => [new Commands.RecordCommand(String(value))],
    (value) => (String(value) === '' ? 'give a name' : oneLine(value)),
  );
  commands.order(
    'record/timestamped',
    {
      type: 'S',
      meta: {
        label: 'Record with the date and time',
        description: 'named <this>-YYYYMMDD_HHMM- (the hub’s local time); empty: YYYYMMDD_HHMM-',
      },
    },
    (value) => [new Commands.RecordCommand(`${String(value) === '' ? '' : `${value}-`}${stamp(new Date(now()))}-`)],
    oneLine,
  );
  return commands.order(
    'record/spill',
    { type: 'I', meta: { label: 'Spill the recording', description: 'onto slot n; 0: the next slot', minimum: 0, maximum: 16 } },
    (value) => [new Commands.RecordSpillCommand(Number(value) === 0 ? undefined : Number(value))],
  );
}
