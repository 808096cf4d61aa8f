/**
 * When a schedule entry fires: a cron expression with seconds, or one date-time, in a time
 * zone. Croner reads the expression and says which wall times it matches; which instant a
 * wall time stands for around a daylight-saving change is `Zone`'s rule, not croner's.
 * Croner, asked in the zone itself, fires an expression with a wildcard, a list or a step
 * in its time fields at both passes of a repeated hour and not at all in a skipped one
 * (Vixie cron's rule); R-Z1 asks for once in both cases. So croner works in a zone without
 * changes (a fixed offset of 0, where wall time reads as UTC) and never runs a timer.
 */
import { Cron } from 'croner';
import { reasonOf } from '../../sdk/index.ts';
import type { Zone } from './zone.ts';

/** The times of one entry. */
export interface FireTimes {
  /** The first fire strictly after `instant`, or undefined when there is none. */
  after(instant: number): number | undefined;
}

/** A cron expression with seconds, read once: the wall times it matches. */
export type CronCalendar = Cron;

/** Reads a cron expression of six fields (second minute hour day-of-month month day-of-week); the reason when it is not one. */
export function cronCalendar(expression: string): { ok: true; calendar: CronCalendar } | { ok: false; reason: string } {
  let calendar: Cron;
  try {
    calendar = new Cron(expression, { mode: '6-part', utcOffset: 0, paused: true });
  } catch (error) {
    return { ok: false, reason: reasonOf(error).replace(/^CronPattern: /, '') };
  }
  // Every date recurs within 28 years of 2000, 29 February included: an expression with nothing by then never matches.
  if (calendar.nextRun(new Date(Date.UTC(2000, 0, 1))) === null) return { ok: false, reason: 'it matches no date (such as 30 February)' };
  return { ok: true, calendar };
}

/** The fires of a cron calendar in `zone`: each matching local time once. */
export function cronTimes(calendar: CronCalendar, zone: Zone): FireTimes {
  return {
    after(instant) {
      let searchFrom = zone.wallOf(instant);
      for (;;) {
        const wall = calendar.nextRun(new Date(searchFrom))?.getTime();
        if (wall === undefined) return undefined;
        const fire = zone.instantOf(wall);
        if (fire > instant) return fire;
        // A wall time an autumn change repeats, and `instant` is in its second pass: it
        // fired at its first. So did every other repeated time: go on from the end of the
        // repeated hour (the change, read in the offset before it).
        const change = zone.changeBetween(fire, instant);
        searchFrom = Math.max(wall, change + zone.offsetAt(fire) - 1);
      }
    },
  };
}

/** A single fire at `at` (an instant). */
export function onceAt(at: number): FireTimes {
  return { after: (instant) => (at > instant ? at : undefined) };
}

/**
 * ISO 8601 / RFC 3339 date-times as people and programs write them: seconds optional, a
 * fraction of them (`.123`, `,5`: what `new Date().toISOString()` gives), and an offset
 * `Z`, `+01:00`, `+0100` or `+01`. `T` and `Z` in either case. A space for the `T` stays
 * refused: it is the mark of a hand-typed local time that was meant otherwise as often as not.
 */
const isoDateTime = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * The instant of an ISO date-time, to the millisecond (finer fractions are cut): with an
 * offset (`Z`, `+01:00`) it names the instant itself; without one it is a local time in
 * `zone`, taken by `Zone`'s rule. Undefined when the text is not such a date-time or names
 * no real date.
 */
export function instantOfIso(text: string, zone: Zone): number | undefined {
  const match = isoDateTime.exec(text);
  if (!match) return undefined;
  const [, year, month, date, hour, minute, seconds = '0', fraction = '', offset] = match;
  const fields = [year, month, date, hour, minute, seconds].map(Number) as [number, number, number, number, number, number];
  const [y, mo, d, h, mi, s] = fields;
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const read = new Date(wall);
  // Date.UTC rolls 31 April over to 1 May: a date that changed is one that does not exist.
  if (read.getUTCFullYear() !== y || read.getUTCMonth() !== mo - 1 || read.getUTCDate() !== d || h > 23 || mi > 59 || s > 59)
    return undefined;
  if (offset === undefined) return zone.instantOf(wall);
  if (offset === 'Z' || offset === 'z') return wall;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const offsetHours = Number(digits.slice(0, 2));
  const offsetMinutes = Number(digits.slice(2) || '0');
  if (offsetHours > 14 || offsetMinutes > 59) return undefined;
  return wall - sign * (offsetHours * 3_600_000 + offsetMinutes * 60_000);
}
