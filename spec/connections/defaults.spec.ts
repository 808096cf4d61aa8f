import { Type } from '@sinclair/typebox';
import test from 'ava';
import { connectionTypeOf } from '../../lib/connections/connection.ts';
import { asWritten, defineConnectionType, withDefault } from '../../lib/sdk/index.ts';
import { fillDefaults } from '../../lib/sdk/settings.ts';

const schema = Type.Object({
  port: withDefault(Type.Integer({ description: 'A port.' }), 17011),
  name: Type.Optional(Type.String({ description: 'No default.' })),
  pulses: withDefault(
    Type.Array(Type.Object({ interval: withDefault(Type.Integer({ description: 'ms' }), 1000), label: Type.String() })),
    [],
  ),
  lines: withDefault(Type.Array(Type.String()), []),
  limits: withDefault(Type.Object({ size: withDefault(Type.Integer(), 64), count: Type.Optional(Type.Integer()) }), {}),
});

test('a setting left out takes its default from the schema, at every depth, and the settings as written stay as they are', (t) => {
  const written = { pulses: [{ label: 'a' }, { label: 'b', interval: 20 }] };
  t.deepEqual(fillDefaults(schema, written), {
    port: 17011,
    pulses: [
      { label: 'a', interval: 1000 },
      { label: 'b', interval: 20 },
    ],
    lines: [],
    limits: { size: 64 },
  });
  t.deepEqual(written, { pulses: [{ label: 'a' }, { label: 'b', interval: 20 }] }, 'the flow document is not changed');
  t.deepEqual(
    fillDefaults(schema, {}),
    { port: 17011, pulses: [], lines: [], limits: { size: 64 } },
    "a default object gets its members' defaults",
  );
  t.deepEqual((fillDefaults(schema, { limits: { count: 2 } }) as { limits: unknown }).limits, { size: 64, count: 2 });
  const first = fillDefaults(schema, {}) as { pulses: unknown[] };
  first.pulses.push('x');
  t.deepEqual((fillDefaults(schema, {}) as { pulses: unknown[] }).pulses, [], 'each gets its own copy of a default');
});

test('a part of the settings whose schema holds no default is handed on untouched, not walked', (t) => {
  const lines = Array.from({ length: 1000 }, (_, i) => `p${i},F`);
  t.is((fillDefaults(schema, { lines }) as { lines: unknown }).lines, lines);
});

test("a type's parse receives its settings with the schema's defaults in place", (t) => {
  let seen: unknown;
  const type = defineConnectionType({
    type: 'probe',
    summary: 'A probe.',
    settings: schema,
    parse: (settings) => {
      seen = settings;
      // Typed as present: no default written a second time.
      const port: number = settings.port;
      const interval: number | undefined = settings.pulses[0]?.interval;
      return asWritten({ port, interval });
    },
    create: () => ({ start() {}, stop() {} }),
  });
  t.true(connectionTypeOf(type).prepare({ pulses: [{ label: 'x' }] }, { id: 'probe', baseDir: '/' }).ok);
  t.deepEqual(seen, { port: 17011, pulses: [{ label: 'x', interval: 1000 }], lines: [], limits: { size: 64 } });
});
