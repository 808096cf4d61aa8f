import test from 'ava';
import type { ErrorCode, Result } from '../../lib/core/errors.ts';
import { BodyType, bodyFields, bodyTypeOf, checkSize, decodeUtf8, formFields, isJsonType, jsonFields } from '../../lib/http/body.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

/** The code and message of a failed result, for one-line assertions. */
function failure<T>(result: Result<T>): [ErrorCode, string] | 'ok' {
  return result.ok ? 'ok' : [result.error.code, result.error.message];
}

test('a form or JSON body type is accepted whatever its parameters and case', (t) => {
  t.deepEqual(bodyTypeOf('application/x-www-form-urlencoded'), { ok: true, value: BodyType.Form });
  t.deepEqual(bodyTypeOf('Application/JSON; charset=utf-8'), { ok: true, value: BodyType.Json });
  t.deepEqual(bodyTypeOf(' application/json '), { ok: true, value: BodyType.Json });
});

test('any other body type is refused with 415 and says which types to send', (t) => {
  for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/xml', '', 'application/jsonx']) {
    t.deepEqual(
      failure(bodyTypeOf(type)),
      ['PB_UNSUPPORTED_MEDIA_TYPE', 'send the fields as application/x-www-form-urlencoded or application/json'],
      type,
    );
  }
});

test('a client that sends JSON is recognised by its Content-Type alone', (t) => {
  t.true(isJsonType('application/json; charset=utf-8'));
  t.false(isJsonType('application/x-www-form-urlencoded'));
  t.false(isJsonType(''));
});

test('a body up to the limit passes and one byte more is refused with 413', (t) => {
  t.deepEqual(checkSize(65_536, 65_536), { ok: true, value: 65_536 });
  t.deepEqual(failure(checkSize(65_537, 65_536)), ['PB_BODY_TOO_LARGE', 'the body is over 65536 bytes']);
});

test('UTF-8 text decodes; bytes that are not UTF-8 are refused, never replaced', (t) => {
  t.deepEqual(decodeUtf8(bytes('Morning Show — ☀')), { ok: true, value: 'Morning Show — ☀' });
  for (const bad of [
    [0xff, 0xfe],
    [0xc0, 0xae],
    [0x61, 0xe0, 0xa4],
  ]) {
    t.deepEqual(failure(decodeUtf8(new Uint8Array(bad))), ['PB_BAD_REQUEST', 'the body is not valid UTF-8']);
  }
});

test('a form gives the address and the value as text', (t) => {
  t.deepEqual(formFields(new URLSearchParams('parameter=studio%2Ftitle&value=News+%26+Weather')), {
    ok: true,
    value: { parameter: 'studio/title', value: 'News & Weather' },
  });
  t.deepEqual(
    formFields(new URLSearchParams('parameter=studio/cue&value=')),
    { ok: true, value: { parameter: 'studio/cue', value: '' } },
    'an empty value is a value',
  );
});

test('a form without an address or a value is refused, naming the field', (t) => {
  for (const query of ['value=1', 'parameter=&value=1', 'param=studio/count&value=1', '']) {
    t.deepEqual(failure(formFields(new URLSearchParams(query))), ['PB_BAD_REQUEST', 'missing field "parameter"'], query);
  }
  t.deepEqual(failure(formFields(new URLSearchParams('parameter=studio/count'))), ['PB_BAD_REQUEST', 'missing field "value"']);
});

test('a JSON object gives the address and any JSON value, null included', (t) => {
  for (const value of [0.75, true, 'text', null, [1], { n: 1 }]) {
    t.deepEqual(jsonFields(JSON.stringify({ parameter: 'studio/level', value })), {
      ok: true,
      value: { parameter: 'studio/level', value },
    });
  }
});

test('JSON that is not an object with both fields is refused with the reason', (t) => {
  const shape = 'expected a JSON object {"parameter": "<address>", "value": <value>}';
  const cases: [string, string][] = [
    ['{"parameter":', 'the body is not JSON'],
    ['', 'the body is not JSON'],
    ['[{"parameter":"studio/count","value":1}]', shape],
    ['null', shape],
    ['"studio/count"', shape],
    ['{"parameter":"studio/count"}', 'missing field "value"'],
    ['{"parameter":5,"value":1}', 'missing field "parameter"'],
    ['{"parameter":"","value":1}', 'missing field "parameter"'],
    ['{"value":1}', 'missing field "parameter"'],
  ];
  for (const [text, reason] of cases) t.deepEqual(failure(jsonFields(text)), ['PB_BAD_REQUEST', reason], text);
});

test('a whole body is decoded, then parsed by its type', (t) => {
  t.deepEqual(bodyFields(BodyType.Form, bytes('parameter=studio/title&value=Late+Show')), {
    ok: true,
    value: { parameter: 'studio/title', value: 'Late Show' },
  });
  t.deepEqual(bodyFields(BodyType.Json, bytes('{"parameter":"studio/cue","value":null}')), {
    ok: true,
    value: { parameter: 'studio/cue', value: null },
  });
  t.deepEqual(failure(bodyFields(BodyType.Form, new Uint8Array([0x70, 0xff]))), ['PB_BAD_REQUEST', 'the body is not valid UTF-8']);
  t.deepEqual(failure(bodyFields(BodyType.Json, bytes('parameter=studio/title&value=x'))), ['PB_BAD_REQUEST', 'the body is not JSON']);
});
