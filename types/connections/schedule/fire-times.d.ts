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
import type { Zone } from './zone.ts';
/** The times of one entry. */
export interface FireTimes {
    /** The first fire strictly after `instant`, or undefined when there is none. */
    after(instant: number): number | undefined;
}
/** A cron expression with seconds, read once: the wall times it matches. */
export type CronCalendar = Cron;
/** Reads a cron expression of six fields (second minute hour day-of-month month day-of-week); the reason when it is not one. */
export declare function cronCalendar(expression: string): {
    ok: true;
    calendar: CronCalendar;
} | {
    ok: false;
    reason: string;
};
/** The fires of a cron calendar in `zone`: each matching local time once. */
export declare function cronTimes(calendar: CronCalendar, zone: Zone): FireTimes;
/** A single fire at `at` (an instant). */
export declare function onceAt(at: number): FireTimes;
/**
 * The instant of an ISO date-time, to the millisecond (finer fractions are cut): with an
 * offset (`Z`, `+01:00`) it names the instant itself; without one it is a local time in
 * `zone`, taken by `Zone`'s rule. Undefined when the text is not such a date-time or names
 * no real date.
 */
export declare function instantOfIso(text: string, zone: Zone): number | undefined;
