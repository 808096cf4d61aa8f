import test from 'ava';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import { formatIssue } from '../../../lib/core/issue.ts';
import { capturedLog, flowOf, param, startHub } from '../../helpers/hub.ts';
import { storeWith } from '../../helpers/state.ts';

const studio = {
  type: 'dummy',
  parameters: ['title,S,Morning', 'level,F,0.5', 'camera,I,1', 'onair,B,false', 'cue,T'],
};

async function showHub(t: Parameters<typeof startHub>[0], extra: object = {}, options: Parameters<typeof startHub>[2] = {}) {
  return startHub(
    t,
    {
      connections: {
        studio,
        other: { type: 'dummy', parameters: ['gain,F,0'] },
        show: { type: 'scenes', scenes: [{ id: 'news', members: ['studio/#'] }] },
        ...extra,
      },
    },
    options,
  );
}

test('each scene has store and recall triggers, a read-only dirty flag and a report', async (t) => {
  const hub = await showHub(t);
  t.deepEqual(
    hub.graph.byPrefix('show/').map((p) => [p.address, p.type, p.access]),
    [
      ['show/news/store', 'T', 'write-only'],
      ['show/news/recall', 'T', 'write-only'],
      ['show/news/dirty', 'B', 'read-only'],
      ['show/news/members', 'I', 'read-only'],
      ['show/news/report', 'S', 'read-only'],
    ],
  );
  t.is(param(hub, 'show/news/report').value, 'not stored yet');
  t.is(param(hub, 'show/news/members').value, 0);
});

test('a recall writes back the values kept at store, with the scene as who changed them', async (t) => {
  const hub = await showHub(t);
  param(hub, 'studio/title').set('Evening News');
  param(hub, 'studio/camera').set(3);
  t.true(param(hub, 'show/news/store').set(true).ok);
  t.regex(String(param(hub, 'show/news/report').value), /^4 members stored at \d{4}-/);
  t.is(param(hub, 'show/news/members').value, 4);
  param(hub, 'studio/title').set('Sport');
  param(hub, 'studio/camera').set(7);
  param(hub, 'studio/level').set(0.9);
  param(hub, 'other/gain').set(5);
  t.true(param(hub, 'show/news/recall').set(true).ok);
  t.is(param(hub, 'studio/title').value, 'Evening News');
  t.is(param(hub, 'studio/camera').value, 3);
  t.is(param(hub, 'studio/level').value, 0.5);
  t.is(param(hub, 'other/gain').value, 5, 'a parameter the members do not match is left alone');
  t.is(param(hub, 'studio/title').lastChange?.by, 'scene show/news');
  t.is(param(hub, 'show/news/report').value, '4 of 4 members recalled');
});

test('triggers, read-only parameters and the scene connection itself are not kept', async (t) => {
  const hub = await startHub(t, {
    connections: {
      studio,
      clock: { type: 'timer', timers: [{ duration: 5 }] },
      show: { type: 'scenes', scenes: [{ id: 'all', members: ['#'] }] },
    },
  });
  param(hub, 'show/all/store').set(true);
  t.regex(String(param(hub, 'show/all/report').value), /^4 members stored/, 'title, level, camera and onair of studio');
  param(hub, 'studio/title').set('Changed');
  param(hub, 'show/all/recall').set(true);
  t.is(param(hub, 'show/all/report').value, '4 of 4 members recalled');
  t.is(param(hub, 'studio/title').value, 'Morning');
});

test('dirty is true while a kept member differs from the scene, and false again once it is back', async (t) => {
  const hub = await showHub(t);
  const dirty = param(hub, 'show/news/dirty');
  t.false(dirty.value, 'nothing stored: nothing differs');
  param(hub, 'show/news/store').set(true);
  t.false(dirty.value);
  param(hub, 'studio/level').set(0.8);
  t.true(dirty.value);
  param(hub, 'studio/title').set('Other');
  param(hub, 'studio/level').set(0.5);
  t.true(dirty.value, 'the title still differs');
  param(hub, 'show/news/recall').set(true);
  t.false(dirty.value);
  param(hub, 'studio/camera').set(2);
  param(hub, 'show/news/store').set(true);
  t.false(dirty.value, 'a new store is the new reference');
});

test('a recall lands in one event-loop turn: rules fed by every member all run in that turn', async (t) => {
  const hub = await startHub(t, {
    connections: {
      studio,
      copies: { type: 'dummy', parameters: ['title,S', 'level,F', 'camera,I'] },
      show: { type: 'scenes', scenes: [{ id: 'news', members: ['studio/#'] }] },
    },
    rules: [
      { source: 'studio/title', destinations: ['copies/title'] },
      { source: 'studio/level', destinations: ['copies/level'] },
      { source: 'studio/camera', destinations: ['copies/camera'] },
    ],
  });
  param(hub, 'studio/title').set('News');
  param(hub, 'studio/level').set(0.25);
  param(hub, 'studio/camera').set(4);
  param(hub, 'show/news/store').set(true);
  param(hub, 'studio/title').set('Sport');
  param(hub, 'studio/level').set(1);
  param(hub, 'studio/camera').set(9);

  // Count turns: each setImmediate is the next turn of the event loop.
  let turn = 0;
  let counting = true;
  const tick = () => {
    turn++;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  await new Promise((resolve) => setImmediate(resolve));
  const seen: [string, number][] = [];
  for (const address of ['copies/title', 'copies/level', 'copies/camera'])
    param(hub, address).changes$.subscribe(() => seen.push([address, turn]));
  const recalledIn = turn;
  // The recall trigger fires after its members are written: what sees the whole scene at once.
  const atFire: unknown[] = [];
  param(hub, 'show/news/recall').changes$.subscribe(() => atFire.push(param(hub, 'copies/title').value, param(hub, 'copies/camera').value));
  param(hub, 'show/news/recall').set(true);
  t.deepEqual(atFire, ['News', 4]);
  counting = false;
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(seen, [
    ['copies/title', recalledIn],
    ['copies/level', recalledIn],
    ['copies/camera', recalledIn],
  ]);
  t.deepEqual(
    ['copies/title', 'copies/level', 'copies/camera'].map((a) => param(hub, a).value),
    ['News', 0.25, 4],
  );
});

test('members gone at recall are skipped and listed; the others are written', async (t) => {
  const hub = await showHub(t);
  param(hub, 'studio/camera').set(2);
  param(hub, 'show/news/store').set(true);
  param(hub, 'studio/camera').set(5);
  await hub.reload(
    flowOf({
      connections: {
        studio: { type: 'dummy', parameters: ['title,S,Morning', 'camera,I,1', 'onair,B,false', 'cue,T'] },
        other: { type: 'dummy', parameters: ['gain,F,0'] },
        show: { type: 'scenes', scenes: [{ id: 'news', members: ['studio/#'] }] },
      },
    }),
  );
  param(hub, 'show/news/recall').set(true);
  t.is(param(hub, 'studio/camera').value, 2);
  t.is(param(hub, 'show/news/report').value, '3 of 4 members recalled; gone: studio/level');
});

test('a kept member the members no longer match is gone from the scene: it never makes the scene dirty', async (t) => {
  // With a state folder the scene outlives the change of its members.
  const hub = await showHub(t, {}, { state: await storeWith(t) });
  param(hub, 'show/news/store').set(true);
  await hub.reload(
    flowOf({
      connections: {
        studio,
        other: { type: 'dummy', parameters: ['gain,F,0'] },
        show: { type: 'scenes', scenes: [{ id: 'news', members: ['studio/title', 'studio/level', 'studio/onair'] }] },
      },
    }),
  );
  param(hub, 'studio/camera').set(4);
  t.false(param(hub, 'show/news/dirty').value as boolean, 'the camera is no member now');
  param(hub, 'studio/level').set(0.9);
  t.true(param(hub, 'show/news/dirty').value as boolean, 'a member still is');
});

test('members that appear after a store are not part of the scene: a recall leaves them alone', async (t) => {
  const hub = await showHub(t);
  param(hub, 'show/news/store').set(true);
  await hub.reload(
    flowOf({
      connections: {
        studio: { type: 'dummy', parameters: [...studio.parameters, 'extra,I,1'] },
        other: { type: 'dummy', parameters: ['gain,F,0'] },
        show: { type: 'scenes', scenes: [{ id: 'news', members: ['studio/#'] }] },
      },
    }),
  );
  param(hub, 'studio/extra').set(9);
  t.false(param(hub, 'show/news/dirty').value, 'a member the scene does not hold never makes it dirty');
  param(hub, 'show/news/recall').set(true);
  t.is(param(hub, 'studio/extra').value, 9);
});

test('a refused member write is reported and the other members are still written', async (t) => {
  const { log, lines } = capturedLog('warn');
  const hub = await startHub(
    t,
    {
      connections: {
        studio,
        show: { type: 'scenes', scenes: [{ id: 'news', members: ['studio/#'] }] },
      },
    },
    { log },
  );
  param(hub, 'show/news/store').set(true);
  param(hub, 'studio/title').set('Changed');
  param(hub, 'studio/camera').set(8);
  // The title turns boolean: the kept "Morning" does not convert to it.
  await hub.reload(
    flowOf({
      connections: {
        studio: { type: 'dummy', parameters: ['title,B,false', 'level,F,0.5', 'camera,I,1', 'onair,B,false', 'cue,T'] },
        show: { type: 'scenes', scenes: [{ id: 'news', members: ['studio/#'] }] },
      },
    }),
  );
  param(hub, 'show/news/recall').set(true);
  t.is(param(hub, 'studio/camera').value, 1, 'written after the refused title');
  t.is(param(hub, 'show/news/report').value, '3 of 4 members recalled; refused: studio/title (PB_CONVERSION)');
  t.true(lines().some((line) => line.msg.includes('scene news') && line.msg.includes('studio/title')));
});

test('a store over maxMembers keeps nothing, says so, and degrades the connection until a store fits', async (t) => {
  const hub = await startHub(t, {
    connections: {
      many: { type: 'dummy', parameters: Array.from({ length: 30 }, (_, i) => `p${i},I,${i}`) },
      show: {
        type: 'scenes',
        maxMembers: 20,
        scenes: [
          { id: 'wide', members: ['#'] },
          { id: 'narrow', members: ['many/p1', 'many/p2'] },
        ],
      },
    },
  });
  const store = param(hub, 'show/wide/store').set(true);
  t.like(store, { ok: false, error: { code: 'PB_OVER_LIMIT' } }, 'the writer hears the store was refused');
  t.regex(String(param(hub, 'show/wide/report').value), /store refused: the members match 30 parameters, more than maxMembers \(20\)/);
  t.is(hub.connection('show')?.info.status, 'degraded');
  t.is(hub.connection('show')?.info.code, 'PB_OVER_LIMIT');
  const recall = param(hub, 'show/wide/recall').set(true);
  t.like(recall, { ok: false, error: { code: 'PB_SCENE_EMPTY' } }, 'the writer hears there was nothing to recall');
  t.is(param(hub, 'show/wide/report').value, 'recall: nothing stored yet; store the scene first');
  param(hub, 'show/narrow/store').set(true);
  t.is(hub.connection('show')?.info.status, 'degraded', 'another scene fitting does not clear it');
  await hub.reload(
    flowOf({
      connections: {
        many: { type: 'dummy', parameters: Array.from({ length: 10 }, (_, i) => `p${i},I,${i}`) },
        show: {
          type: 'scenes',
          maxMembers: 20,
          scenes: [
            { id: 'wide', members: ['#'] },
            { id: 'narrow', members: ['many/p1', 'many/p2'] },
          ],
        },
      },
    }),
  );
  param(hub, 'show/wide/store').set(true);
  t.is(param(hub, 'show/wide/report').value?.toString().split(' at ')[0], '10 members stored');
  t.is(hub.connection('show')?.info.status, 'ok');
});

test('a recall that its own writes set off again (a rule from a member to recall) settles: the values are there already', async (t) => {
  const hub = await startHub(t, {
    connections: {
      studio,
      show: { type: 'scenes', scenes: [{ id: 'news', members: ['studio/#'] }] },
    },
    rules: [{ source: 'studio/camera', destinations: ['show/news/recall'] }],
  });
  param(hub, 'studio/camera').set(2);
  param(hub, 'show/news/store').set(true);
  param(hub, 'studio/camera').set(3);
  t.is(param(hub, 'studio/camera').value, 2, 'the rule recalled the scene');
  t.is(param(hub, 'show/news/report').value, '4 of 4 members recalled');
});

test('the flow file refuses a member that is not an address pattern and a scene id used twice', (t) => {
  const result = validateFlow(
    {
      connections: {
        show: {
          type: 'scenes',
          scenes: [
            { id: 'a', members: ['studio/#/x'] },
            { id: 'a', members: ['studio/+'] },
          ],
        },
      },
    },
    '/virtual/flow.json5',
  );
  t.false(result.ok);
  const text = result.ok ? '' : result.issues.map(formatIssue).join('\n');
  t.regex(text, /connections\.show\.scenes\[0\]\.members.*not an address pattern/);
  t.regex(text, /connections\.show\.scenes\[1\]\.id.*defined twice/);
});

test('without maxMembers a scene keeps at most 10,000 members: "#" over 10,001 parameters stores nothing', async (t) => {
  const hub = await startHub(t, {
    connections: {
      many: { type: 'dummy', parameters: Array.from({ length: 10_001 }, (_, i) => `p${i},I,${i}`) },
      show: { type: 'scenes', scenes: [{ id: 'everything', members: ['#'] }] },
    },
  });
  param(hub, 'show/everything/store').set(true);
  t.regex(String(param(hub, 'show/everything/report').value), /match 10001 parameters, more than maxMembers \(10000\)/);
  t.is(param(hub, 'show/everything/members').value, 0);
  t.is(hub.connection('show')?.info.code, 'PB_OVER_LIMIT');
});

test('a store that finds none of its members with a value is refused and keeps the scene stored before (PB_SCENE_EMPTY)', async (t) => {
  const hub = await startHub(t, {
    connections: {
      studio: { type: 'dummy', parameters: ['level,I,3'] },
      show: { type: 'scenes', scenes: [{ id: 'opening', members: ['studio/level', 'router/#'] }] },
    },
  });
  t.true(param(hub, 'show/opening/store').set(true).ok);
  t.is(param(hub, 'show/opening/members').value, 1);
  // The members now match nothing with a value: the studio's level is gone.
  await hub.reload(
    flowOf({
      connections: {
        studio: { type: 'dummy', parameters: ['other,I'] },
        show: { type: 'scenes', scenes: [{ id: 'opening', members: ['studio/level', 'router/#'] }] },
      },
    }),
  );
  const store = param(hub, 'show/opening/store').set(true);
  t.like(store, { ok: false, error: { code: 'PB_SCENE_EMPTY' } });
  t.is(
    param(hub, 'show/opening/report').value,
    'store refused: none of its members (studio/level, router/#) has a value now; the scene kept before stays',
  );
  t.is(param(hub, 'show/opening/members').value, 1, 'the scene kept before');
});
