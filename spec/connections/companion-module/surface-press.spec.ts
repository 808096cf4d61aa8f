/**
 * A deck's key pressed through the Satellite server into a Companion module's action, as
 * Companion would run it: the module is told the surface that pressed, as Companion names it
 * (`satellite-<device id>`), whether the press came from the deck or from the console pressing
 * the deck's key; a write no key made names no surface.
 */
import test from 'ava';
import { type BaseVersion, deskInfo, deskValue, fixtureModule, runDesk } from '../../helpers/companion.ts';
import { eventually } from '../../helpers/eventually.ts';
import { ScriptedSatellite } from '../satellite/scripted-satellite.ts';

for (const base of ['1.14.1', '2.0.4'] as BaseVersion[]) {
  test.serial(`base ${base}: a press of a deck's key reaches the module's action with the deck as its surface`, async (t) => {
    const module = await fixtureModule(base);
    const { hub } = await runDesk(
      t,
      {
        type: 'companion-module',
        module,
        config: { host: 'mixer.local', port: 9100, mode: 'tcp' },
        actions: { note: { action: 'note_surface' } },
        timeout: 1000,
      },
      undefined,
      {
        more: {
          panel: {
            type: 'satellite',
            port: 0,
            bindIp: '127.0.0.1',
            keys: [{ device: 'CL15K1A00001', key: 3, press: 'fire', target: 'desk/note' }],
          },
        },
      },
    );
    await eventually(
      () => deskInfo(hub)?.status === 'ok' && hub.connection('panel')?.info.status === 'ok',
      'the module and the satellite server to run',
    );
    const deck = await ScriptedSatellite.connect(t, hub.connection('panel')?.info.details?.['port'] as number);
    deck.addDevice('CL15K1A00001', 15, 5, 0);
    await eventually(() => hub.graph.get('panel/CL15K1A00001/connected')?.value === true, 'the deck added');

    t.is(deskValue(hub, 'var/surface'), undefined, 'nothing pressed yet');
    hub.graph.write('desk/note', true, 'ws ops');
    await eventually(() => deskValue(hub, 'var/surface') === 'none', 'a write no key made: no surface');

    deck.press('CL15K1A00001', 0, 3, true);
    deck.press('CL15K1A00001', 0, 3, false);
    await eventually(
      () => deskValue(hub, 'var/surface') === 'satellite-CL15K1A00001',
      () => `the deck named as Companion names it (got ${String(deskValue(hub, 'var/surface'))})`,
    );

    hub.graph.write('desk/note', true, 'ws ops');
    await eventually(() => deskValue(hub, 'var/surface') === 'none', 'a write again');
    // The console presses the deck's key as a write of its `pressed`: the same press, the same surface.
    hub.graph.write('panel/CL15K1A00001/key/3/pressed', true, 'ws ops');
    hub.graph.write('panel/CL15K1A00001/key/3/pressed', false, 'ws ops');
    await eventually(() => deskValue(hub, 'var/surface') === 'satellite-CL15K1A00001', "the console pressing the deck's key");
  });
}
