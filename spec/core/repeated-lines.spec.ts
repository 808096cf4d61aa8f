import test from 'ava';
import { RepeatedLines } from '../../lib/core/repeated-lines.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

test('a line said again within the minute is counted, not said, and the count is told when the minute is over (R-CM10)', (t) => {
  const clock = new VirtualClock();
  const lines = new RepeatedLines(clock.scheduler);
  const told: string[] = [];
  const say = (line: string) => lines.first(line, (count) => told.push(`${line} ×${count}`));
  t.true(say('connection refused'), 'the first is said');
  clock.advanceBy(2000);
  t.false(say('connection refused'));
  t.true(say('another line'), 'another text is said at once');
  for (let i = 0; i < 28; i++) {
    clock.advanceBy(2000);
    say('connection refused');
  }
  t.deepEqual(told, []);
  clock.advanceBy(2000);
  t.deepEqual(told, ['connection refused ×29'], 'the minute over: how many more');
  t.true(say('connection refused'), 'said again in a new minute');
  clock.advanceBy(60_000);
  t.deepEqual(told, ['connection refused ×29'], 'a line said once is not told again');
});

test('stopping tells what was repeated, and follows nothing more; past 500 lines followed, a line is said as it comes', (t) => {
  const clock = new VirtualClock();
  const lines = new RepeatedLines(clock.scheduler);
  lines.first('away', () => t.fail('told after the stop'));
  lines.first('away', () => {});
  const told: string[] = [];
  lines.stop((line, count) => told.push(`${line} ×${count}`));
  t.deepEqual(told, ['away ×1']);
  clock.advanceBy(120_000);
  for (let i = 0; i < 500; i++) lines.first(`line ${i}`, () => {});
  t.true(lines.first('line 0', () => {}) === false);
  t.true(
    lines.first('one more', () => {}),
    'beyond the bound: said',
  );
  t.true(
    lines.first('one more', () => {}),
    'and not followed',
  );
});
