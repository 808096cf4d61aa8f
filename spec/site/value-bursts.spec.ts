/**
 * When a hub sends bursts (lib/site/share/value-bursts.ts), over time: the broker's answers
 * to its empty burst at connect, and to the same asked again a minute after each refusal.
 * A real Mosquitto refusing them is `connections/mqtt-acl.spec.ts`; what takes a minute of
 * real time is here, on a virtual clock.
 */
import test from 'ava';
import type { BrokerLink } from '../../lib/broker/broker-link.ts';
import { TopicLayout } from '../../lib/broker/topics.ts';
import type { SiteChecks } from '../../lib/site/peers/checks.ts';
import type { SiteSettings } from '../../lib/site/settings.ts';
import { ValueBursts } from '../../lib/site/share/value-bursts.ts';
import type { Logger, Parameter } from '../../lib/sdk/index.ts';
import { VirtualClock } from '../helpers/virtual-time.ts';

/** A link whose broker answers each burst with the next of `answers` (135: not authorized). */
function brokerAnswering(answers: (number | undefined)[]) {
  const asked: string[] = [];
  const link = {
    up: true,
    gathering: () => {},
    writeNow: () => {},
    publish: (topic: string, payload: string, _options: unknown, _whileDown: unknown, sent?: (error?: Error) => void) => {
      asked.push(`${topic} ${payload}`);
      const code = answers.shift();
      sent?.(code === undefined ? undefined : Object.assign(new Error('Publish error: Not authorized'), { code }));
    },
  };
  return { link: link as unknown as BrokerLink, asked };
}

function bursts(answers: (number | undefined)[]) {
  const clock = new VirtualClock();
  const { link, asked } = brokerAnswering(answers);
  const said: string[] = [];
  const log = { warn: (line: string) => said.push(`warn ${line}`), info: (line: string) => said.push(`info ${line}`) } as unknown as Logger;
  const settings = {
    layout: new TopicLayout('p'),
    hub: { id: 'a' },
    qos: 1,
    limits: { payloadBytes: 65_536 },
  } as unknown as SiteSettings;
  const gathered = new ValueBursts(settings, link, { session: 's1' } as SiteChecks, clock.scheduler, log);
  return { gathered, clock, asked, said };
}

const level = { address: 'desk/level' } as Parameter;
/** Two changes in a row: the first goes on its value topic; the second goes in a burst when bursts are sent. */
const secondGathered = (gathered: ValueBursts) => {
  gathered.take(level, '1', '');
  return gathered.take(level, '2', '');
};

test('a hub refused asks again every minute, however often refused, and gathers once the broker takes a burst', (t) => {
  const { gathered, clock, asked, said } = bursts([135, 135, 135, undefined]);
  gathered.up();
  t.deepEqual(asked, ['p/$values/a {"session":"s1","values":[]}'], 'an empty burst, in this session, asked first');
  t.false(secondGathered(gathered), 'refused: every change on its value topic');
  clock.advanceBy(60_000);
  clock.advanceBy(60_000);
  t.is(asked.length, 3, 'asked again a minute after each refusal');
  t.false(secondGathered(gathered));
  clock.advanceBy(60_000);
  t.is(asked.length, 4);
  t.true(secondGathered(gathered), 'taken: changes go in bursts');
  t.deepEqual(
    said.map((line) => line.split(' (')[0]),
    ["warn the broker refuses this hub's bursts on p/$values/a", "info the broker takes this hub's bursts on p/$values/a again"],
    'the refusal said once, and the change',
  );
});

test('nothing is gathered before the broker answered, and a hub whose bursts are taken asks nothing more', (t) => {
  const { gathered, clock, asked } = bursts([undefined]);
  t.false(secondGathered(gathered), 'not asked yet');
  gathered.up();
  t.true(secondGathered(gathered));
  clock.advanceBy(180_000);
  t.is(asked.length, 1);
});
