/**
 * An ember-provider's doors (issue 44): which consumers it lets in (`allow`) and what they may
 * change (`write`), against emberplus-connection's own consumer.
 */
import { connect } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { EmberClient, Model } from 'emberplus-connection';
import { validateFlow } from '../../../lib/config/flow-file.ts';
import { formatIssue } from '../../../lib/core/issue.ts';
import { eventually } from '../../helpers/eventually.ts';
import { capturedLog, param, startHub } from '../../helpers/hub.ts';
import { freePort } from '../../helpers/ports.ts';

type Element = Model.TreeElement<Model.EmberElement>;

const studio = { studio: { type: 'dummy', parameters: ['onair,B,false', 'level,I,3', 'go,T'] } };

async function provider(t: ExecutionContext, settings: object) {
  const port = await freePort();
  const { log, lines } = capturedLog();
  const hub = await startHub(
    t,
    { connections: { ember: { type: 'ember-provider', port, bindIp: '127.0.0.1', expose: ['studio/#'], ...settings }, ...studio } },
    { log },
  );
  return { hub, port, lines };
}

async function consumer(t: ExecutionContext, port: number): Promise<EmberClient> {
  const client = new EmberClient('127.0.0.1', port, 3000);
  t.teardown(() => client.discard());
  client.on('error', () => {});
  await client.connect();
  await client.expand(client.tree as never);
  return client;
}

const at = async (client: EmberClient, path: string) => (await client.getElementByPath(path)) as Element;

test('a consumer whose scope shows studio/# but lets it change nothing sees it read-only, and its setValue and invoke are refused, the values kept', async (t) => {
  const { hub, port, lines } = await provider(t, {});
  const client = await consumer(t, port);
  const onair = await at(client, 'studio.onair');
  t.is((onair.contents as Model.Parameter).access, Model.ParameterAccess.Read);
  const answer = (await (await client.setValue(onair as never, true)).response) as Element;
  t.is((answer.contents as Model.Parameter).value, false, 'it is sent the value the hub kept');
  t.is(param(hub, 'studio/onair').value, false);
  const fires: unknown[] = [];
  param(hub, 'studio/go').changes$.subscribe((v) => fires.push(v));
  const go = await at(client, 'studio.go');
  const invoked = await (await client.invoke(go as never)).response;
  t.false((invoked as { success?: boolean } | undefined)?.success ?? false);
  t.deepEqual(fires, []);
  await eventually(() => lines().some((line) => /may not change studio\/onair/.test(line.msg)), 'the refusal logged');
  t.true(
    lines().some((line) => /consumers may change nothing; lets in every peer/.test(line.msg)),
    'the start line says what it lets in',
  );
});

test('write lets a consumer change what it matches, and nothing else', async (t) => {
  const { hub, port } = await provider(t, { write: ['studio/level'] });
  const client = await consumer(t, port);
  const level = await at(client, 'studio.level');
  t.is((level.contents as Model.Parameter).access, Model.ParameterAccess.ReadWrite);
  await (await client.setValue(level as never, 7)).response;
  t.is(param(hub, 'studio/level').value, 7);
  await (await client.setValue((await at(client, 'studio.onair')) as never, true)).response;
  t.is(param(hub, 'studio/onair').value, false);
});

test('a consumer from an address allow does not list is refused at once and counted; one it lists is served', async (t) => {
  const refused = await provider(t, { allow: ['10.9.9.0/24', 'fd00::1'] });
  // A consumer's TCP connection from 127.0.0.1: closed by the provider before a byte is read.
  const closed = await new Promise<boolean>((resolve) => {
    const socket = connect(refused.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.once('close', () => resolve(true));
    setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 2000);
  });
  t.true(closed, 'closed at once');
  await eventually(() => refused.hub.connection('ember')?.info.details?.['refusedPeers'] === 1, 'counted');
  t.true(refused.lines().some((line) => /a consumer from 127\.0\.0\.1 refused: `allow` does not let it in/.test(line.msg)));
  const served = await provider(t, { allow: ['127.0.0.0/8'], write: ['studio/#'] });
  const allowed = await consumer(t, served.port);
  await (await allowed.setValue((await at(allowed, 'studio.level')) as never, 9)).response;
  t.is(param(served.hub, 'studio/level').value, 9);
});

test('allow takes addresses and blocks; validate warns of a provider open to every interface that lets consumers change anything', (t) => {
  const flow = (ember: object) =>
    validateFlow({ connections: { ember: { type: 'ember-provider', expose: ['studio/#'], ...ember }, ...studio } }, '/virtual/flow.json5');
  const bad = flow({ allow: ['10.0.0.0/33', 'studio', '::1'] });
  t.false(bad.ok);
  if (!bad.ok)
    t.deepEqual(bad.issues?.map(formatIssue) ?? [String(bad.error)], [
      'connections.ember.allow[0]: "10.0.0.0/33" is no address or block: expected 10.0.0.5, 10.0.0.0/24, ::1 or fd00::/8',
      'connections.ember.allow[1]: "studio" is no address or block: expected 10.0.0.5, 10.0.0.0/24, ::1 or fd00::/8',
    ]);
  const open = flow({ write: ['studio/#'] });
  if (!open.ok) throw open.error;
  t.deepEqual(open.flow.warnings.map(formatIssue), [
    'connections.ember.bindIp: peers on every machine that reaches this one may change what `write` matches (Ember+ has no credentials): set bindIp (such as 127.0.0.1) or allow',
  ]);
  for (const closed of [{ write: ['studio/#'], bindIp: '127.0.0.1' }, { write: ['studio/#'], allow: ['10.0.0.0/24'] }, {}]) {
    const result = flow(closed);
    if (!result.ok) throw result.error;
    t.deepEqual(result.flow.warnings, [], JSON.stringify(closed));
  }
});
