import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import WebSocket from 'ws';
import { type BaseVersion, BASES, deskInfo, deskValue, fixtureModule, runDesk } from '../../helpers/companion.ts';
import { eventually } from '../../helpers/eventually.ts';
import { capturedLog } from '../../helpers/hub.ts';
import { privateView } from '../../../lib/sdk/process/processes.ts';

// Each spec runs a hub, a process for the connection and one for the module: one at a time.

/** True when no process `pid` runs (none, or one ended that nobody reaped yet). */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch {
    return true;
  }
}

const run = runDesk;
const info = deskInfo;
const value = deskValue;

async function update(base: string, id: string, written: string) {
  const answer = await fetch(`${base}/update?parameter=desk/${id}&value=${encodeURIComponent(written)}`);
  return { status: answer.status, code: answer.headers.get('x-patchbay-code'), text: await answer.text() };
}

/** Bases with secret fields (1.13 on). */
const hasSecrets = (base: BaseVersion) => base !== '1.4.3' && base !== '1.11.3';

/** The fixture's connection: every kind of binding, a config and, from base 1.13 on, a secret. */
function desk(module: string, base: BaseVersion): Record<string, unknown> {
  return {
    type: 'companion-module',
    module,
    config: { host: 'mixer.local', port: 9100, mode: 'tcp' },
    ...(hasSecrets(base) ? { secrets: { token: 'abc123' } } : {}),
    actions: {
      level: { action: 'set_level', options: { level: '$(value)' } },
      name: { action: 'set_name', options: { name: '$(value)', case: 'upper' } },
      casing: { action: 'set_name', options: { name: 'cased', case: '$(value)' } },
      // Any hub value by address, a module connection's variable by connection and id; what the hub has not reads $NA, as Companion shows it.
      mixed: {
        action: 'set_name',
        options: { name: '$(api/_status/connected)+$(vars/threshold)+$(vars/x)+$(vars:x)+$(desk:level)+$(desk/var/level)', case: 'as-is' },
      },
      fail: { action: 'fail' },
      slow: { action: 'slow' },
      // A misspelt option: sent, the module would act on the field's default.
      typo: { action: 'set_level', options: { levle: '$(value)' } },
    },
    feedbacks: {
      high: { feedback: 'level_above', options: { threshold: 50 } },
      low: { feedback: 'level_above', options: { threshold: 50 }, invert: true },
      shown: { feedback: 'name_value' },
      // Its threshold another connection's value: a change of it registers the feedback again.
      over: { feedback: 'level_above', options: { threshold: '$(vars/threshold)' } },
    },
    timeout: 1000,
  };
}

for (const base of Object.keys(BASES) as BaseVersion[]) {
  test.serial(
    `base ${base}: config, variables, bound actions answered with the module's outcome, feedbacks, parseVariablesInString (R-CM1–R-CM7)`,
    async (t) => {
      const module = await fixtureModule(base);
      const { hub, base: url } = await run(t, desk(module, base));
      await eventually(
        () => info(hub)?.status === 'ok',
        () => `the module to be ok (${JSON.stringify(info(hub))})`,
      );
      // A module may send its presets after its init answered.
      await eventually(() => info(hub)?.details?.['presets'] === 2, 'the presets counted');
      t.like(info(hub)?.details, { module: 'fixture', version: '1.0.0', api: base });
      t.is(value(hub, 'var/host'), 'mixer.local', 'the config reached the module');
      if (hasSecrets(base)) t.is(value(hub, 'var/token_length'), 6, 'the secret reached the module');
      t.is(hub.graph.get('desk/level')?.type, 'I', "the $(value) option's field is a whole number");
      t.is(hub.graph.get('desk/fail')?.type, 'T', 'an action without $(value) is a trigger');
      t.is(hub.graph.get('desk/var/level')?.access, 'read-only');

      t.like(await update(url, 'level', '70'), { status: 200 });
      await eventually(() => value(hub, 'var/level') === 70 && value(hub, 'high') === true, 'the level and its feedback');
      t.is(value(hub, 'low'), false, 'an inverted boolean feedback');
      t.is(value(hub, 'over'), false, '70 is not above the threshold of 80 another connection holds');
      t.like(await fetch(`${url}/update?parameter=vars/threshold&value=60`), { status: 200 });
      await eventually(() => value(hub, 'over') === true, 'the feedback sent again with the new threshold');

      // What the parameters say of themselves (R-PK6): names from the module, the range of the option written.
      t.deepEqual(hub.graph.get('desk/level')?.meta, { label: 'Set level', minimum: 0, maximum: 100 });
      t.deepEqual(hub.graph.get('desk/var/host')?.meta, { label: 'Host as configured' });
      t.deepEqual(hub.graph.get('desk/low')?.meta, { label: 'Level above' });
      t.deepEqual(hub.graph.get('desk/casing')?.meta?.choices, [
        { value: 'as-is', label: 'As is' },
        { value: 'upper', label: 'Upper' },
      ]);
      t.like(await update(url, 'casing', 'lower'), { status: 400, code: 'PB_CONVERSION' });
      const refused = await update(url, 'level', '170');
      t.like(refused, { status: 400, code: 'PB_CONVERSION' });
      t.regex(refused.text, /desk\/level: 170 is outside its range, 0 to 100/);
      t.is(value(hub, 'var/level'), 70, 'a refused option runs nothing');
      const misspelt = await update(url, 'typo', '10');
      t.like(misspelt, { status: 400, code: 'PB_BAD_REQUEST' });
      t.is(misspelt.text.includes('action "set_level" has no option "levle" (it has "level")'), true, misspelt.text);
      t.is(value(hub, 'var/level'), 70, 'an option the action does not declare runs nothing');

      t.like(await update(url, 'name', 'cam 2'), { status: 200 });
      await eventually(
        () => value(hub, 'var/name') === 'CAM 2 (70)',
        () => `the name, parsed by the hub (${value(hub, 'var/name')})`,
      );
      await eventually(() => value(hub, 'shown') === 'CAM 2 (70)', 'the value feedback');
      t.like(await update(url, 'mixed', 'true'), { status: 200 });
      await eventually(
        () => value(hub, 'var/name') === 'true+60+$NA+$NA+70+70 (70)',
        () => `the mixed name (${value(hub, 'var/name')})`,
      );

      const failed = await update(url, 'fail', 'true');
      t.like(failed, { status: 502, code: 'PB_BAD_ANSWER' });
      t.regex(failed.text, /the device refused/);
      t.like(await update(url, 'slow', 'true'), { status: 504, code: 'PB_DEVICE_TIMEOUT' });

      const shown = await (await fetch(`${url}/connections`)).text();
      if (hasSecrets(base)) t.false(shown.includes('abc123'), 'a secret is never served');
    },
  );
}

test.serial(
  "a written value is data: a scoped token cannot read past its scope through $(…) in a module's options or its parse (base 1.14.1)",
  async (t) => {
    const panel = { name: 'panel', token: 'panel-token', read: ['desk/#', 'pub/#'], write: ['desk/#', 'pub/#'] };
    const { hub, base: url } = await run(
      t,
      {
        type: 'companion-module',
        module: await fixtureModule('1.14.1'),
        config: { host: 'mixer.local', port: 9100, mode: 'tcp' },
        actions: {
          level: { action: 'set_level', options: { level: '$(value)' } },
          name: { action: 'set_name', options: { name: '$(value)', case: 'as-is' } },
          page: { action: 'set_name', options: { name: '/page/$(value)', case: 'as-is' } },
          title: { action: 'set_name', options: { name: '$(pub/title)', case: 'as-is' } },
        },
      },
      undefined,
      {
        api: { tokens: [panel] },
        more: {
          studio: { type: 'dummy', parameters: ['secret,S,hunter2'] },
          pub: { type: 'dummy', parameters: ['title,S,morning', 'show,S,'] },
        },
        rules: [{ source: 'pub/show', destinations: ['desk/name'] }],
      },
    );
    const as = { authorization: `Bearer ${panel.token}` };
    const write = async (address: string, written: string) =>
      (await fetch(`${url}/update?parameter=${address}&value=${encodeURIComponent(written)}`, { headers: as })).status;
    await eventually(
      () => info(hub)?.status === 'ok',
      () => `the module to be ok (${JSON.stringify(info(hub))})`,
    );
    t.is((await fetch(`${url}/parameters/studio/secret`, { headers: as })).status, 404, 'outside the scope');
    t.is(await write('desk/level', '70'), 200);
    await eventually(() => value(hub, 'var/level') === 70, 'the level');

    // The module parses what it is sent, with its own variable beside it: `${name} ($(desk:level))`.
    const named = async (why: string, expected: string) =>
      eventually(
        () => value(hub, 'var/name') === expected,
        () => `${why}: ${expected} (the module's name is ${value(hub, 'var/name')})`,
      );
    t.is(await write('desk/name', '$(studio/secret)'), 200);
    await named('a written value the module parses', '$(studio/secret) (70)');
    t.is(await write('desk/page', '$(studio/secret)'), 200);
    await named('a written value inside a text', '/page/$(studio/secret) (70)');
    t.is(await write('pub/title', 'Tonight: $(studio/secret)'), 200);
    t.is(await write('desk/title', 'true'), 200);
    await named('a hub value the option names', 'Tonight: $(studio/secret) (70)');
    t.is(await write('pub/show', 'Later: $(studio/secret)'), 200);
    await named('a value a rule carried', 'Later: $(studio/secret) (70)');
    t.false(JSON.stringify(hub.graph.get('desk/var/name')?.value).includes('hunter2'));
  },
);

/** `count` WebSocket clients following `address`, a hundred connected at a time (a thousand at once overflow the listen backlog). */
async function following(t: ExecutionContext, url: string, address: string, count: number) {
  const clients: { value: unknown; closed: boolean }[] = [];
  for (let crowd = 0; crowd < count / 100; crowd++) {
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        const socket = new WebSocket(`${url.replace('http', 'ws')}/ws?filter=${encodeURIComponent(`^${address}$`)}`);
        const client = { value: undefined as unknown, closed: false };
        clients.push(client);
        t.teardown(() => socket.terminate());
        socket.on('message', (data) => {
          const message = JSON.parse(String(data)) as { p?: string; v?: unknown };
          if (message.p === address) client.value = message.v;
        });
        socket.on('close', () => (client.closed = true));
        await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      }),
    );
  }
  return clients;
}

for (const base of ['1.14.1', '2.0.4'] as BaseVersion[]) {
  // Once with a crowd watching (R-CM2 with R-PK4's 1,000 WebSocket clients), once without.
  const crowd = base === '1.14.1' ? 1000 : 0;
  test.serial(
    `base ${base}: kill -9 of the module's process${crowd ? ' with 1,000 WebSocket clients following its variable' : ''}: values stay readable, the rest runs, and it comes back with a new process`,
    async (t) => {
      const module = await fixtureModule(base);
      const { hub, base: url } = await run(t, desk(module, base));
      await eventually(() => info(hub)?.status === 'ok', 'the module');
      t.like(await update(url, 'level', '64'), { status: 200 });
      await eventually(() => value(hub, 'var/level') === 64, 'the level');
      const clients = await following(t, url, 'desk/var/level', crowd);
      await eventually(() => clients.every((client) => client.value === '64'), 'every client has the level');
      await eventually(() => typeof info(hub)?.details?.['pid'] === 'number', "the module's process id");
      const pid = info(hub)?.details?.['pid'] as number;
      process.kill(pid, 'SIGKILL');
      await eventually(() => info(hub)?.status === 'failed', 'the connection to fail');
      t.like(info(hub), { code: 'PB_PROCESS_ENDED' });
      t.regex(info(hub)?.reason ?? '', /SIGKILL/);
      t.is(value(hub, 'var/level'), 64, 'its values stay readable');
      t.like(await update(url, 'level', '65'), { status: 503 });
      t.is(hub.listConnections().find((connection) => connection.id === 'api')?.status, 'ok');
      await eventually(() => info(hub)?.status === 'ok', 'the module back');
      await eventually(() => typeof info(hub)?.details?.['pid'] === 'number' && info(hub)?.details?.['pid'] !== pid, 'a new process');
      t.like(await update(url, 'level', '66'), { status: 200 });
      await eventually(() => value(hub, 'var/level') === 66, 'the level through the new process');
      await eventually(
        () => clients.every((client) => client.value === '66'),
        () => `every client has the level from the new process (${clients.filter((client) => client.value === '66').length} of ${crowd})`,
      );
      t.is(clients.filter((client) => client.closed).length, 0, 'no client was dropped');
    },
  );
}

test.serial('a module built for a base the hub does not speak is refused with PB_MODULE_INCOMPATIBLE naming both', async (t) => {
  for (const apiVersion of ['3.0.0', '1.1.0']) {
    const module = await fixtureModule('1.14.1', { runtime: { apiVersion } });
    const { hub } = await run(t, { type: 'companion-module', module });
    await eventually(() => info(hub)?.status === 'failed', 'the refusal');
    t.like(info(hub), { code: 'PB_MODULE_INCOMPATIBLE' });
    t.regex(info(hub)?.reason ?? '', new RegExp(`base ${apiVersion.replaceAll('.', '\\.')}; this hub speaks @companion-module/base 1\\.2`));
    await hub.stop();
  }
});

test.serial('a manifest naming an entry point outside the module is refused, and nothing of it runs', async (t) => {
  const module = await fixtureModule('1.14.1', { runtime: { entrypoint: '../../../../../etc/hostname' } });
  const { hub } = await run(t, { type: 'companion-module', module });
  await eventually(() => info(hub)?.status === 'failed', 'the refusal');
  t.regex(info(hub)?.reason ?? '', /outside its folder|not there/);
});

test.serial("a config mistake fails the connection at its path with the field's label (R-CM3)", async (t) => {
  const module = await fixtureModule('1.14.1');
  const { hub } = await run(t, { type: 'companion-module', module, config: { host: 'mixer', port: 70000 } });
  await eventually(() => info(hub)?.status === 'failed', 'the refusal');
  t.regex(info(hub)?.reason ?? '', /config\.port: "Target port" \(port\) must be at most 65535/);
  const unknown = await run(t, { type: 'companion-module', module, config: { hots: 'mixer' } });
  await eventually(() => info(unknown.hub)?.status === 'failed', 'the refusal');
  t.regex(info(unknown.hub)?.reason ?? '', /config\.hots: the module has no config field "hots"/);
});

test.serial(
  'a module that hangs in init, one that exits at once and a 2.x one without its class fail with the reason, and the hub runs on',
  async (t) => {
    const module = await fixtureModule('1.14.1');
    const { hub } = await run(t, { type: 'companion-module', module, config: { host: 'hang' }, initTimeout: 1000 });
    await eventually(() => info(hub)?.status === 'failed', 'the hang');
    t.regex(info(hub)?.reason ?? '', /did not answer init within 1000 ms/);
    await hub.stop();
    const exits = await fixtureModule('1.14.1', { main: 'process.exit(3);\n' });
    const second = await run(t, { type: 'companion-module', module: exits });
    await eventually(() => info(second.hub)?.status === 'failed', 'the exit');
    t.regex(info(second.hub)?.reason ?? '', /exited with code 3/);
    t.is(second.hub.listConnections().find((connection) => connection.id === 'api')?.status, 'ok');
    await second.hub.stop();
    // A 2.x module is a class its host loads: an entry point without one says so.
    const classless = await fixtureModule('2.0.4', { main: 'export const Module = 1;\n' });
    const third = await run(t, { type: 'companion-module', module: classless });
    await eventually(() => info(third.hub)?.status === 'failed', 'the failed load');
    t.regex(
      info(third.hub)?.reason ?? '',
      /exited with code 1: Error: the module's entry point .*main\.mjs has no default export of its class/,
    );
  },
);

test.serial("a module whose start holds its loop past the base's wait for its registration says why it exited (code 11)", async (t) => {
  // The base waits 5 s for its host's answer to `register`, on a timer of the module's own
  // loop: held 6 s just after it registered, the module finds its timer due before the
  // answer the hub sent at once, and the base exits with 11.
  const main = [
    "const base = require('@companion-module/base');",
    "const { FixtureModule, upgradeScripts } = require('./module.cjs')(base);",
    'class SlowStart extends FixtureModule {',
    '  constructor(internal) {',
    '    super(internal);',
    '    setImmediate(() => { const until = Date.now() + 6000; while (Date.now() < until); });',
    '  }',
    '}',
    'base.runEntrypoint(SlowStart, upgradeScripts);',
    '',
  ].join('\n');
  const module = await fixtureModule('1.14.1', { main });
  const { hub } = await run(t, { type: 'companion-module', module });
  await eventually(() => /exited with code 11/.test(info(hub)?.reason ?? ''), 'the exit', 20_000);
  t.regex(
    info(hub)?.reason ?? '',
    /code 11 \(it gave up waiting 5 s for its registration to be answered: its own start held its event loop/,
  );
});

test.serial(
  "junk on a module's channel ends the module, not the hub; a message of four million objects is dropped unread (R-CM2)",
  async (t) => {
    const module = await fixtureModule('1.14.1');
    const { hub, base: url } = await run(t, {
      ...desk(module, '1.14.1'),
      actions: {
        level: { action: 'set_level', options: { level: '$(value)' } },
        misbehave: { action: 'misbehave', options: { kind: '$(value)' } },
      },
    });
    await eventually(
      () => info(hub)?.status === 'ok',
      () => `the module to be ok (${JSON.stringify(info(hub))})`,
    );
    const firstPid = info(hub)?.details?.['pid'];

    // The module takes its time to make them (the write's answer may time out): the hub does not.
    await update(url, 'misbehave', 'objects');
    await eventually(
      () => Number(info(hub)?.details?.['dropped']) >= 1,
      () => `the message dropped (${JSON.stringify(info(hub)?.details)})`,
    );
    t.like(await update(url, 'level', '42'), { status: 200 }, 'the module answers on');
    t.is(info(hub)?.details?.['pid'], firstPid);

    await update(url, 'misbehave', 'junk');
    await eventually(
      () => /the module.s process was ended: it sent what is no message/.test(JSON.stringify(info(hub))),
      () => `the module ended, with the reason (${JSON.stringify(info(hub))})`,
    );
    await eventually(
      () => info(hub)?.status === 'ok' && info(hub)?.details?.['pid'] !== firstPid,
      () => `the module started again (${JSON.stringify(info(hub))})`,
    );
    t.is((await fetch(`${url}/healthz`)).status, 200, 'the hub serves on');
  },
);

test.serial("a module's log lines and output reach the hub's log at most 50 a second, the rest counted (R-CM2)", async (t) => {
  const { log, lines: logged } = capturedLog('info');
  const lines = () => logged().map((line) => line.msg);
  const module = await fixtureModule('1.14.1');
  const { hub, base: url } = await run(
    t,
    { ...desk(module, '1.14.1'), actions: { misbehave: { action: 'misbehave', options: { kind: '$(value)' } } } },
    undefined,
    { log },
  );
  await eventually(
    () => info(hub)?.status === 'ok',
    () => `the module to be ok (${JSON.stringify(info(hub))})`,
  );
  await update(url, 'misbehave', 'log');
  await eventually(
    () => lines().some((line) => /lines of the module's log and output were left out of the log/.test(line)),
    () => `the count of lines dropped (${lines().filter((line) => line.includes('module: line')).length} taken)`,
    10_000,
  );
  const taken = lines().filter((line) => line.includes('module: line')).length;
  t.true(taken > 0 && taken <= 100, `${taken} of 10,000 lines taken in at most two seconds' turns`);
});

test.serial(
  "the log says a module's thing once: a line repeated within the minute once, with its count; a long reason in one line of at most 200 characters, the whole in the connection's details (R-CM10)",
  async (t) => {
    const { log, lines } = capturedLog('info');
    const module = await fixtureModule('1.14.1');
    const { hub, base: url } = await run(
      t,
      { ...desk(module, '1.14.1'), actions: { misbehave: { action: 'misbehave', options: { kind: '$(value)' } } } },
      undefined,
      { log },
    );
    await eventually(() => info(hub)?.status === 'ok', 'the module ok');
    t.like(await update(url, 'misbehave', 'chatty'), { status: 200 });
    await eventually(() => info(hub)?.status === 'degraded', 'the desk away');
    const reason = info(hub)?.reason ?? '';
    t.false(reason.includes('\n'), 'one line');
    t.true(reason.length <= 'connection failure: '.length + 200, `at most 200 characters of the module's: ${reason.length}`);
    t.regex(reason, /^connection failure: could not reach the desk at mixer\.local:9100 .*…$/);
    t.regex(String(info(hub)?.details?.['statusMessage']), /at connect \(net\.js:1:1\)\nxxxx/, 'the whole in the details');
    await eventually(() => lines().some((line) => line.msg === 'module: connection refused'), 'said');
    await eventually(() => info(hub)?.status === 'ok', 'back', 10_000);
    t.is(lines().filter((line) => line.msg === 'module: connection refused').length, 1, 'once');
    await hub.stop();
    t.true(
      lines().some((line) => line.msg === 'module: connection refused (said 29 more times within the minute)'),
      'with its count, at the latest when the module stops',
    );
  },
);

test.serial(
  "a write to a module that is not ok is refused 503 with the module's status and message, never sent and answered 200; one connecting past connectTimeoutMs is a problem (R-CM9)",
  async (t) => {
    const module = await fixtureModule('1.14.1');
    const { hub, base: url } = await run(t, {
      ...desk(module, '1.14.1'),
      connectTimeoutMs: 1000,
      actions: { ...(desk(module, '1.14.1')['actions'] as object), misbehave: { action: 'misbehave', options: { kind: '$(value)' } } },
    });
    await eventually(
      () => info(hub)?.status === 'ok',
      () => `the module to be ok (${JSON.stringify(info(hub))})`,
    );
    t.like(await update(url, 'level', '40'), { status: 200 });
    await eventually(() => value(hub, 'var/level') === 40, 'the level set');
    t.like(await update(url, 'misbehave', 'offline'), { status: 200 });
    await eventually(() => info(hub)?.status === 'degraded', 'the desk away');
    const refused = await update(url, 'level', '55');
    t.like(refused, { status: 503, code: 'PB_DEVICE_UNAVAILABLE' });
    t.regex(refused.text, /the module is connection failure: the desk is away; the write was not sent/);
    t.is(value(hub, 'var/level'), 40, 'the module never got it');
    await eventually(() => info(hub)?.status === 'ok', 'the desk back', 10_000);
    t.like(await update(url, 'level', '55'), { status: 200 });
    await eventually(() => value(hub, 'var/level') === 55, 'taken once the module is ok');

    // Connecting past connectTimeoutMs is a problem, with how long and what the module says.
    t.like(await update(url, 'misbehave', 'searching'), { status: 200 });
    await eventually(() => info(hub)?.status === 'connecting', 'connecting');
    await eventually(
      () => info(hub)?.status === 'degraded',
      () => `degraded once connecting too long (${JSON.stringify(info(hub))})`,
    );
    t.regex(info(hub)?.reason ?? '', /^connecting for \d s: looking for the desk$/);
    t.true(
      hub
        .problems()
        .some((problem) => problem.source === 'connection' && problem.id === 'desk' && problem.code === 'PB_DEVICE_UNAVAILABLE'),
    );
    await eventually(() => info(hub)?.status === 'ok', 'found', 10_000);
  },
);

test.serial(
  'a module flapping its status and saving its config 10,000 times is shown and kept at most 20 and 2 times a second, ending as it ended',
  async (t) => {
    const { log, lines: logged } = capturedLog('info');
    const lines = () => logged().map((line) => line.msg);
    const module = await fixtureModule('1.14.1');
    const { hub, base: url } = await run(
      t,
      { ...desk(module, '1.14.1'), actions: { misbehave: { action: 'misbehave', options: { kind: '$(value)' } } } },
      undefined,
      { log },
    );
    await eventually(
      () => info(hub)?.status === 'ok',
      () => `the module to be ok (${JSON.stringify(info(hub))})`,
    );
    const from = lines().length;
    let shown = 0;
    const watching = hub.connection('desk')?.status$.subscribe(() => shown++);
    t.teardown(() => watching?.unsubscribe());
    await update(url, 'misbehave', 'flap');
    await eventually(
      () =>
        info(hub)?.status === 'ok' && (info(hub)?.details?.['savedConfig'] as { host?: string } | undefined)?.host === 'flap-10000.local',
      () => `the last status and save (${JSON.stringify(info(hub))})`,
      10_000,
    );
    const after = lines().slice(from);
    const degraded = after.filter((line) => line.includes('flap')).length;
    const saves = after.filter((line) => line.includes('the module saved its config')).length;
    t.log(`${shown} statuses shown, ${degraded} log lines of them, ${saves} saves kept`);
    t.true(shown > 0 && shown <= 80, `${shown} statuses shown`);
    t.true(degraded <= 80, `${degraded} lines of statuses`);
    t.true(saves >= 1 && saves <= 10, `${saves} saves kept`);
  },
);

test.serial(
  "a module cannot read the hub's environment through /proc where the machine lets it run in a view of its own (issue 73)",
  async (t) => {
    const wrapper = privateView();
    if (!wrapper) {
      t.pass("skipped: unshare cannot run here (no private view), as the hub's log says");
      return;
    }
    // A process of the hub's user with a secret in its environment, as the hub started with its site key is.
    const holder = spawn('sleep', ['60'], { env: { ...process.env, PATCHBAY_SPEC_SECRET: 'in-the-hub-alone' }, stdio: 'ignore' });
    t.teardown(() => holder.kill());
    const module = await fixtureModule('1.14.1');
    const { hub, base: url } = await run(t, {
      ...desk(module, '1.14.1'),
      actions: { misbehave: { action: 'misbehave', options: { kind: '$(value)' } } },
    });
    await eventually(
      () => info(hub)?.status === 'ok',
      () => `the module to be ok (${JSON.stringify(info(hub))})`,
    );
    await update(url, 'misbehave', 'peek');
    await eventually(() => / of /.test(String(value(hub, 'var/peeked'))), 'the module looked');
    t.regex(String(value(hub, 'var/peeked')), /^0 of /, 'no process whose environment holds the secret');
  },
);

test.serial('a module whose event loop blocks after it started is killed after moduleHangMs and started again, values kept', async (t) => {
  const module = await fixtureModule('1.14.1');
  const { hub, base: url } = await run(t, {
    ...desk(module, '1.14.1'),
    actions: { level: { action: 'set_level', options: { level: '$(value)' } }, block: { action: 'block' } },
    moduleHangMs: 1000,
  });
  await eventually(() => info(hub)?.status === 'ok', 'the module');
  t.like(await update(url, 'level', '12'), { status: 200 });
  await eventually(() => value(hub, 'var/level') === 12, 'the level');
  await eventually(() => typeof info(hub)?.details?.['pid'] === 'number', "the module's process id");
  const pid = info(hub)?.details?.['pid'] as number;
  t.like(await update(url, 'block', 'true'), { status: 504 });
  await eventually(() => info(hub)?.status === 'failed', 'the connection to fail');
  t.regex(info(hub)?.reason ?? '', /did not answer for 1000 ms/);
  t.is(value(hub, 'var/level'), 12);
  await eventually(() => gone(pid), 'the blocked module to be gone');
  await eventually(() => info(hub)?.status === 'ok', 'the module back');
});

test.serial(
  'a module that holds more memory than moduleMaxMemoryMb (Buffers past the margin, or its heap) is stopped and started again, values kept (R-CM2)',
  async (t) => {
    const module = await fixtureModule('1.14.1');
    const { hub, base: url } = await run(t, {
      ...desk(module, '1.14.1'),
      actions: { level: { action: 'set_level', options: { level: '$(value)' } }, leak: { action: 'leak', options: { kind: '$(value)' } } },
      moduleMaxMemoryMb: 64,
      timeout: 60_000,
    });
    for (const [kind, reason] of [
      ['buffers', /the module's process held \d+ MB, more than its 64 MB \(moduleMaxMemoryMb\) and 256 MB for Node itself, and was killed/],
      ['heap', /the module's process used more than its 64 MB of heap \(moduleMaxMemoryMb\) and was stopped/],
    ] as const) {
      await eventually(() => info(hub)?.status === 'ok', 'the module');
      t.like(await update(url, 'level', '33'), { status: 200 });
      await eventually(() => value(hub, 'var/level') === 33, 'the level');
      const pid = info(hub)?.details?.['pid'] as number;
      void update(url, 'leak', kind);
      await eventually(() => info(hub)?.status === 'failed', `the ${kind} leak to end the module`);
      t.regex(info(hub)?.reason ?? '', reason);
      t.is(value(hub, 'var/level'), 33, 'its values stay readable');
      await eventually(() => gone(pid), 'the leaking process to be gone');
    }
    await eventually(() => info(hub)?.status === 'ok', 'the module back');
  },
);

test.serial(
  "a module that floods definitions and defines 30,000 variables is bounded at 20,000, degraded with PB_OVER_LIMIT, and the hub answers; each variable is made once, with its value's type",
  async (t) => {
    const module = await fixtureModule('1.14.1');
    const { hub, base: url } = await run(t, { ...desk(module, '1.14.1'), actions: { flood: { action: 'flood' } }, timeout: 30_000 });
    await eventually(() => info(hub)?.status === 'ok', 'the module');
    let removed = 0;
    const removals = hub.graph.removed$.subscribe((parameter) => parameter.address.startsWith('desk/var/v') && removed++);
    t.teardown(() => removals.unsubscribe());
    const flooded = await update(url, 'flood', 'true');
    t.is(flooded.status, 200, `${flooded.code}: ${flooded.text}; the connection: ${JSON.stringify(info(hub))}`);
    await eventually(() => info(hub)?.status === 'degraded', 'the bound to be said');
    t.like(info(hub), { code: 'PB_OVER_LIMIT' });
    t.regex(info(hub)?.reason ?? '', /^the module defined more than 20000 variables: 1\d{4} dropped$/);
    await eventually(() => hub.graph.byPrefix('desk/var/').length === 20_000, 'the variables kept');
    t.is((await fetch(`${url}/healthz`)).status, 200);
    // Named in one message and given values in the next: made as text and typed again, each would be made twice.
    t.is(removed, 0);
    t.true(hub.graph.byPrefix('desk/var/v').every((parameter) => parameter.type === 'I'));
  },
);

test.serial(
  'a module that defines its actions and feedbacks only after init: the bindings take their types from them, and the connection is ok once they came',
  async (t) => {
    const module = await fixtureModule('1.14.1');
    const { hub, base: url } = await run(t, { ...desk(module, '1.14.1'), config: { host: 'mixer.local', port: 9100, late: true } });
    await eventually(
      () => info(hub)?.status === 'ok',
      () => `the module to be ok once its definitions came (${JSON.stringify(info(hub))})`,
    );
    t.is(hub.graph.get('desk/level')?.type, 'I', "the $(value) option's field, as the late definition says");
    t.is(hub.graph.get('desk/high')?.type, 'B', 'a boolean feedback, as the late definition says');
    t.is(hub.graph.get('desk/fail')?.type, 'T', 'a trigger needs no definition');
    t.like(await update(url, 'level', '70'), { status: 200 });
    await eventually(() => value(hub, 'high') === true && value(hub, 'low') === false, 'the feedbacks as booleans');
    await eventually(() => value(hub, 'shown') === 'none', 'a value feedback registered before it was defined says its value');
  },
);
