import test from 'ava';
import { type BaseVersion, deskInfo, deskValue, fixtureModule, runDesk } from '../../helpers/companion.ts';
import { eventually } from '../../helpers/eventually.ts';
import { capturedLog } from '../../helpers/hub.ts';
import { storeWith } from '../../helpers/state.ts';

// A newer version of a module upgrades what the flow bound for an older one (R-CM7), as Companion upgrades its buttons.

const desk = (module: string) => ({
  type: 'companion-module',
  module,
  config: { host: 'mixer.local', port: 9100 },
  actions: {
    level: { action: 'set_level', options: { level: '$(value)' } },
    name: { action: 'set_name', options: { name: '$(value)', case: 'upper' } },
  },
});

for (const base of ['1.4.3', '1.11.3', '1.13.6', '1.14.1', '2.0.4'] as BaseVersion[]) {
  test.serial(
    `base ${base}: bindings written for version 1 run on version 2 as its upgrade scripts make them; the flow file is unchanged`,
    async (t) => {
      const store = await storeWith(t);
      const { log, lines } = capturedLog('info');
      const started = async (version: string) => {
        const { hub, base: url } = await runDesk(t, desk(await fixtureModule(base, { version })), store, { log });
        await eventually(
          () => deskInfo(hub)?.status === 'ok',
          () => `the module to be ok (${JSON.stringify(deskInfo(hub))})`,
        );
        const write = async (level: number) => (await fetch(`${url}/update?parameter=desk/level&value=${level}`)).status;
        return { hub, write };
      };

      const first = await started('1.0.0');
      t.is(await first.write(30), 200);
      await eventually(() => deskValue(first.hub, 'var/level') === 30, 'version 1 sets the level');
      await first.hub.stop();

      // Version 2 names the option `percent`: the flow's `level` is upgraded, not refused.
      const second = await started('2.0.0');
      t.is(await second.write(40), 200);
      await eventually(() => deskValue(second.hub, 'var/level') === 40, 'version 2 sets the level');
      t.deepEqual(deskInfo(second.hub)?.details?.['upgradedBindings'], {
        actions: { level: { action: 'set_level', options: { percent: '$(value)' } } },
        feedbacks: {},
      });
      const said = lines().filter((line) => line.msg.startsWith("the module's upgrade scripts changed bindings"));
      t.is(said.length, 1);
      t.true(said[0]?.msg.includes('actions.level: set_level {level} → set_level {percent}'), said[0]?.msg);
      t.false(said[0]?.msg.includes('actions.name'), `a binding its scripts handed back unchanged is not said: ${said[0]?.msg}`);
      await second.hub.stop();

      // Kept: the next start runs the upgraded binding without running the scripts again.
      const third = await started('2.0.0');
      t.is(await third.write(50), 200);
      await eventually(() => deskValue(third.hub, 'var/level') === 50, 'the upgraded binding kept');
    },
  );
}

test.serial(
  'upgrade scripts that throw leave the bindings as written, said in the log, and a write through a renamed option is refused at it',
  async (t) => {
    const store = await storeWith(t);
    const { log, lines } = capturedLog('info');
    const first = await runDesk(t, desk(await fixtureModule('1.14.1')), store, { log });
    await eventually(() => deskInfo(first.hub)?.status === 'ok', 'version 1');
    await first.hub.stop();

    // Version 3 renames `level` to `percent` as version 2 does, and its script throws.
    const { hub, base: url } = await runDesk(t, desk(await fixtureModule('1.14.1', { version: '3.0.0' })), store, { log });
    await eventually(
      () => deskInfo(hub)?.status === 'ok',
      () => `version 3 to be ok (${JSON.stringify(deskInfo(hub))})`,
    );
    await eventually(
      () =>
        lines().some(
          (line) =>
            line.msg.includes("the module's upgrade scripts failed on the bindings") && line.msg.includes('a bug in the upgrade script'),
        ),
      'the failure said',
    );
    t.is(deskInfo(hub)?.details?.['upgradedBindings'], undefined, 'nothing upgraded');
    const refused = await fetch(`${url}/update?parameter=desk/level&value=40`, { headers: { accept: 'application/json' } });
    t.is(refused.status, 400);
    t.regex(((await refused.json()) as { error: string }).error, /action "set_level" has no option "level" \(it has "percent"\)/);
    t.is(deskValue(hub, 'var/level'), 0, 'nothing ran');
  },
);

test.serial(
  "base 2.0.4: a binding an upgrade script makes one of Companion's expressions is left as written, with the reason in the log (R-CM7)",
  async (t) => {
    const store = await storeWith(t);
    const { log, lines } = capturedLog('info');
    const first = await runDesk(t, desk(await fixtureModule('2.0.4')), store, { log });
    await eventually(() => deskInfo(first.hub)?.status === 'ok', 'version 1');
    await first.hub.stop();

    const { hub, base: url } = await runDesk(t, desk(await fixtureModule('2.0.4', { version: '4.0.0' })), store, { log });
    await eventually(
      () => deskInfo(hub)?.status === 'ok',
      () => `version 4 to be ok (${JSON.stringify(deskInfo(hub))})`,
    );
    await eventually(
      () =>
        lines().some((line) =>
          line.msg.includes(
            'action level: the upgrade made its option "percent" an expression of Companion\'s, which patchbay does not evaluate; it runs as the flow writes it',
          ),
        ),
      'the refusal said',
    );
    t.is(deskInfo(hub)?.details?.['upgradedBindings'], undefined, 'nothing upgraded');
    const refused = await fetch(`${url}/update?parameter=desk/level&value=40`, { headers: { accept: 'application/json' } });
    t.is(refused.status, 400);
    t.regex(((await refused.json()) as { error: string }).error, /action "set_level" has no option "level" \(it has "percent"\)/);
  },
);
