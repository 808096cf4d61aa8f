import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import test from 'ava';
import { main } from '../../../lib/cli.ts';
import { deskInfo, fixtureModule, runDesk } from '../../helpers/companion.ts';
import { eventually } from '../../helpers/eventually.ts';
import { storeWith } from '../../helpers/state.ts';

// What a module declared as it ran is kept per module version, and validate reads it (R-CM3, R-CM5).

const validate = (desk: Record<string, unknown>, ...options: string[]) => cli('validate', desk, ...options);

async function cli(
  command: string,
  desk: Record<string, unknown>,
  ...options: string[]
): Promise<{ code: number; out: string; err: string }> {
  const file = join(await mkdtemp(join(tmpdir(), 'patchbay-validate-')), 'flow.json5');
  await writeFile(file, JSON.stringify({ connections: { desk } }));
  let out = '';
  let err = '';
  const sink = (add: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        add(String(chunk));
        done();
      },
    });
  const code = await main(
    [command, file, ...options],
    sink((text) => (out += text)),
    sink((text) => (err += text)),
  );
  return { code, out, err };
}

test.serial(
  "validate checks a module connection's config and bindings against what the module declared when it last ran here",
  async (t) => {
    const module = await fixtureModule('1.14.1');
    const store = await storeWith(t);
    const desk = {
      type: 'companion-module',
      module,
      config: { host: 'mixer.local', port: 9100 },
      actions: { level: { action: 'set_level', options: { level: '$(value)' } } },
    };
    const mistaken = {
      ...desk,
      config: { host: 'mixer.local', port: 70000, colour: 'red' },
      actions: { level: { action: 'set_levle', options: { level: '$(value)' } }, named: { action: 'set_name', options: { nmae: 'x' } } },
      feedbacks: { high: { feedback: 'level_over' } },
    };
    const before = await validate(mistaken, '--state', store.folder);
    t.is(before.code, 0, `nothing is known of a module that never ran: ${before.err}`);

    const { hub } = await runDesk(t, desk, store);
    await eventually(
      () => deskInfo(hub)?.status === 'ok',
      () => `the module to be ok (${JSON.stringify(deskInfo(hub))})`,
    );
    const kept = join(store.folder, 'files', 'companion-module', 'definitions', 'fixture@1.0.0.json');
    await eventually(() => existsSync(kept), 'the definitions kept');
    const definitions = JSON.parse(readFileSync(kept, 'utf8')) as Record<string, { id: string }[]>;
    t.true(definitions['actions']?.some(({ id }) => id === 'set_level'));
    // Presets as the bindings they stand for (R-CM7): a press's one action, the feedback that lights it.
    await eventually(() => JSON.parse(readFileSync(kept, 'utf8')).presets?.length === 2, 'the presets kept');
    t.deepEqual(
      JSON.parse(readFileSync(kept, 'utf8')).presets,
      [
        {
          id: 'full',
          name: 'Full',
          category: 'Level',
          key: 'Level/Full',
          action: { action: 'set_level', options: { level: 100 }, label: 'Level: Full' },
          feedback: { feedback: 'level_above', options: { threshold: 99 }, invert: false, label: 'Level: Full (lit)' },
        },
        {
          id: 'full-named',
          name: 'Full and named',
          category: 'Level',
          key: 'Level/Full_and_named',
          feedback: { feedback: 'level_above', options: { threshold: 99 }, invert: true, label: 'Level: Full and named (lit)' },
          note: 'its press runs 2 actions, and a parameter runs one: bind each yourself',
        },
      ],
      'presets listed, a heading left out',
    );
    t.true(definitions['configFields']?.some(({ id }) => id === 'port'));
    await hub.stop();

    const after = await validate(mistaken, '--state', store.folder);
    t.is(after.code, 2);
    t.regex(after.err, /connections\.desk\.config\.port: "Target port" \(port\) must be at most 65535/);
    t.regex(after.err, /connections\.desk\.config\.colour: the module has no config field "colour"/);

    const warned = await validate({ ...mistaken, config: desk.config }, '--state', store.folder);
    t.is(warned.code, 0, 'bindings are warnings: a module may declare them from the device it finds');
    t.regex(warned.out, /connections\.desk\.actions\.level\.action: fixture 1\.0\.0, as it last ran here, has no action "set_levle"/);
    t.regex(warned.out, /connections\.desk\.actions\.named\.options\.nmae: .* has no option "nmae" in action "set_name"/);
    t.regex(warned.out, /connections\.desk\.feedbacks\.high\.feedback: .* has no feedback "level_over"/);

    t.is((await validate(mistaken, '--state', 'none')).code, 0, 'without a state folder nothing is known');

    // `patchbay reference` prints what the module declared: its config fields, its actions' options, its presets.
    const reference = await cli('reference', desk, '--state', store.folder);
    t.is(reference.code, 0, reference.err);
    t.regex(reference.out, /^# connection `desk` \(`companion-module`\)/);
    t.regex(reference.out, /\| `port` \| integer \| `9000` \| 1–65535 \| Target port \|/);
    t.regex(reference.out, /### `set_level` — Set level\n\n\| setting .*\n.*\n\| `level` \| integer or string \| `0` \| 0–100 \|/);
    t.regex(reference.out, /\| `Level\/Full` \| `\{"action":"set_level","options":\{"level":100\},"label":"Level: Full"\}` \|/);
    t.regex(
      reference.out,
      /\| `Level\/Full_and_named\/lit` \| `\{"feedback":"level_above","options":\{"threshold":99\},"invert":true,"label":"Level: Full and named \(lit\)"\}` \|/,
    );
    const unknown = await cli('reference', desk, '--state', 'none');
    t.is(unknown.code, 2);
    t.regex(unknown.err, /none of its connections knows settings of its own here/);
  },
);

test.serial(
  "a start the config refuses keeps the fields it read (the console's form needs them to fill the config in), and what an earlier run declared stands",
  async (t) => {
    const module = await fixtureModule('1.14.1');
    const store = await storeWith(t);
    const kept = join(store.folder, 'files', 'companion-module', 'definitions', 'fixture@1.0.0.json');
    const refused = await runDesk(t, { type: 'companion-module', module, config: { host: 'mixer.local', port: 70000 } }, store);
    await eventually(() => deskInfo(refused.hub)?.status === 'failed', 'the refusal');
    await eventually(() => existsSync(kept), 'the fields kept');
    const fields = (JSON.parse(readFileSync(kept, 'utf8')) as { configFields: { id: string }[] }).configFields.map((field) => field.id);
    t.true(fields.includes('port') && fields.includes('host'), fields.join(', '));
    await refused.hub.stop();

    // A run that declared everything, then one the config refuses: the actions it declared stay kept.
    const ran = await runDesk(t, { type: 'companion-module', module, config: { host: 'mixer.local', port: 9100 } }, store);
    await eventually(() => deskInfo(ran.hub)?.status === 'ok', 'the module');
    const actionsOf = () => (JSON.parse(readFileSync(kept, 'utf8')) as { actions: unknown[] }).actions.length;
    await eventually(() => actionsOf() > 0, 'the actions kept');
    await ran.hub.stop();
    const again = await runDesk(t, { type: 'companion-module', module, config: { host: 'mixer.local', port: 70000 } }, store);
    await eventually(() => deskInfo(again.hub)?.status === 'failed', 'the refusal again');
    await again.hub.stop();
    t.true(actionsOf() > 0, 'the actions an earlier run declared stand');
  },
);

test('validate names a module that is not there, or that the hub cannot run, at `module`, as the start would', async (t) => {
  const missing = await validate({ type: 'companion-module', module: './modules/generic-osc' });
  t.is(missing.code, 2);
  t.regex(missing.err, /connections\.desk\.module: the module \.\/modules\/generic-osc is not a folder the hub can read/);
  const archive = await validate({ type: 'companion-module', module: './modules/generic-osc.tgz' });
  t.is(archive.code, 2);
  t.regex(archive.err, /connections\.desk\.module: the module archive \.\/modules\/generic-osc\.tgz is not there/);
  const module = await fixtureModule('1.14.1');
  t.is((await validate({ type: 'companion-module', module })).code, 0, 'a module that is there');
});
