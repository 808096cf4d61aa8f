import test from 'ava';
import { eventually } from '../../helpers/eventually.ts';
import { freePort } from '../../helpers/http.ts';
import { capturedLog, startHub } from '../../helpers/hub.ts';
import { ScriptedSatellite } from './scripted-satellite.ts';

test('a press whose write the device refuses is a warning naming the key and who pressed it, and the key shows it for two seconds (R-RS6)', async (t) => {
  const { log, lines } = capturedLog('warn');
  const away = await freePort();
  const hub = await startHub(
    t,
    {
      connections: {
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
  await eventually(() => key('3').at(-1)?.['COLOR'] === '#ff0000', 'the key shows the refusal');
  await eventually(() => key('3').at(-1)?.['COLOR'] === '#202020', 'and its own colour again', 5000);
  t.is(hub.graph.get('router/dest/1')?.value, undefined, 'nothing reached the router');

  deck.press('deck', 0, 4, true);
  await eventually(
    () => lines().some((line) => /^keys\[1\] .*: writing router\/nowhere failed: there is no parameter router\/nowhere$/.test(line.msg)),
    'a press of a key whose target is not there says so',
  );
  t.pass();
});
