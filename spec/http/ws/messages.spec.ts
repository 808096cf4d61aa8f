import test from 'ava';
import { errorAnswer, MAX_BATCH_ITEMS, parseClientMessage } from '../../../lib/http/ws/messages.ts';

const message = (text: string) => new TextEncoder().encode(text);
const SHAPE = 'expected {"p":"<address>","v":<value>} or an array of them';

/** Each item as [p, v] for a write or [p, code, reason] for an error. */
const summary = (text: string | Uint8Array) =>
  parseClientMessage(typeof text === 'string' ? message(text) : text).map((item) =>
    item.ok ? [item.p, item.v] : [item.p, item.error.code, item.error.message],
  );

test('{p, v} is one write, with v as any JSON value', (t) => {
  t.deepEqual(summary('{"p":"studio/count","v":"7.9"}'), [['studio/count', '7.9']]);
  t.deepEqual(summary('{"p":"studio/cue","v":null}'), [['studio/cue', null]]);
  t.deepEqual(summary('{"p":"studio/level","v":{"n":1}}'), [['studio/level', { n: 1 }]], 'conversion is the parameter’s job');
});

test('an array is a batch whose items keep their order, good and bad alike', (t) => {
  t.deepEqual(summary('[{"p":"a/x","v":1},{"v":2},{"p":"a/y","v":true},7]'), [
    ['a/x', 1],
    [null, 'PB_BAD_REQUEST', SHAPE],
    ['a/y', true],
    [null, 'PB_BAD_REQUEST', SHAPE],
  ]);
  t.deepEqual(summary('[]'), []);
});

test('a message that is not UTF-8 JSON is one error without an address', (t) => {
  for (const bad of [message('not json'), message('{'), message(''), new Uint8Array([0xff, 0xfe, 0x7b])]) {
    t.deepEqual(summary(bad), [[null, 'PB_BAD_REQUEST', 'the message is not UTF-8 JSON']]);
  }
});

test('an item of the wrong shape is an error that keeps its address when it has one', (t) => {
  t.deepEqual(summary('{"p":"studio/count"}'), [['studio/count', 'PB_BAD_REQUEST', SHAPE]]);
  for (const bad of ['42', 'null', '"text"', '{"v":1}', '{"p":5,"v":1}', '[[{"p":"a/x","v":1}]]']) {
    t.deepEqual(summary(bad), [[null, 'PB_BAD_REQUEST', SHAPE]], bad);
  }
});

test('an error answer is {p, error, code}', (t) => {
  t.deepEqual(JSON.parse(errorAnswer('studio/x', { code: 'PB_READ_ONLY', message: 'studio/x is read-only' })), {
    p: 'studio/x',
    error: 'studio/x is read-only',
    code: 'PB_READ_ONLY',
  });
  t.is(errorAnswer(null, { code: 'PB_BAD_REQUEST', message: 'bad' }), '{"p":null,"error":"bad","code":"PB_BAD_REQUEST"}');
});

test('a batch of more than 1,000 items is one refusal with PB_BATCH_TOO_LARGE and no write at all', (t) => {
  t.is(MAX_BATCH_ITEMS, 1000);
  const items = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ p: 'a/x', v: i })));
  t.is(summary(items(1000)).length, 1000);
  const refusal = [[null, 'PB_BATCH_TOO_LARGE', 'a batch holds at most 1000 items; this one has more, so none of it was written']];
  t.deepEqual(summary(items(1001)), refusal);
  // Counted without an object made per item: half a million numbers in a megabyte.
  t.deepEqual(summary(`[${Array(520_000).fill('1').join(',')}]`), refusal);
  t.deepEqual(
    summary(` [ "a,b" , {"p":"a/x","v":[1,2,3]} ${',1'.repeat(1000)}]`),
    refusal,
    'commas in strings and nested values do not count',
  );
  t.is(summary(`[{"p":"a/x","v":"${','.repeat(5000)}"},{"p":"a/y","v":[${'1,'.repeat(5000)}1]}]`).length, 2);
});
