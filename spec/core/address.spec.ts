import test from 'ava';
import { checkParameterId, isConnectionId, parseAddress } from '../../lib/core/address.ts';

test('connection ids are 1–64 of a-z 0-9 - starting with a letter or digit', (t) => {
  for (const id of ['a', '0', 'studio-1', 'x'.repeat(64)]) t.true(isConnectionId(id), id);
  for (const id of ['', '-a', 'Studio', 'a_b', 'a.b', 'x'.repeat(65), 'a/b']) t.false(isConnectionId(id), id);
});

test('parameter ids are segments of A-Z a-z 0-9 _ - . joined by /', (t) => {
  for (const id of ['onair', 'mic/1/open', 'A.b-c_d', 'x'.repeat(128), `${'x'.repeat(128)}/y`]) t.true(checkParameterId(id).ok, id);
  for (const id of ['', '/a', 'a/', 'a//b', 'a b', 'x'.repeat(129), 'ä', 'a/./b', '..', 'a/..']) {
    const result = checkParameterId(id);
    t.false(result.ok, id);
    if (!result.ok) t.is(result.error.code, 'PB_BAD_ADDRESS');
  }
});

test('ids beginning with _ are reserved for the hub', (t) => {
  const result = checkParameterId('_status/connected');
  t.false(result.ok);
  if (!result.ok) t.is(result.error.code, 'PB_RESERVED_ID');
  t.true(checkParameterId('_status/connected', { reserved: true }).ok);
  t.true(checkParameterId('a/_b').ok, 'only the first character of the id is reserved');
});

test('an address splits at its first slash, so parameter ids may hold slashes', (t) => {
  t.deepEqual(parseAddress('studio/mic/1/open'), { ok: true, value: { connectionId: 'studio', parameterId: 'mic/1/open' } });
  t.deepEqual(parseAddress('api/_status/connected'), { ok: true, value: { connectionId: 'api', parameterId: '_status/connected' } });
  for (const bad of ['studio', 'Studio/x', '/x', 'studio/', 'studio/a b']) t.false(parseAddress(bad).ok, bad);
});
