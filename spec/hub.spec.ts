import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Type } from '@sinclair/typebox';
import type { Flow } from '../lib/config/flow-file.ts';
import { noPlugins } from '../lib/config/plugins.ts';
import { type ConnectionConfig, type ConnectionType, connectionTypeOf, fingerprintOf } from '../lib/connections/connection.ts';
import { asWritten, defineConnectionType } from '../lib/sdk/index.ts';
import { Hub } from '../lib/hub/hub.ts';
import { capturedLog, configOf as configOfType, flowOf, param, startHub } from './helpers/hub.ts';

/** A connection type that records its lifecycle and can be told to fail or degrade. */
function probeType(events: string[], behaviour: { failStart?: boolean; failStop?: boolean; degrade?: string } = {}): ConnectionType {
  return connectionTypeOf(
    defineConnectionType({
      type: 'probe',
      summary: 'records its lifecycle',
      settings: Type.Object({}),
      parse: asWritten,
      create(context) {
        return {
          async start() {
            context.define('value', { type: 'I', access: 'read-write', initial: 1 });
            events.push(`start ${context.id}`);
            await Promise.resolve();
            if (behaviour.failStart) throw new Error('device not answering');
            if (behaviour.degrade) context.setStatus('degraded', behaviour.degrade, 'PB_FILE_WRITE');
          },
          stop() {
            events.push(`stop ${context.id}`);
            if (behaviour.failStop) throw new Error('stuck');
          },
        };
      },
    }),
  );
}

const configOf = (id: string, type: ConnectionType, overrides: Partial<ConnectionConfig['common']> = {}) =>
  configOfType(id, type, { statusParameters: true, persist: true, ...overrides });
const flowWith = (...connections: ConnectionConfig[]): Flow => ({
  path: '/virtual/flow.json5',
  baseDir: '/virtual',
  connections,
  rules: [],
  flows: [],
  durability: 'process',
  diagnostics: [],
  warnings: [],
  plugins: noPlugins,
});

test('connections start in flow order and stop in reverse order', async (t) => {
  const events: string[] = [];
  const hub = new Hub({
    flow: flowWith(configOf('a', probeType(events)), configOf('b', probeType(events)), configOf('c', probeType(events))),
  });
  await hub.start();
  await hub.stop();
  t.deepEqual(events, ['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
});

test('a connection whose start throws is failed with its reason while the others run', async (t) => {
  const events: string[] = [];
  const hub = new Hub({
    flow: flowWith(
      configOf('a', probeType(events)),
      configOf('broken', probeType(events, { failStart: true })),
      configOf('c', probeType(events)),
    ),
  });
  t.teardown(() => hub.stop());
  await hub.start();
  t.deepEqual(hub.connection('broken')?.status, { status: 'failed', reason: 'device not answering', code: 'PB_START_FAILED' });
  t.is(hub.connection('a')?.status.status, 'ok');
  t.is(hub.connection('c')?.status.status, 'ok');
  t.is(hub.graph.get('broken/value'), undefined, "a failed connection's parameters are removed");
  t.is(param(hub, 'broken/_status/connected').value, false);
  t.is(param(hub, 'c/value').value, 1);
  // Started side by side: c starts while broken's start is still failing.
  t.deepEqual(events, ['start a', 'start broken', 'start c', 'stop broken']);
});

test('a stop that throws does not keep the others from stopping', async (t) => {
  const events: string[] = [];
  const hub = new Hub({ flow: flowWith(configOf('a', probeType(events)), configOf('b', probeType(events, { failStop: true }))) });
  await hub.start();
  await hub.stop();
  t.deepEqual(events.slice(2), ['stop b', 'stop a']);
});

test('stop is idempotent', async (t) => {
  const events: string[] = [];
  const hub = new Hub({ flow: flowWith(configOf('a', probeType(events))) });
  await hub.start();
  await Promise.all([hub.stop(), hub.stop()]);
  await hub.stop();
  t.deepEqual(events, ['start a', 'stop a']);
});

test('_status/connected is true while working, degraded for a passing problem included, and false once stopped (R-L1; a device away is R-DV5)', async (t) => {
  const events: string[] = [];
  const hub = new Hub({ flow: flowWith(configOf('a', probeType(events)), configOf('d', probeType(events, { degrade: 'link slow' }))) });
  await hub.start();
  const connected = param(hub, 'a/_status/connected');
  t.is(connected.type, 'B');
  t.is(connected.access, 'read-only');
  t.is(connected.value, true);
  t.deepEqual(hub.connection('d')?.status, { status: 'degraded', reason: 'link slow', code: 'PB_FILE_WRITE' });
  t.is(param(hub, 'd/_status/connected').value, true);
  await hub.stop();
  t.is(connected.value, false);
});

test('a disabled connection is not started; its status says so', async (t) => {
  const events: string[] = [];
  const hub = new Hub({ flow: flowWith(configOf('off', probeType(events), { enabled: false })) });
  t.teardown(() => hub.stop());
  await hub.start();
  t.deepEqual(events, []);
  t.deepEqual(hub.connection('off')?.status, { status: 'disabled', reason: '' });
  t.is(param(hub, 'off/_status/connected').value, false);
});

test('without statusParameters there is no _status parameter', async (t) => {
  const events: string[] = [];
  const hub = new Hub({ flow: flowWith(configOf('a', probeType(events), { statusParameters: false })) });
  t.teardown(() => hub.stop());
  await hub.start();
  t.is(hub.graph.get('a/_status/connected'), undefined);
});

test('common settings are accepted by every connection type', (t) => {
  const flow = flowOf({
    connections: {
      s: {
        type: 'dummy',
        enabled: false,
        description: 'Studio',
        location: 'Rack 2',
        group: 'audio',
        debug: true,
        statusParameters: true,
        persist: false,
      },
    },
  });
  t.deepEqual(flow.connections[0]?.common, {
    enabled: false,
    description: 'Studio',
    location: 'Rack 2',
    group: 'audio',
    debug: true,
    statusParameters: true,
    persist: false,
  });
  t.is(flow.connections[0]?.plan.fingerprint, fingerprintOf({}), 'the common settings are not among its own');
});

test('the start and reload lines count in words: one connection, one parameter, one rule', async (t) => {
  const { log, lines } = capturedLog();
  const document = {
    connections: { studio: { type: 'dummy', parameters: ['a,I', 'b,I'] } },
    rules: [{ source: 'studio/a', destinations: ['studio/b'] }],
  };
  const hub = await startHub(t, { connections: { studio: { type: 'dummy', parameters: ['a,I'] } } }, { log });
  await hub.reload(flowOf(document));
  const messages = lines().map((l) => l.msg);
  t.true(messages.includes('running: 1 connection, 1 parameter, 0 rules'), messages.join('\n'));
  t.true(messages.includes('reloaded: 1 kept (1 updated in place), 0 restarted, 0 added, 0 removed, 1 rule'), messages.join('\n'));
});

test('rules that touch a failed connection say that it failed, not that a parameter is missing', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'patchbay-failed-'));
  await mkdir(join(dir, 'www'));
  const flow = flowOf(
    {
      connections: {
        studio: { type: 'dummy', parameters: ['level,F'] },
        files: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', documentRoot: 'www' },
      },
      rules: [{ source: 'studio/level', destinations: ['files/level'] }],
    },
    dir,
  );
  await rm(join(dir, 'www'), { recursive: true });
  const hub = new Hub({ flow });
  t.teardown(() => hub.stop());
  await hub.start();
  t.like(
    hub.problems().find((p) => p.source === 'rule'),
    {
      id: 'rules[0]',
      code: 'PB_DOCUMENT_ROOT',
      message: `destination files/level: connection "files" failed: documentRoot ${join(dir, 'www')} does not exist`,
    },
  );
});
