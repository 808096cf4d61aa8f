/**
 * What the node says, checked against AMWA's own JSON schemas (R-NM1, R-NM2, R-NM3, R-NM4):
 * every answer of the Node API, the Events API and the Connection API of a running hub (its
 * PATCH and bulk answers too), each body the node registers, and the IS-07 messages,
 * validated with ajv against IS-04 v1.3's, IS-05 v1.1's and IS-07 v1.0's schemas; and the
 * TypeBox shapes of resource-shapes.ts held against them: a resource without a member AMWA
 * requires is refused by both. The schemas are AMWA's and are not part of this repository:
 * point PATCHBAY_NMOS_SCHEMAS at a folder holding `is-04/` (the `APIs/schemas` folder of
 * AMWA-TV/is-04 at v1.3.x), `is-05/` (that of AMWA-TV/is-05 at v1.1.x) and `is-07/` (that of
 * AMWA-TV/is-07 at v1.0.x); without it the spec says it skipped, and without `is-05/` alone
 * the Connection API's check says so. docs/guides/nmos.md says how to fetch them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { join } from 'node:path';
import test from 'ava';
import { Value } from '@sinclair/typebox/value';
import { Ajv, type ValidateFunction } from 'ajv';
import { EventClients } from '../../../lib/connections/nmos/event-clients.ts';
import { eventTypeOf } from '../../../lib/connections/nmos/event-types.ts';
import { NodeModel, type ServedSource } from '../../../lib/connections/nmos/resources.ts';
import { resourceKinds, shapeOf } from '../../../lib/connections/nmos/resource-shapes.ts';
import { VirtualClock } from '../../helpers/virtual-time.ts';
import { startHub } from '../../helpers/hub.ts';
import { LOOPBACK_NODE } from '../../helpers/nmos-node.ts';
import { baseOf } from '../../helpers/http.ts';

const folder = process.env['PATCHBAY_NMOS_SCHEMAS'] ?? '';
const present = folder !== '' && existsSync(join(folder, 'is-04', 'node.json')) && existsSync(join(folder, 'is-07', 'event.json'));
const present05 = present && existsSync(join(folder, 'is-05', 'sender-response-schema.json'));

/**
 * An ajv holding every schema of both folders. AMWA writes draft-04, which for the keywords
 * these schemas use reads as ajv's default draft: only `$schema` is left out, and the
 * formats they use (`uri`, `hostname`) are checked here.
 */
function amwa(): {
  is04: (name: string) => ValidateFunction;
  is05: (name: string) => ValidateFunction;
  is07: (name: string) => ValidateFunction;
} {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('uri', (text: string) => URL.canParse(text));
  ajv.addFormat('ipv4', isIPv4);
  ajv.addFormat('ipv6', isIPv6);
  // IS-05's constraint schema says a `pattern` is a `regex`: one JavaScript can compile.
  ajv.addFormat('regex', (text: string) => {
    try {
      return new RegExp(text) !== undefined;
    } catch {
      return false;
    }
  });
  ajv.addFormat('hostname', /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i);
  for (const api of present05 ? ['is-04', 'is-05', 'is-07'] : ['is-04', 'is-07']) {
    for (const file of readdirSync(join(folder, api)).filter((name) => name.endsWith('.json'))) {
      const { $schema: _draft, ...schema } = JSON.parse(readFileSync(join(folder, api, file), 'utf8')) as Record<string, unknown>;
      // IS-04's and IS-05's schemas have no $id and refer to each other by file name; IS-07's have an $id under amwa.tv.
      ajv.addSchema(schema, api === 'is-07' ? undefined : `https://${api}.test/${file}`);
    }
  }
  const get = (id: string) => {
    const validate = ajv.getSchema(id);
    if (!validate) throw new Error(`no schema ${id}`);
    return validate;
  };
  return {
    is04: (name) => get(`https://is-04.test/${name}`),
    is05: (name) => get(`https://is-05.test/${name}`),
    is07: (name) => get(`https://www.amwa.tv/event_and_tally/${name}`),
  };
}

const why = present ? '' : ' (skipped: PATCHBAY_NMOS_SCHEMAS holds no is-04/ and is-07/ schema folders)';
const amwaTest = present ? test : test.skip;
if (!present) test(`AMWA's schemas are not here: the checks against them are skipped${why}`, (t) => t.log(`skipped${why}`) ?? t.pass());

const served = (address: string, type: 'B' | 'S' | 'I' | 'F', meta?: Parameters<typeof eventTypeOf>[2]): ServedSource => ({
  address,
  label: address,
  description: '',
  event: eventTypeOf(address, type, meta) as NonNullable<ReturnType<typeof eventTypeOf>>,
});

const facts = {
  seed: 'amwa',
  label: 'patchbay',
  description: 'a hub',
  host: '192.0.2.10',
  port: 3210,
  interfaces: [{ name: 'eth0', mac: '02-00-00-00-00-01' }],
};

const errors = (validate: ValidateFunction) => JSON.stringify(validate.errors?.slice(0, 3));

amwaTest(`every resource the node registers is valid against IS-04 v1.3's schemas, as a registration's body too${why}`, (t) => {
  const { is04 } = amwa();
  const model = new NodeModel(() => 1_700_000_000_000);
  model.update(facts, [served('a/onair', 'B'), served('a/title', 'S'), served('a/gain', 'F', { unit: 'dB', minimum: -80, maximum: 10 })]);
  const post = is04('registrationapi-resource-post-request.json');
  for (const { kind, data } of model.all()) {
    const validate = is04(`${kind}.json`);
    t.true(validate(data), `${kind}: ${errors(validate)}`);
    t.true(post({ type: kind, data }), `POST ${kind}: ${errors(post)}`);
  }
});

amwaTest(`a resource without a member AMWA requires is refused by the TypeBox shape too${why}`, (t) => {
  const { is04 } = amwa();
  const model = new NodeModel(() => 1_700_000_000_000);
  model.update(facts, [served('a/onair', 'B')]);
  let checked = 0;
  for (const { kind, data } of model.all()) {
    const validate = is04(`${kind}.json`);
    for (const member of Object.keys(data)) {
      const { [member]: _left, ...without } = data as unknown as Record<string, unknown>;
      if (validate(without)) continue;
      checked++;
      t.false(Value.Check(shapeOf[kind], without), `${kind} without ${member}: AMWA refuses it, the TypeBox shape took it`);
    }
  }
  t.true(checked > 20, `${checked} members AMWA requires`);
  t.deepEqual([...resourceKinds], ['node', 'device', 'source', 'flow', 'sender', 'receiver']);
});

amwaTest(`every answer of a running node's Node API and Events API is valid against AMWA's schemas${why}`, async (t) => {
  const { is04, is07 } = amwa();
  const hub = await startHub(t, {
    connections: {
      studio: {
        type: 'dummy',
        parameters: ['onair,B,true', 'title,S,Morning', 'gain,F,-6', 'count,I,3', 'source,I,1', 'mode,S,live', 'armed,B,false'],
        describe: {
          gain: { unit: 'dB', minimum: -80, maximum: 10, step: 0.5 },
          source: {
            choices: [
              { value: 1, label: 'Camera 1' },
              { value: 2, label: 'Camera 2' },
            ],
          },
          mode: {
            choices: [
              { value: 'live', label: 'Live' },
              { value: 'rehearsal', label: 'Rehearsal' },
            ],
          },
          armed: {
            choices: [
              { value: false, label: 'Safe' },
              { value: true, label: 'Armed' },
            ],
          },
        },
      },
      node: { ...LOOPBACK_NODE, expose: ['studio/#'] },
    },
  });
  const base = `${baseOf(hub, 'node')}`;
  const get = async (path: string) => (await fetch(`${base}${path}`)).json();
  const check = (validate: ValidateFunction, body: unknown, what: string) => t.true(validate(body), `${what}: ${errors(validate)}`);
  check(is04('nodeapi-base.json'), await get('/x-nmos/node/v1.3/'), 'the Node API base');
  check(is04('node.json'), await get('/x-nmos/node/v1.3/self'), 'self');
  for (const list of ['devices', 'sources', 'flows', 'senders', 'receivers']) {
    const body = (await get(`/x-nmos/node/v1.3/${list}`)) as unknown[];
    check(is04(`${list}.json`), body, list);
    if (list !== 'receivers') t.true(body.length > 0, list);
  }
  const sources = (await get('/x-nmos/events/v1.0/sources')) as string[];
  check(is07('sources.json'), sources, 'the Events API sources');
  t.is(sources.length, 7);
  const eventTypes: string[] = [];
  for (const entry of sources) {
    check(is07('source.json'), await get(`/x-nmos/events/v1.0/sources/${entry}`), `source ${entry}`);
    const state = (await get(`/x-nmos/events/v1.0/sources/${entry}state`)) as { event_type: string };
    check(is07('event.json'), state, `state of ${state.event_type}`);
    check(is07('type.json'), await get(`/x-nmos/events/v1.0/sources/${entry}type`), `type of ${state.event_type}`);
    eventTypes.push(state.event_type);
  }
  t.deepEqual(eventTypes.sort(), [
    'boolean',
    'boolean/enum/armed',
    'number',
    'number/enum/source',
    'number/gain/dB',
    'string',
    'string/enum/mode',
  ]);
  check(is04('error.json'), await get('/x-nmos/node/v1.3/sources/nothing'), 'a 404');
});

amwaTest(`a health answer, a state, a shutdown and each client command the node takes are valid against IS-07's schemas${why}`, (t) => {
  const { is07 } = amwa();
  const sent: string[] = [];
  const clients = new EventClients(new VirtualClock().scheduler, {
    timeoutMs: 12_000,
    maxSources: 10,
    maxBufferedBytes: 1024,
    stateOf: (id) => ({
      message_type: 'state',
      identity: { source_id: id, flow_id: id },
      event_type: 'boolean',
      timing: { creation_timestamp: '37:0' },
      payload: { value: true },
    }),
    refused: () => {},
  });
  const client = { peer: 'spec', send: (text: string) => void sent.push(text), bufferedBytes: () => 0, end: () => {} };
  clients.opened(client);
  const health = { command: 'health', timestamp: '1441974485:12300000' };
  t.true(is07('command.json')(health));
  clients.received(client, JSON.stringify(health));
  const validate = is07('message.json');
  t.true(validate(JSON.parse(sent[0] as string)), errors(validate));
  const subscription = { command: 'subscription', sources: ['9f463872-9621-4939-aa3a-dc3c82d8578b'] };
  t.true(is07('command.json')(subscription));
  clients.received(client, JSON.stringify(subscription));
  t.true(validate(JSON.parse(sent[1] as string)), `state: ${errors(validate)}`);
  clients.stop();
  t.like(JSON.parse(sent[2] as string), { message_type: 'shutdown' });
  t.true(validate(JSON.parse(sent[2] as string)), `shutdown: ${errors(validate)}`);
});

const why05 = present05 ? '' : ' (skipped: PATCHBAY_NMOS_SCHEMAS holds no is-05/ schema folder)';
const amwa05Test = present05 ? test : test.skip;

amwa05Test(
  `every answer of a running node's Connection API, its PATCH and bulk answers too, is valid against IS-05 v1.1's schemas${why05}`,
  async (t) => {
    const { is04, is05 } = amwa();
    const hub = await startHub(t, {
      connections: {
        studio: { type: 'dummy', parameters: ['onair,B,true', 'title,S,Morning', 'tally,B,false'] },
        node: {
          ...LOOPBACK_NODE,
          expose: ['studio/onair', 'studio/title'],
          receivers: { tally: { parameter: 'studio/tally' } },
        },
      },
    });
    const base = `${baseOf(hub, 'node')}/x-nmos/connection/v1.1`;
    const ask = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${base}${path}`, { method, ...(body !== undefined && { body: JSON.stringify(body) }) });
      return { status: answer.status, body: (await answer.json()) as unknown };
    };
    const check = (validate: ValidateFunction, body: unknown, what: string) => t.true(validate(body), `${what}: ${errors(validate)}`);
    check(is05('connectionapi-base.json'), (await ask('GET', '/')).body, 'the base');
    check(is05('connectionapi-single.json'), (await ask('GET', '/single')).body, 'single');
    check(is05('connectionapi-bulk.json'), (await ask('GET', '/bulk')).body, 'bulk');
    const ids: Record<string, string[]> = {};
    for (const kind of ['senders', 'receivers']) {
      const list = (await ask('GET', `/single/${kind}`)).body as string[];
      check(is05('sender-receiver-base.json'), list, kind);
      ids[kind] = list.map((id) => id.slice(0, -1));
      const one = kind.slice(0, -1);
      for (const id of ids[kind] ?? []) {
        check(is05(`connectionapi-${one}.json`), (await ask('GET', `/single/${kind}/${id}`)).body, `a ${one}'s listing`);
        const constraints = (await ask('GET', `/single/${kind}/${id}/constraints`)).body as unknown[];
        check(is05('constraints-schema.json'), constraints, `a ${one}'s constraints`);
        check(is05('constraints-schema-websocket.json'), constraints[0], `a ${one}'s constraints, as a WebSocket's`);
        check(is05(`${one}-response-schema.json`), (await ask('GET', `/single/${kind}/${id}/staged`)).body, `a ${one}'s staged`);
        check(is05(`${one}-response-schema.json`), (await ask('GET', `/single/${kind}/${id}/active`)).body, `a ${one}'s active`);
        check(is05('transporttype-response-schema.json'), (await ask('GET', `/single/${kind}/${id}/transporttype`)).body, 'transporttype');
      }
    }
    const receiver = ids['receivers']?.[0] as string;
    const sender = ids['senders']?.[0] as string;
    const sourceId = '9f463872-9621-4939-aa3a-dc3c82d8578b';
    const staging = {
      sender_id: sourceId,
      master_enable: true,
      activation: { mode: 'activate_immediate', requested_time: null },
      transport_params: [
        { connection_uri: 'ws://192.0.2.7/x-nmos/events/v1.0/socket', ext_is_07_source_id: sourceId, ext_is_07_rest_api_url: null },
      ],
    };
    t.true(is05('receiver-stage-schema.json')(staging), 'the spec asks what IS-05 lets a controller ask');
    const immediate = await ask('PATCH', `/single/receivers/${receiver}/staged`, staging);
    t.is(immediate.status, 200);
    check(is05('receiver-response-schema.json'), immediate.body, 'an immediate activation');
    const scheduled = await ask('PATCH', `/single/senders/${sender}/staged`, {
      master_enable: false,
      activation: { mode: 'activate_scheduled_relative', requested_time: '0:100000000' },
    });
    t.is(scheduled.status, 202);
    check(is05('sender-response-schema.json'), scheduled.body, 'a scheduled activation');
    const locked = await ask('PATCH', `/single/senders/${sender}/staged`, { master_enable: true });
    t.is(locked.status, 423);
    check(is05('error.json'), locked.body, 'a 423');
    const bad = await ask('PATCH', `/single/senders/${sender}/staged`, { bad: 'data' });
    t.is(bad.status, 400);
    check(is05('error.json'), bad.body, 'a 400');
    const bulk = await ask('POST', '/bulk/receivers', [
      { id: receiver, params: { master_enable: false } },
      { id: '00000000-0000-5000-8000-000000000000', params: {} },
    ]);
    check(is05('bulk-response-schema.json'), bulk.body, 'a bulk answer');
    check(is05('error.json'), (await ask('GET', '/bulk/senders')).body, 'a 405');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const self = (await (await fetch(base.replace('/connection/v1.1', '/node/v1.3/senders'))).json()) as unknown[];
    check(is04('senders.json'), self, 'the senders after an activation');
    const receivers = (await (await fetch(base.replace('/connection/v1.1', '/node/v1.3/receivers'))).json()) as unknown[];
    check(is04('receivers.json'), receivers, 'the receivers');
  },
);
