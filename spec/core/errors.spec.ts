import { readFile } from 'node:fs/promises';
import test from 'ava';
import { asHubError, errorTable, HubError, reasonOf, statusOf } from '../../lib/core/errors.ts';

test('docs/reference/errors.md documents every error code with its status and text, and no others', async (t) => {
  const page = await readFile(new URL('../../docs/reference/errors.md', import.meta.url), 'utf8');
  const rows = [...page.matchAll(/^\| `(PB_[A-Z_]+)` \| (\d{3}) \| (.+) \|$/gm)].map(([, code, status, text]) => [
    code,
    { status: Number(status), text },
  ]);
  t.deepEqual(Object.fromEntries(rows), { ...errorTable });
});

test('codes are stable identifiers: upper case with the PB_ prefix', (t) => {
  for (const code of Object.keys(errorTable)) t.regex(code, /^PB_[A-Z]+(_[A-Z]+)*$/);
});

test('every code has an HTTP status of the error classes', (t) => {
  for (const code of Object.keys(errorTable) as (keyof typeof errorTable)[]) {
    t.true(statusOf(code) >= 400 && statusOf(code) < 600, code);
  }
});

test('anything thrown becomes text and a HubError, keeping a code it already has', (t) => {
  t.is(reasonOf(new Error('boom')), 'boom');
  t.is(reasonOf('plain'), 'plain');
  t.is(
    reasonOf({ code: 111, name: 'remote control disabled' }),
    '{"code":111,"name":"remote control disabled"}',
    "a device's answer, as a library rejects with it",
  );
  const loop: Record<string, unknown> = {};
  loop['self'] = loop;
  t.is(reasonOf(loop), '[object Object]', 'what JSON cannot say');
  const coded = new HubError('PB_BAD_TEMPLATE', 'bad');
  t.is(asHubError(coded, 'PB_START_FAILED'), coded);
  const wrapped = asHubError(new Error('disk on fire'), 'PB_START_FAILED');
  t.is(wrapped.code, 'PB_START_FAILED');
  t.is(wrapped.message, 'disk on fire');
});
