import { Writable } from 'node:stream';
import test from 'ava';
import { createLogger } from '../../lib/core/log.ts';
import { OutputLines } from '../../lib/sdk/process/output-lines.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

// What a program the hub runs writes reaches the hub's log within a budget (R-PK4, R-CM2, R-CM10), in virtual time.

function logged() {
  const lines: { level: number; msg: string }[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { log: createLogger({ level: 'debug', format: 'json', destination }), lines };
}

/** Lets the logger's stream write what it was given. */
const written = () => new Promise((resolve) => setImmediate(resolve));

test('past its lines a second the rest are counted, and the count is said once the second is over, without another line', async (t) => {
  const clock = new VirtualClock();
  const { log, lines } = logged();
  const output = new OutputLines({ log, scheduler: clock.scheduler, perSecond: 5, prefix: 'process: ', whose: 'its process' });
  for (let n = 0; n < 12; n++) output.say('info', `line ${n}`);
  await written();
  t.deepEqual(
    lines.map(({ msg }) => msg),
    ['line 0', 'line 1', 'line 2', 'line 3', 'line 4'].map((line) => `process: ${line}`),
  );
  clock.advanceBy(1000);
  await written();
  t.like(lines.at(-1), { level: 40, msg: '7 lines of its process were left out of the log: more than 5 a second' });
  output.say('warn', 'the next second');
  await written();
  t.like(lines.at(-1), { level: 40, msg: 'process: the next second' });
});

test('a line it logged as JSON is said at its level; one repeated within a minute is said once, then with its count', async (t) => {
  const clock = new VirtualClock();
  const { log, lines } = logged();
  const output = new OutputLines({
    log,
    scheduler: clock.scheduler,
    perSecond: 50,
    prefix: 'module: ',
    whose: 'the module',
    foldRepeats: true,
  });
  output.json(JSON.stringify({ level: 50, msg: 'the device refused' }));
  output.json('not JSON at all');
  for (let n = 0; n < 4; n++) output.say('warn', 'connection refused');
  await written();
  t.deepEqual(
    lines.map(({ level, msg }) => [level, msg]),
    [
      [50, 'the device refused'],
      [30, 'not JSON at all'],
      [40, 'module: connection refused'],
    ],
  );
  clock.advanceBy(60_000);
  await written();
  t.like(lines.at(-1), { level: 40, msg: 'module: connection refused (said 3 more times within the minute)' });
});
