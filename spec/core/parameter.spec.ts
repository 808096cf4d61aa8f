import test from 'ava';
import type { Cause } from '../../lib/core/cause.ts';
import type { ParameterHooks } from '../../lib/core/parameter.ts';
import { createParameter, onChange } from '../../lib/core/parameter.ts';
import { MOST_CHOICES_TEXT } from '../../lib/core/parameter-meta.ts';
import type { Value } from '../../lib/core/value.ts';

const collect = (observable: { subscribe(f: (v: Value) => void): unknown }) => {
  const seen: Value[] = [];
  observable.subscribe((v) => seen.push(v));
  return seen;
};

test('a state parameter starts unknown and tells nobody until its first value', (t) => {
  const p = createParameter('c', 'x', { type: 'I', access: 'read-write' });
  const values = collect(p.values$);
  t.is(p.value, undefined);
  t.deepEqual(values, []);
  t.deepEqual(p.set('5'), { ok: true, value: true });
  t.is(p.value, 5);
  t.deepEqual(values, [5]);
});

test('a connection may give a state parameter its value at start', (t) => {
  const p = createParameter('c', 'x', { type: 'F', access: 'read-only', initial: '0.5' });
  t.is(p.value, 0.5);
  t.deepEqual(collect(p.values$), [0.5]);
  t.deepEqual(collect(p.changes$), [], 'changes$ does not replay the current value');
});

test('writing the value a parameter already holds is accepted and notifies nobody', (t) => {
  const p = createParameter('c', 'x', { type: 'B', access: 'read-write' });
  const changes = collect(p.changes$);
  t.deepEqual(p.set('on'), { ok: true, value: true });
  t.deepEqual(p.set(1), { ok: true, value: false });
  t.deepEqual(p.set('yes'), { ok: true, value: false });
  t.deepEqual(p.set(false), { ok: true, value: true });
  t.deepEqual(changes, [true, false]);
});

test('a trigger has no state and notifies on every fire', (t) => {
  const p = createParameter('c', 'go', { type: 'T', access: 'read-write' });
  const fires = collect(p.values$);
  p.set(null);
  p.set(null);
  p.set('anything');
  t.deepEqual(fires, [true, true, true]);
  t.is(p.value, undefined);
});

test('a rejected write names the parameter, type and value and keeps the previous value', (t) => {
  const p = createParameter('studio', 'count', { type: 'I', access: 'read-write', initial: 7 });
  const changes = collect(p.changes$);
  const result = p.set('lots');
  t.false(result.ok);
  if (!result.ok) {
    t.is(result.error.code, 'PB_CONVERSION');
    t.is(result.error.message, 'studio/count: cannot convert "lots" to integer: not a decimal number');
  }
  t.is(p.value, 7);
  t.deepEqual(changes, []);
});

test('a read-only parameter refuses writes but its connection can report values', (t) => {
  const p = createParameter('c', 'level', { type: 'F', access: 'read-only' });
  const result = p.set(1);
  t.false(result.ok);
  if (!result.ok) t.is(result.error.code, 'PB_READ_ONLY');
  t.is(p.value, undefined);
  t.true(p.report('0.25').ok);
  t.is(p.value, 0.25);
});

test('a write-only parameter remembers the last value sent, and its connection sees every write', (t) => {
  const written: Value[] = [];
  const p = createParameter('c', 'out', { type: 'S', access: 'write-only', onWrite: (v) => written.push(v) });
  p.set('a');
  p.set('a');
  p.set(2);
  t.is(p.value, '2');
  t.deepEqual(written, ['a', 'a', '2'], 'repeated writes still reach the connection');
});

test('a listener that writes while being notified does not reorder what others see', (t) => {
  const p = createParameter('c', 'x', { type: 'I', access: 'read-write' });
  const first: Value[] = [];
  const second: Value[] = [];
  p.changes$.subscribe((v) => {
    first.push(v);
    if (v === 1) p.set(2);
  });
  p.changes$.subscribe((v) => second.push(v));
  p.set(1);
  t.deepEqual(first, [1, 2]);
  t.deepEqual(second, [1, 2]);
  t.is(p.value, 2);
});

test('a subscriber joining mid-delivery gets the delivered value, then the queued one', (t) => {
  const p = createParameter('c', 'x', { type: 'I', access: 'read-write' });
  let late: Value[] = [];
  p.changes$.subscribe((v) => {
    if (v === 1) {
      p.set(2);
      late = collect(p.values$);
    }
  });
  p.set(1);
  t.deepEqual(late, [1, 2]);
});

test('a write made while the parameter notifies is delivered with the cause it was made in', (t) => {
  // A tracker whose chain is one name: what is writing now.
  let current: Cause;
  const events: string[] = [];
  const causes: ParameterHooks = {
    tracker: {
      capture: () => current,
      resume(cause) {
        events.push(`resume ${JSON.stringify(cause)}`);
        current = cause;
      },
      end() {
        events.push('end');
        current = undefined;
      },
    },
  };
  const p = createParameter('c', 'x', { type: 'I', access: 'read-write' }, causes);
  p.changes$.subscribe((v) => {
    events.push(`deliver ${v} with ${JSON.stringify(current)}`);
    if (v === 1) {
      current = { writer: 'listener' };
      p.set(2);
      current = undefined;
    }
  });
  p.set(1);
  t.deepEqual(events, ['deliver 1 with undefined', 'resume {"writer":"listener"}', 'deliver 2 with {"writer":"listener"}', 'end']);
});

test('an initial value that does not convert is refused', (t) => {
  t.throws(() => createParameter('c', 'x', { type: 'B', access: 'read-write', initial: 'maybe' }), {
    message: /c\/x: cannot convert "maybe" to boolean/,
  });
});

test('a parameter owned elsewhere forwards converted writes and changes only when its owner reports', (t) => {
  const forwarded: [Value, string | undefined][] = [];
  const mirror = createParameter('other-hub', 'fader', {
    type: 'F',
    access: 'read-write',
    forward: (value, origin) => {
      forwarded.push([value, origin]);
      return { ok: true, value: true };
    },
  });
  const seen = collect(mirror.changes$);
  t.true(mirror.answersLater);
  t.true(mirror.mirrored, 'its value lives elsewhere: this hub neither publishes nor shares it');
  t.deepEqual(mirror.set('0.75', 'ws'), { ok: true, value: true });
  t.deepEqual(forwarded, [[0.75, 'ws']], 'the owner gets the converted value and who wrote it');
  t.is(mirror.value, undefined, 'nothing is stored until the owner answers');
  t.deepEqual(seen, []);
  mirror.report(0.75);
  t.is(mirror.value, 0.75);
  t.deepEqual(seen, [0.75]);
  t.false(mirror.set('loud').ok, 'a write that does not convert never leaves the hub');
  t.is(forwarded.length, 1);
});

test("a parameter owned here whose writes go to a device answers later, and is this hub's own, not a mirror", (t) => {
  const sent: Value[] = [];
  const gain = createParameter('desk', 'gain', {
    type: 'F',
    access: 'read-write',
    ownedHere: true,
    forward: (value) => {
      sent.push(value);
      return { ok: true, value: true };
    },
  });
  t.true(gain.answersLater);
  t.false(gain.mirrored, "published and shared as any of this hub's parameters");
  t.deepEqual(gain.set(0.5), { ok: true, value: true });
  t.deepEqual(sent, [0.5]);
  t.is(gain.value, undefined, 'it changes when the device says so');
});

test('a parameter says whether the hub keeps its value', (t) => {
  t.true(createParameter('vars', 'kept', { type: 'S', access: 'read-write', persist: true }).persist);
  t.false(createParameter('vars', 'passing', { type: 'S', access: 'read-write' }).persist);
});

test('a parameter says what it is (R-PK6): a write outside its range or its choices is refused naming them; a report is not', (t) => {
  const level = createParameter('desk', 'level', {
    type: 'F',
    access: 'read-write',
    meta: { label: 'Level', unit: 'dB', minimum: -60, maximum: 10, step: 0.5 },
  });
  t.deepEqual(level.meta, { label: 'Level', unit: 'dB', minimum: -60, maximum: 10, step: 0.5 });
  t.deepEqual(level.set('-6.5'), { ok: true, value: true });
  const above = level.set(12);
  t.false(above.ok);
  if (!above.ok) {
    t.is(above.error.code, 'PB_CONVERSION');
    t.is(above.error.message, 'desk/level: 12 is outside its range, -60 to 10');
  }
  t.is(level.value, -6.5, 'the refused write changed nothing');
  t.deepEqual(level.report(12), { ok: true, value: true }, 'what the device says is taken as it is');

  // Choices written as text for an integer parameter are held as integers.
  const input = createParameter('router', 'output/1/input', {
    type: 'I',
    access: 'read-write',
    meta: { choices: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({ value: String(n), label: `Camera ${n}` })) },
  });
  t.deepEqual(input.meta?.choices?.[0], { value: 1, label: 'Camera 1' });
  t.true(input.set('3').ok);
  const refused = input.set(11);
  t.false(refused.ok);
  if (!refused.ok)
    t.is(
      refused.error.message,
      'router/output/1/input: 11 is not one of its choices: 1 (Camera 1), 2 (Camera 2), 3 (Camera 3), 4 (Camera 4), 5 (Camera 5), 6 (Camera 6), 7 (Camera 7), 8 (Camera 8) and 2 more',
    );

  // Said anew: the new choices hold from then on.
  input.describe({ choices: [{ value: 11, label: 'Replay' }] });
  t.true(input.set(11).ok);
  t.false(input.set(3).ok);
  // No choices at all (a router without serial ports): the refusal says so, not an empty list.
  input.describe({ choices: [] });
  const none = input.set(2);
  if (!none.ok) t.is(none.error.message, 'router/output/1/input: 2 is not one of its choices: it has none');
  else t.fail('a value refused when there are no choices');
  input.describe(undefined);
  t.is(input.meta, undefined);
  t.true(input.set(99).ok, 'a parameter that says nothing takes any value of its type');

  t.throws(() => createParameter('c', 'x', { type: 'I', access: 'read-write', meta: { choices: [{ value: 'one', label: 'One' }] } }), {
    message: /c\/x: its choice One:/,
  });
  t.is(createParameter('c', 'y', { type: 'S', access: 'read-write', meta: {} }).meta, undefined, 'an empty meta says nothing');
});

test("a parameter's choices, its arguments' too, are cut to MOST_CHOICES_TEXT characters: 10,000 of 4,000 characters keep what fits, the first ones", (t) => {
  const long = Array.from({ length: 10_000 }, (_, n) => ({ value: `${n}:${'x'.repeat(4000)}`, label: `Input ${n}` }));
  const router = createParameter('mixer', 'route', {
    type: 'S',
    access: 'read-write',
    meta: { label: 'Route', choices: long },
  });
  const kept = router.meta?.choices ?? [];
  t.true(kept.length > 0 && kept.length < 100, `${kept.length} kept`);
  t.deepEqual(kept, long.slice(0, kept.length), 'the first ones, as declared');
  t.true(JSON.stringify(router.meta).length < MOST_CHOICES_TEXT + 64 * kept.length, 'the meta within the bound');
  t.false(router.set(long[9999]?.value ?? '').ok, 'a choice left out is refused as any other not declared');

  const command = createParameter('mixer', 'recall', {
    type: 'S',
    access: 'write-only',
    meta: { arguments: { a: { type: 'S', choices: long }, b: { type: 'S', choices: long } } },
  });
  const args = command.meta?.arguments ?? {};
  t.true((args['a']?.choices?.length ?? 0) > 0);
  t.is(args['b']?.choices?.length, 0, 'the budget is the parameter’s: spent on the first argument');
  const short = createParameter('mixer', 'input', {
    type: 'I',
    access: 'read-write',
    meta: { choices: [{ value: 1, label: 'Camera 1' }] },
  });
  t.deepEqual(short.meta, { choices: [{ value: 1, label: 'Camera 1' }] }, 'short choices as they are');
});

test('a command with arguments (R-PK8): its write is a JSON object checked against them, passed on with each converted; anything else is refused naming what is expected', (t) => {
  const sent: Value[] = [];
  const recall = createParameter('mixer', 'recall', {
    type: 'S',
    access: 'write-only',
    meta: {
      label: 'Recall',
      arguments: {
        scene: {
          type: 'I',
          choices: [
            { value: '1', label: 'Opening' },
            { value: 2, label: 'Interview' },
          ],
        },
        fade: { type: 'F', unit: 's', minimum: 0, maximum: 10, optional: true },
        cut: { type: 'B', optional: true },
      },
    },
    forward: (value) => {
      sent.push(value);
      return { ok: true, value: true };
    },
  });
  t.deepEqual(recall.meta?.arguments?.['scene']?.choices, [
    { value: 1, label: 'Opening' },
    { value: 2, label: 'Interview' },
  ]);
  t.true(recall.set('{"fade": "2.5", "scene": "1", "cut": "on"}').ok);
  t.deepEqual(sent[0], '{"scene":1,"fade":2.5,"cut":true}', 'converted, in the declared order');
  // The object itself, as a JSON body or a WebSocket message carries it, is its text.
  t.true(recall.set({ scene: 2, fade: 1 }).ok);
  t.deepEqual(sent[1], '{"scene":2,"fade":1}', 'an object written as a command is taken as its JSON text');
  const listed = recall.set(['scene', 2]);
  if (!listed.ok) t.is(listed.error.message, 'mixer/recall: cannot convert an array to string');
  else t.fail('an array is no command');
  for (const [written, why] of [
    ['{"scene": 3}', 'mixer/recall: argument "scene": 3 is not one of its choices: 1 (Opening), 2 (Interview)'],
    ['{"scene": 1, "fade": 11}', 'mixer/recall: argument "fade": 11 is outside its range, 0 to 10'],
    ['{"fade": 1}', 'mixer/recall: argument "scene" is missing: expected a JSON object of scene, fade, cut'],
    ['{"scene": 1, "speed": 2}', 'mixer/recall: it takes no argument "speed": expected a JSON object of scene, fade, cut'],
    ['scene 1', 'mixer/recall: "scene 1" is not JSON: expected a JSON object of scene, fade, cut'],
    ['null', 'mixer/recall: expected a JSON object of scene, fade, cut'],
  ] as const) {
    const refused = recall.set(written);
    t.false(refused.ok, written);
    if (!refused.ok) t.deepEqual([refused.error.code, refused.error.message], ['PB_CONVERSION', why]);
  }
  t.is(sent.length, 2, 'nothing refused was passed on');
  t.throws(() => createParameter('mixer', 'level', { type: 'F', access: 'read-write', meta: { arguments: {} } }), {
    message: 'mixer/level: a command with arguments is a text parameter (S), not F',
  });
});

test('onChange hears every change as changes$ does, and once stopped nothing more, not even the rest of a delivery under way', (t) => {
  const p = createParameter('c', 'level', { type: 'I', access: 'read-write', initial: 0 });
  const heard: string[] = [];
  let stopSecond = () => {};
  const stopFirst = onChange(p, (value) => {
    heard.push(`first ${value}`);
    if (value === 2) stopSecond();
  });
  stopSecond = onChange(p, (value) => heard.push(`second ${value}`));
  const viaRx: Value[] = [];
  const subscription = p.changes$.subscribe((value) => viaRx.push(value));
  p.set(1);
  p.set(2);
  p.set(3);
  stopFirst();
  p.set(4);
  subscription.unsubscribe();
  t.deepEqual(heard, ['first 1', 'second 1', 'first 2', 'first 3']);
  t.deepEqual(viaRx, [1, 2, 3, 4]);
});
