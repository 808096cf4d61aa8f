/**
 * `schedule`: triggers at times of the calendar, and the local clock for rule conditions
 * (R-Z1). Each entry is a cron expression with seconds or one ISO date-time, in its time
 * zone; each local time it names fires once, also where a daylight-saving change skips or
 * repeats it (see `zone.ts`). The waiting is the hub's scheduler work, so specs run a year
 * of it in virtual time; croner only reads the expressions.
 *
 * With a state folder, each entry keeps how far its times are handled (fired, dropped, or
 * passed while disabled): a fire missed while the hub was down is dropped, or fired once
 * when the hub runs again with `catchUp`, and no time fires twice across restarts.
 *
 * Parameters, for each entry <id>:
 *   <id>/fire      T   read-only    fires at each of the entry's times
 *   <id>/next      S   read-only    the next fire as an ISO date-time with its offset; "" when there is none
 *   <id>/enabled   B   read-write   false stops the fires; kept across restarts (starts true)
 * and for the connection, in its `timezone`, changing at each minute:
 *   clock/time     S   read-only    "HH:MM"
 *   clock/date     S   read-only    "YYYY-MM-DD"
 *   clock/weekday  I   read-only    1 Monday … 7 Sunday
 */
import { Type } from '@sinclair/typebox';
import type { Subscription } from 'rxjs';
import { after, checked, defineConnectionType, type Issue, type OwnedParameter, withDefault } from '../../sdk/index.ts';
import { type Entry, EntryRun } from './entry-run.ts';
import { cronCalendar, cronTimes, type FireTimes, instantOfIso, onceAt } from './fire-times.ts';
import { Zone } from './zone.ts';

const timezone = Type.String({
  minLength: 1,
  expected: 'an IANA time zone such as Europe/Berlin',
  description: 'An IANA time zone such as "Europe/Berlin", "America/New_York" or "UTC".',
});

const settings = Type.Object({
  timezone: Type.Optional(
    Type.String({
      ...timezone,
      description:
        'The time zone of the clock parameters and of entries without one: an IANA name such as "Europe/Berlin". Default: the machine\'s.',
    }),
  ),
  catchUp: withDefault(
    Type.Boolean({
      description:
        'Entries without catchUp of their own: a time missed while the hub was down fires once when it runs again (true), or is dropped.',
    }),
    false,
  ),
  entries: withDefault(
    Type.Array(
      Type.Object(
        {
          id: Type.String({
            pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$',
            description: 'Names the entry: its parameters are <id>/fire, <id>/next and <id>/enabled. Not "clock".',
          }),
          cron: Type.Optional(
            Type.String({
              description:
                'Six fields, seconds first: second minute hour day-of-month month day-of-week ("0 0 6 * * MON-FRI" is 06:00:00 on weekdays). Give cron or at.',
            }),
          ),
          at: Type.Optional(
            Type.String({
              description:
                'One fire at this ISO 8601 date-time: "2026-12-24T18:00:00" is local time in the timezone; with an offset ("Z", "+01:00") it is that instant, as `new Date().toISOString()` writes it (a fraction of a second is kept to the millisecond). Give cron or at.',
            }),
          ),
          timezone: Type.Optional(Type.String({ ...timezone, description: "The entry's time zone; default: the connection's." })),
          catchUp: Type.Optional(
            Type.Boolean({
              description: "A time missed while the hub was down fires once when it runs again; default: the connection's catchUp.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: 256, description: 'Up to 256 entries, each firing <id>/fire at its times.' },
    ),
    [],
  ),
});

interface Parsed {
  readonly zone: Zone;
  readonly entries: readonly Entry[];
}

const clockIds = { time: 'clock/time', date: 'clock/date', weekday: 'clock/weekday' } as const;
const minute = 60_000;
const utc = Zone.named('UTC') as Zone;

const unknownZone = (name: string) => `expected an IANA time zone such as Europe/Berlin; this machine knows no zone "${name}"`;

export const scheduleType = defineConnectionType({
  type: 'schedule',
  summary: 'Triggers at calendar times from cron expressions or date-times in a time zone, and the local clock for rules.',
  settings,
  parse(written) {
    const issues: Issue[] = [];
    const zone = written.timezone === undefined ? Zone.ofMachine() : Zone.named(written.timezone);
    if (!zone) issues.push({ path: ['timezone'], message: unknownZone(written.timezone ?? '') });
    const seen = new Set<string>();
    const entries: Entry[] = [];
    written.entries.forEach((entry, index) => {
      const path = ['entries', index];
      if (entry.id === 'clock')
        issues.push({ path: [...path, 'id'], message: 'expected an id other than "clock": clock/… are the clock parameters' });
      else if (seen.has(entry.id))
        issues.push({ path: [...path, 'id'], message: `expected an id of its own; "${entry.id}" names an earlier entry` });
      seen.add(entry.id);
      const entryZone = entry.timezone === undefined ? zone : Zone.named(entry.timezone);
      if (!entryZone && entry.timezone !== undefined) issues.push({ path: [...path, 'timezone'], message: unknownZone(entry.timezone) });
      if ((entry.cron === undefined) === (entry.at === undefined)) {
        return void issues.push({ path, message: 'expected exactly one of cron and at' });
      }
      let times: FireTimes | undefined;
      if (entry.cron !== undefined) {
        const read = cronCalendar(entry.cron);
        if (!read.ok) {
          issues.push({
            path: [...path, 'cron'],
            message: `expected a cron expression of six fields, seconds first ("0 0 6 * * MON-FRI"): ${read.reason}`,
          });
        } else if (entryZone) times = cronTimes(read.calendar, entryZone);
      } else if (entry.at !== undefined) {
        // An unknown zone is reported above; the date-time is still checked, in UTC.
        const at = instantOfIso(entry.at, entryZone ?? utc);
        if (at === undefined) {
          issues.push({
            path: [...path, 'at'],
            message:
              'expected an ISO 8601 date-time such as "2026-12-24T18:00:00" (seconds and a fraction optional),' +
              ' with an offset ("Z", "+01:00") for an instant, or without one for local time in the timezone',
          });
        } else times = onceAt(at);
      }
      if (times && entryZone) entries.push({ id: entry.id, zone: entryZone, times, catchUp: entry.catchUp ?? written.catchUp });
    });
    return checked<Parsed>(issues, { zone: zone as Zone, entries });
  },
  // An `at` that has passed is valid (a show that ran) but never fires again: likely a typo
  // of the year, or a time a slow start let pass. Entries stand in the order written.
  warn({ entries }): Issue[] {
    // The real clock: a check of the file as it is read (patchbay validate too), with no hub running.
    const now = Date.now();
    return entries.flatMap((entry, index) =>
      !entry.catchUp && entry.times.after(now) === undefined
        ? [{ path: ['entries', index, 'at'], message: `this time has passed (it is ${entry.zone.iso(now)} now): the entry will not fire` }]
        : [],
    );
  },
  declared({ entries }) {
    const ids = new Set(entries.map((entry) => entry.id));
    return (id) => {
      if (id === clockIds.weekday) return { type: 'I', persist: false };
      if (id === clockIds.time || id === clockIds.date) return { type: 'S', persist: false };
      const slash = id.lastIndexOf('/');
      if (!ids.has(id.slice(0, slash))) return undefined;
      switch (id.slice(slash + 1)) {
        case 'enabled':
          return { type: 'B', persist: true };
        case 'next':
          return { type: 'S', persist: false };
        case 'fire':
          return { type: 'T', persist: false };
        default:
          return undefined;
      }
    };
  },
  create(context, { zone, entries }) {
    const { scheduler } = context;
    const runs: EntryRun[] = [];
    let clockWait: Subscription | undefined;
    let stopped = false;

    /** Shows the local clock of `instant`, and waits for the next whole minute. */
    const showClock = (clock: { time: OwnedParameter; date: OwnedParameter; weekday: OwnedParameter }, instant: number) => {
      const local = new Date(zone.wallOf(instant)); // its UTC fields are the local ones
      clock.time.report(local.toISOString().slice(11, 16));
      clock.date.report(local.toISOString().slice(0, 10));
      clock.weekday.report(local.getUTCDay() || 7); // Sunday is 0 in JavaScript, 7 in ISO 8601
      // Offsets of today's zones are whole minutes: a minute of UTC is a minute of local time.
      const boundary = (Math.floor(scheduler.now() / minute) + 1) * minute;
      clockWait = after(scheduler, boundary - scheduler.now(), () => showClock(clock, Math.max(scheduler.now(), boundary)));
    };

    return {
      start() {
        const clock = {
          time: context.define(clockIds.time, { type: 'S', access: 'read-only' }),
          date: context.define(clockIds.date, { type: 'S', access: 'read-only' }),
          weekday: context.define(clockIds.weekday, { type: 'I', access: 'read-only' }),
        };
        for (const entry of entries) runs.push(new EntryRun(context, entry));
        for (const run of runs) run.start();
        // Shown once rules listen, so that rules built on the clock hear its first reading too.
        context.whenRunning(() => stopped || showClock(clock, scheduler.now()));
      },
      details: () => ({ timezone: zone.name, entries: entries.length }),
      stop() {
        stopped = true;
        clockWait?.unsubscribe();
        for (const run of runs) run.stop();
        runs.length = 0;
      },
    };
  },
});
