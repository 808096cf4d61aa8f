import test from 'ava';
import { cronCalendar, cronTimes, type FireTimes, instantOfIso } from '../../../lib/connections/schedule/fire-times.ts';
import { Zone } from '../../../lib/connections/schedule/zone.ts';

const zone = (name: string) => {
  const found = Zone.named(name);
  if (!found) throw new Error(`no zone ${name}`);
  return found;
};
const berlin = zone('Europe/Berlin');
const newYork = zone('America/New_York');

function cron(expression: string, in_: Zone): FireTimes {
  const read = cronCalendar(expression);
  if (!read.ok) throw new Error(read.reason);
  return cronTimes(read.calendar, in_);
}

/** Every fire from `from` (exclusive) up to `to` (inclusive), as UTC ISO text. */
function firesBetween(times: FireTimes, from: string, to: string): string[] {
  const fires: string[] = [];
  const end = Date.parse(to);
  for (let at = times.after(Date.parse(from)); at !== undefined && at <= end; at = times.after(at)) {
    fires.push(new Date(at).toISOString().replace('.000', ''));
  }
  return fires;
}

test('Europe/Berlin, spring: 02:30, which the change skips, fires once at the change (03:00 CEST)', (t) => {
  t.deepEqual(firesBetween(cron('0 30 2 * * *', berlin), '2026-03-28T00:00:00Z', '2026-03-30T12:00:00Z'), [
    '2026-03-28T01:30:00Z',
    '2026-03-29T01:00:00Z',
    '2026-03-30T00:30:00Z',
  ]);
});

test('Europe/Berlin, autumn: 02:30, which the change repeats, fires once, at its first pass (CEST)', (t) => {
  t.deepEqual(firesBetween(cron('0 30 2 * * *', berlin), '2026-10-24T00:00:00Z', '2026-10-26T12:00:00Z'), [
    '2026-10-24T00:30:00Z',
    '2026-10-25T00:30:00Z',
    '2026-10-26T01:30:00Z',
  ]);
});

test('America/New_York, spring: 02:30, which the change skips, fires once at the change (03:00 EDT)', (t) => {
  t.deepEqual(firesBetween(cron('0 30 2 * * *', newYork), '2026-03-07T00:00:00Z', '2026-03-09T12:00:00Z'), [
    '2026-03-07T07:30:00Z',
    '2026-03-08T07:00:00Z',
    '2026-03-09T06:30:00Z',
  ]);
});

test('America/New_York, autumn: 01:30, which the change repeats, fires once, at its first pass (EDT)', (t) => {
  t.deepEqual(firesBetween(cron('0 30 1 * * *', newYork), '2026-10-31T00:00:00Z', '2026-11-02T12:00:00Z'), [
    '2026-10-31T05:30:00Z',
    '2026-11-01T05:30:00Z',
    '2026-11-02T06:30:00Z',
  ]);
});

test('every quarter hour through a skipped hour: the skipped times fire once, at the change, together with 03:00', (t) => {
  t.deepEqual(firesBetween(cron('0 */15 * * * *', berlin), '2026-03-29T00:30:00Z', '2026-03-29T01:30:00Z'), [
    '2026-03-29T00:45:00Z', // 01:45 CET
    '2026-03-29T01:00:00Z', // 02:00–02:45 skipped, and 03:00 CEST: one fire
    '2026-03-29T01:15:00Z',
    '2026-03-29T01:30:00Z',
  ]);
});

test('every quarter hour through a repeated hour: each local time fires once, the second pass is quiet', (t) => {
  // Croner alone, asked in the zone, fires this expression in both passes (Vixie cron's rule for
  // expressions with a wildcard): the reason the schedule reads wall times in UTC and maps them itself.
  t.deepEqual(firesBetween(cron('0 */15 * * * *', berlin), '2026-10-24T23:50:00Z', '2026-10-25T02:20:00Z'), [
    '2026-10-25T00:00:00Z', // 02:00 CEST
    '2026-10-25T00:15:00Z',
    '2026-10-25T00:30:00Z',
    '2026-10-25T00:45:00Z', // 02:45 CEST; 02:00–02:45 CET (01:00–01:45Z) do not fire again
    '2026-10-25T02:00:00Z', // 03:00 CET
    '2026-10-25T02:15:00Z',
  ]);
});

test('every second through a repeated hour fires 7,200 times in three hours, none in the second pass', (t) => {
  const fires = firesBetween(cron('* * * * * *', newYork), '2026-11-01T04:00:00Z', '2026-11-01T07:00:00Z');
  t.is(fires.length, 7200);
  t.false(
    fires.some((at) => at >= '2026-11-01T06:00:00Z' && at < '2026-11-01T07:00:00Z'),
    'the repeated 01:00–01:59 EST',
  );
});

test('asked from inside the second pass of a repeated hour, the next fire is the first local time after it', (t) => {
  const times = cron('0 */15 * * * *', berlin);
  t.is(new Date(times.after(Date.parse('2026-10-25T01:10:00Z')) ?? 0).toISOString(), '2026-10-25T02:00:00.000Z');
});

test('an expression that matches no date is refused with the reason', (t) => {
  const read = cronCalendar('0 0 0 30 2 *');
  t.false(read.ok);
  if (!read.ok) t.regex(read.reason, /no date/);
  const five = cronCalendar('0 6 * * 1-5');
  t.false(five.ok, 'five fields: seconds are required');
  t.true(cronCalendar('0 0 0 29 2 *').ok, 'February 29 comes every four years');
});

test('a local date-time resolves by the same rule; one with an offset is that instant', (t) => {
  const at = (text: string, in_: Zone) => {
    const instant = instantOfIso(text, in_);
    return instant === undefined ? undefined : new Date(instant).toISOString();
  };
  t.is(at('2026-03-29T02:30:00', berlin), '2026-03-29T01:00:00.000Z', 'skipped: the change');
  t.is(at('2026-10-25T02:30', berlin), '2026-10-25T00:30:00.000Z', 'repeated: the first pass');
  t.is(at('2026-07-01T12:00:00', newYork), '2026-07-01T16:00:00.000Z');
  t.is(at('2026-07-01T12:00:00+01:00', newYork), '2026-07-01T11:00:00.000Z');
  t.is(at('2026-07-01T12:00:00Z', berlin), '2026-07-01T12:00:00.000Z');
  for (const bad of [
    '2026-02-30T12:00:00',
    '2026-07-01 12:00',
    '2026-07-01T24:00:00',
    'tomorrow',
    '2026-07-01T12:00.5',
    '2026-07-01T12:00:00.',
    '2026-07-01T12:00:00+15:00',
    '2026-07-01T12:00:00+1:00',
    '2026-07-01T12:00:00+01:0',
  ]) {
    t.is(at(bad, berlin), undefined, bad);
  }
});

test('an ISO date-time as programs write it is taken to the millisecond: a fraction, a basic or short offset, lower case (R-Z1)', (t) => {
  const at = (text: string) => {
    const instant = instantOfIso(text, berlin);
    return instant === undefined ? undefined : new Date(instant).toISOString();
  };
  const written = new Date(Date.UTC(2026, 11, 24, 17, 0, 0, 250)).toISOString();
  t.is(at(written), '2026-12-24T17:00:00.250Z', 'what new Date().toISOString() writes');
  t.is(at('2026-12-24T18:00:00.5+01:00'), '2026-12-24T17:00:00.500Z');
  t.is(at('2026-12-24T18:00:00,123456+01:00'), '2026-12-24T17:00:00.123Z', 'a comma, and digits past the millisecond cut');
  t.is(at('2026-12-24T18:00:00+0100'), '2026-12-24T17:00:00.000Z');
  t.is(at('2026-12-24T18:00:00+01'), '2026-12-24T17:00:00.000Z');
  t.is(at('2026-12-24t17:00:00z'), '2026-12-24T17:00:00.000Z');
  t.is(at('2026-12-24T18:00:00.750'), '2026-12-24T17:00:00.750Z', 'local time with a fraction');
  t.is(berlin.iso(Date.parse('2026-12-24T17:00:00.750Z')), '2026-12-24T18:00:00.750+01:00', 'next shows the fraction it fires at');
});

test('instants read as local ISO date-times with their offset', (t) => {
  t.is(berlin.iso(Date.parse('2026-03-29T01:00:00Z')), '2026-03-29T03:00:00+02:00');
  t.is(berlin.iso(Date.parse('2026-03-29T00:59:59Z')), '2026-03-29T01:59:59+01:00');
  t.is(newYork.iso(Date.parse('2026-11-01T06:30:00Z')), '2026-11-01T01:30:00-05:00');
  t.is(zone('Asia/Kolkata').iso(Date.parse('2026-01-01T00:00:00Z')), '2026-01-01T05:30:00+05:30');
  t.is(zone('UTC').iso(0), '1970-01-01T00:00:00+00:00');
});
