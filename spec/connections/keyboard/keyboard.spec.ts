import { readFileSync } from 'node:fs';
import test from 'ava';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import { formatIssue } from '../../../lib/core/issue.ts';
import { keyProcess } from '../../../lib/connections/keyboard/key-process.ts';
import { eventually } from '../../helpers/eventually.ts';
import { capturedLog, param, startHub } from '../../helpers/hub.ts';
import { canRunXvfb, startXvfb, whyNoXvfb, xdotoolKey } from '../../helpers/xvfb.ts';

// Everything in this file shares one process, so one X server and one global hook.
const withX = canRunXvfb ? test.serial : test.serial.skip;
let display = '';

test.before(async () => {
  if (!canRunXvfb) return;
  display = await startXvfb();
});

withX(`xdotool key ctrl+F1 fires input/ctrl-f1, and only that${whyNoXvfb}`, async (t) => {
  const hub = await startHub(t, { connections: { keys: { type: 'keyboard', inputKeys: ['Ctrl-F1', 'ctrl-shift-f1', 'f2'] } } });
  t.is(hub.connection('keys')?.status.status, 'ok');
  const fired: string[] = [];
  for (const p of hub.graph.byPrefix('keys/input/')) p.changes$.subscribe(() => fired.push(p.id));
  xdotoolKey(display, 'ctrl+F1');
  await eventually(() => fired.length >= 1, 'the hotkey');
  xdotoolKey(display, 'F2');
  xdotoolKey(display, 'ctrl+F3'); // not registered
  xdotoolKey(display, 'shift+F2'); // F2 with shift is another combination
  await eventually(() => fired.length >= 2, 'the second hotkey');
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.deepEqual(fired, ['input/ctrl-f1', 'input/f2']);
  t.deepEqual(
    hub.graph.byPrefix('keys/').map((p) => [p.id, p.type, p.access]),
    [
      ['input/ctrl-f1', 'T', 'read-only'],
      ['input/ctrl-shift-f1', 'T', 'read-only'],
      ['input/f2', 'T', 'read-only'],
    ],
  );
});

withX(`with debug: true every combination the hook sees is logged${whyNoXvfb}`, async (t) => {
  const { log, lines } = capturedLog();
  const hub = await startHub(t, { connections: { keys: { type: 'keyboard', debug: true, inputKeys: ['ctrl-f1'] } } }, { log });
  // The hook listens once its process says so: a press before that is half heard on a loaded machine (f1 without its ctrl).
  await eventually(() => hub.connection('keys')?.info.status === 'ok', 'the hook listening');
  await new Promise((resolve) => setTimeout(resolve, 200));
  xdotoolKey(display, 'ctrl+F1');
  xdotoolKey(display, 'ctrl+F3');
  const seen = () =>
    lines()
      .filter((l) => l.connection === 'keys' && l.msg.startsWith('hotkey '))
      .map((l) => l.msg);
  await eventually(() => seen().length >= 2, 'both combinations');
  t.deepEqual(seen(), ['hotkey ctrl-f1 seen', 'hotkey ctrl-f3 seen (not one of inputKeys)']);
});

withX(`firing output/ctrl-shift-a is seen by the hook as that combination${whyNoXvfb}`, async (t) => {
  const hub = await startHub(t, {
    connections: {
      typist: { type: 'keyboard', outputKeys: ['shift-ctrl-a'] },
      listener: { type: 'keyboard', inputKeys: ['ctrl-shift-a', 'a'] },
    },
  });
  const seen: string[] = [];
  for (const p of hub.graph.byPrefix('listener/input/')) p.changes$.subscribe(() => seen.push(p.id));
  const output = param(hub, 'typist/output/ctrl-shift-a');
  t.is(output.access, 'write-only');
  t.true(output.set(null).ok);
  await eventually(() => seen.length >= 1, 'the typed combination');
  t.true(output.set(true).ok);
  await eventually(() => seen.length >= 2, 'the second one');
  t.deepEqual(seen, ['input/ctrl-shift-a', 'input/ctrl-shift-a']);
});

withX(`the key process starts with the first keyboard connection and ends with the last${whyNoXvfb}`, async (t) => {
  t.is(keyProcess.pid, undefined);
  const one = await startHub(t, {
    connections: { a: { type: 'keyboard', inputKeys: ['f5'] }, b: { type: 'keyboard', inputKeys: ['f6'] } },
  });
  t.truthy(keyProcess.pid);
  await one.connection('a')?.stop();
  t.truthy(keyProcess.pid, 'b still listens');
  await one.connection('b')?.stop();
  t.is(keyProcess.pid, undefined);
});

withX(`the native key libraries run in a process of their own, never in the hub's${whyNoXvfb}`, async (t) => {
  await startHub(t, { connections: { keys: { type: 'keyboard', inputKeys: ['f7'], outputKeys: ['f8'] } } });
  const pid = keyProcess.pid;
  if (pid === undefined) return t.fail('no key process');
  const loaded = (of: number | string) => readFileSync(`/proc/${of}/maps`, 'utf8');
  t.regex(loaded(pid), /uiohook-napi\.node/);
  t.regex(loaded(pid), /libnut/);
  t.notRegex(loaded('self'), /uiohook|libnut/);
});

withX(
  `a key process that dies is said by each keyboard connection, started again, and keys work again; the hub runs on${whyNoXvfb}`,
  async (t) => {
    const hub = await startHub(t, {
      connections: {
        typist: { type: 'keyboard', outputKeys: ['ctrl-f9'] },
        listener: { type: 'keyboard', inputKeys: ['ctrl-f9'] },
      },
    });
    const first = keyProcess.pid;
    if (first === undefined) return t.fail('no key process');
    process.kill(first, 'SIGKILL');
    for (const id of ['typist', 'listener'])
      await eventually(
        () => /^the key process was killed \(SIGKILL\); starting it again in 1000 ms$/.test(hub.connection(id)?.status.reason ?? ''),
        `${id} says why`,
      );
    t.is(hub.connection('listener')?.status.status, 'failed');
    await eventually(
      () => hub.connection('listener')?.status.status === 'ok' && hub.connection('typist')?.status.status === 'ok',
      'both back',
    );
    t.not(keyProcess.pid, first);
    const seen: string[] = [];
    param(hub, 'listener/input/ctrl-f9').changes$.subscribe(() => seen.push('ctrl-f9'));
    t.true(param(hub, 'typist/output/ctrl-f9').set(null).ok);
    await eventually(() => seen.length === 1, 'the key typed by the new process, heard by its hook');
  },
);

test.serial('without a display the connection fails with the reason and the rest runs', async (t) => {
  const saved = process.env['DISPLAY'];
  delete process.env['DISPLAY'];
  t.teardown(() => {
    if (saved !== undefined) process.env['DISPLAY'] = saved;
  });
  const hub = await startHub(t, {
    connections: {
      keys: { type: 'keyboard', inputKeys: ['ctrl-f1'] },
      optional: { type: 'keyboard', inputKeys: ['ctrl-f2'], whenNoDisplay: 'disable' },
      vars: { type: 'dummy', parameters: 'x,I,1' },
    },
  });
  t.like(hub.connection('keys')?.status, { status: 'failed' });
  t.regex(hub.connection('keys')?.status.reason ?? '', /no X display: DISPLAY is not set/);
  t.like(hub.connection('optional')?.status, { status: 'disabled' });
  t.regex(hub.connection('optional')?.status.reason ?? '', /DISPLAY is not set/);
  t.is(hub.connection('vars')?.status.status, 'ok');
  t.is(hub.graph.get('keys/input/ctrl-f1'), undefined);
});

test.serial('an unreachable display fails the connection instead of the process', async (t) => {
  const saved = process.env['DISPLAY'];
  process.env['DISPLAY'] = ':987';
  t.teardown(() => {
    if (saved !== undefined) process.env['DISPLAY'] = saved;
    else delete process.env['DISPLAY'];
  });
  const hub = await startHub(t, { connections: { keys: { type: 'keyboard', outputKeys: ['a'] } } });
  t.like(hub.connection('keys')?.status, { status: 'failed' });
  t.regex(hub.connection('keys')?.status.reason ?? '', /cannot use X display :987/);
});

test('unknown key names and repeated combinations are flow-file errors with their paths', (t) => {
  const result = validateFlow(
    {
      connections: {
        keys: {
          type: 'keyboard',
          inputKeys: ['ctrl-f1', 'Ctrl-F25', 'shift-ctrl-a', 'ctrl-shift-A', 'ctrl-shift'],
          outputKeys: ['hyper-x', 'a-b'],
        },
      },
    },
    '/virtual/flow.json5',
  );
  t.false(result.ok);
  if (result.ok) return;
  const messages = result.issues.map(formatIssue);
  t.is(messages.length, 5);
  t.regex(
    messages[0] ?? '',
    /^connections\.keys\.inputKeys\[1\]: "Ctrl-F25": unknown key name "f25"; expected ctrl, shift, alt, meta, a–z, 0–9, f1–f24, space, enter/,
  );
  t.is(messages[1], 'connections.keys.inputKeys[3]: "ctrl-shift-A" is the same combination as inputKeys[2] (ctrl-shift-a)');
  t.is(messages[2], 'connections.keys.inputKeys[4]: "ctrl-shift" has no key besides its modifiers');
  t.regex(messages[3] ?? '', /^connections\.keys\.outputKeys\[0\]: "hyper-x": unknown key name "hyper"/);
  t.is(messages[4], 'connections.keys.outputKeys[1]: "a-b" has two keys (a, b); a combination is modifiers and one key');
});
