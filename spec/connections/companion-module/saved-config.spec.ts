import test from 'ava';
import { type BaseVersion, deskInfo, deskValue, fixtureModule, runDesk } from '../../helpers/companion.ts';
import { eventually } from '../../helpers/eventually.ts';
import { storeWith } from '../../helpers/state.ts';

// A config the module saves itself is kept with the connection's state, never in the flow file (R-CM3).

const desk = (module: string, host: string) => ({
  type: 'companion-module',
  module,
  config: { host, port: 9100 },
  actions: { remember: { action: 'save_host', options: { host: '$(value)' } } },
});

for (const base of ['1.4.3', '1.14.1'] as BaseVersion[]) {
  test.serial(`base ${base}: a config the module saves is its config at the next start, until the flow's config changes`, async (t) => {
    const module = await fixtureModule(base);
    const store = await storeWith(t);
    const started = async (host: string) => {
      const { hub, base: url } = await runDesk(t, desk(module, host), store);
      await eventually(
        () => deskInfo(hub)?.status === 'ok',
        () => `the module to be ok (${JSON.stringify(deskInfo(hub))})`,
      );
      return { hub, url };
    };

    const first = await started('mixer.local');
    t.is(deskValue(first.hub, 'var/host'), 'mixer.local');
    t.is((await fetch(`${first.url}/update?parameter=desk/remember&value=learnt.local`)).status, 200);
    await eventually(
      () => (deskInfo(first.hub)?.details?.['savedConfig'] as { host?: string } | undefined)?.host === 'learnt.local',
      'shown',
    );
    await first.hub.stop();

    const again = await started('mixer.local');
    t.is(deskValue(again.hub, 'var/host'), 'learnt.local', 'the module starts from the config it saved');
    await again.hub.stop();

    const changed = await started('other.local');
    t.is(deskValue(changed.hub, 'var/host'), 'other.local', "the flow's new config wins");
    await eventually(() => Number(deskInfo(changed.hub)?.details?.['variables']) >= 4, 'the details of the running module');
    t.is(deskInfo(changed.hub)?.details?.['savedConfig'], undefined, 'the saved one is dropped');
  });
}
