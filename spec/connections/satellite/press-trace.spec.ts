import { createServer } from 'node:net';
import test from 'ava';
import { eventually } from '../../helpers/eventually.ts';
import { freePort } from '../../helpers/http.ts';
import { capturedLog, startHub } from '../../helpers/hub.ts';
import { ScriptedSatellite } from './scripted-satellite.ts';

test("a press whose write the device refuses is a warning naming the key and who pressed it, a problem of the key until a press is taken, and the key shows it for two seconds; a write of the key's `pressed` (the console's press) takes the same path (R-RS6)", async (t) => {
  const { log, lines } = capturedLog('warn');
  const away = await freePort();
  const hub = await startHub(
    t,
    {
      connections: {
        api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1' },
        desk: {
          type: 'satellite',
          port: 0,
          bindIp: '127.0.0.1',
          keys: [
            { device: 'deck', key: 3, text: 'CAM 2', off: '#202020', on: '#e00000', press: 'set', target: 'router/dest/1', value: 2 },
            { device: 'deck', key: 4, text: 'NOWHERE', off: '#202020', press: 'fire', target: 'router/nowhere' },
          ],
        },
        // A router that is switched off: nothing listens on its port.
        router: {
          type: 'tcp-client',
          host: '127.0.0.1',
          port: away,
          connectTimeout: 500,
          parameters: ['dest/1,I'],
          send: [{ parameter: 'dest/1', frame: 'ROUTE 1 $VALUE\r\n' }],
        },
      },
    },
    { log },
  );
  await eventually(() => hub.connection('desk')?.info.status === 'ok', 'listening');
  const port = hub.connection('desk')?.info.details?.['port'] as number;
  const deck = await ScriptedSatellite.connect(t, port);
  deck.addDevice('deck', 15, 5, 0);
  const key = (n: string) => deck.received('KEY-STATE').filter((message) => message['KEY'] === n);
  await eventually(() => key('3').at(-1)?.['COLOR'] === '#202020', 'drawn');

  deck.press('deck', 0, 3, true);
  await eventually(
    () =>
      lines().some(
        (line) => line.level === 40 && /^keys\[0\] \(satellite .* deck key 3\): writing router\/dest\/1 failed: /.test(line.msg),
      ),
    () => `the warning (${JSON.stringify(lines().slice(-3))})`,
  );
  await eventually(() => key('3').at(-1)?.['COLOR'] === '#ff8000', 'the key shows the refusal');
  await eventually(() => key('3').at(-1)?.['COLOR'] === '#202020', 'and its own colour again', 5000);
  t.is(hub.graph.get('router/dest/1')?.value, undefined, 'nothing reached the router');
  const keyProblem = () => hub.problems().find((problem) => problem.id === 'desk' && problem.part === 'key deck/3');
  t.like(keyProblem(), { source: 'connection', code: 'PB_DEVICE_UNAVAILABLE' }, 'listed in /problems');
  t.regex(keyProblem()?.message ?? '', /^keys\[0\] \(satellite .*\): writing router\/dest\/1 failed: /);
  t.is(hub.connection('desk')?.info.status, 'ok', 'the connection itself runs');

  // The console's press: a write of the key's `pressed`, answered with the press's refusal.
  const base = `http://127.0.0.1:${hub.connection('api')?.info.details?.['port'] as number}`;
  const pressed = (down: boolean) =>
    fetch(`${base}/update?parameter=desk/deck/key/3/pressed&value=${down}`, { headers: { accept: 'application/json' } });
  const answer = await pressed(true);
  t.is(answer.status, 503, 'the press is refused as the write it made');
  t.like(await answer.json(), { code: 'PB_DEVICE_UNAVAILABLE' });
  t.is(hub.graph.get('desk/deck/key/3/pressed')?.value, true, 'the key is down, as on the desk');
  await eventually(() => key('3').at(-1)?.['COLOR'] === '#ff8000', "the console's press shows on the key as the desk's does");
  t.true(
    lines().some((line) => /^keys\[0\] \(http .*\): writing router\/dest\/1 failed: /.test(line.msg)),
    'and is said with who pressed',
  );
  t.is((await pressed(false)).status, 200, 'let go');

  // The router answers again: the next press is taken, and the problem is over.
  const router = createServer((socket) => socket.on('data', () => {}));
  await new Promise<void>((resolve) => router.listen(away, '127.0.0.1', resolve));
  t.teardown(() => router.close());
  await eventually(() => hub.connection('router')?.info.status === 'ok', 'the router is back', 10_000);
  deck.press('deck', 0, 3, true);
  await eventually(() => keyProblem() === undefined, 'a press taken ends the problem');

  deck.press('deck', 0, 4, true);
  await eventually(
    () => lines().some((line) => /^keys\[1\] .*: writing router\/nowhere failed: there is no parameter router\/nowhere$/.test(line.msg)),
    'a press of a key whose target is not there says so',
  );
  t.pass();
});
