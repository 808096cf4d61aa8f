import test from 'ava';
import EJSON from 'ejson';
import { ModuleIpc } from '../../../lib/connections/companion-module/module-ipc.ts';
import { realTime } from '../../../lib/core/scheduler.ts';
import { LONG_PAYLOAD, PayloadReader } from '../../../lib/connections/companion-module/payload-reading.ts';

// A module's long payload is read off the hub's loop (R-CM8), and gives what a parse of the whole gives.

const variables = (count: number) => ({
  variables: Array.from({ length: count }, (_, n) => ({ id: `v${n}`, name: `Variable ${n}` })),
  newValues: Array.from({ length: count }, (_, n) => ({ id: `v${n}`, value: n % 3 === 0 ? `text ${n}` : n })),
  label: 'desk',
  nested: { list: [1, [2, 3], { a: null }] },
});

test('a long payload read in turns is what JSON.parse makes of it, EJSON types and a __proto__ key too', async (t) => {
  const reader = new PayloadReader();
  const text = JSON.stringify(variables(30_000));
  t.true(text.length > LONG_PAYLOAD);
  t.deepEqual(await reader.read(text, JSON.parse), JSON.parse(text));

  const dated = EJSON.stringify({ when: new Date(1_700_000_000_000), list: [{ at: new Date(0) }], ...variables(5000) });
  t.deepEqual(await reader.read(dated, (part) => EJSON.parse(part)), EJSON.parse(dated));

  const own = await reader.read('{"__proto__":{"polluted":true},"list":[1]}', JSON.parse);
  t.deepEqual(Object.keys(own as object), ['__proto__', 'list']);
  t.is(({} as Record<string, unknown>)['polluted'], undefined);
  t.is(await reader.read('[1,2,3]', JSON.parse).then((value) => JSON.stringify(value)), '[1,2,3]', 'no object: parsed whole');
});

test("a long payload that is no JSON is refused with the parser's reason, and the next is read", async (t) => {
  const reader = new PayloadReader();
  const broken = `${JSON.stringify(variables(10_000)).slice(0, -10)}`;
  await t.throwsAsync(reader.read(broken, JSON.parse), { message: /JSON/ });
  t.deepEqual(await reader.read('{"a":[1]}', JSON.parse), { a: [1] });
});

test('the messages of a module are handled in the order they came, a long one before those after it', async (t) => {
  const handled: string[] = [];
  const call = (name: string) => (payload: unknown) => {
    handled.push(
      `${name}:${Array.isArray((payload as { variables?: unknown[] }).variables) ? (payload as { variables: unknown[] }).variables.length : ''}`,
    );
  };
  const ipc = new ModuleIpc(() => {}, { setVariableDefinitions: call('definitions'), setVariableValues: call('values') }, realTime);
  // What the module's channel read, in the order it came.
  const sent = (message: unknown) => ipc.received(message);
  const message = (name: string, payload: unknown) => ({ direction: 'call', name, payload: JSON.stringify(payload) });
  sent(message('setVariableDefinitions', variables(30_000)));
  sent(message('setVariableValues', { newValues: [{ id: 'v1', value: 2 }] }));
  sent(message('setVariableDefinitions', { variables: [] }));
  await new Promise<void>((resolve) => {
    const look = () => (handled.length === 3 ? resolve() : setTimeout(look, 10));
    look();
  });
  t.deepEqual(handled, ['definitions:30000', 'values:', 'definitions:0']);
});
