import test from 'ava';
import { errorAnswer, parseClientMessage } from '../../lib/http/ws-messages.ts';

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
