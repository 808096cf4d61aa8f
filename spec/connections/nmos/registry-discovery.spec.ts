/**
 * Registries found by DNS-SD (R-NM1): the records of `_nmos-register._tcp` read into the
 * Registration APIs this node can use, best priority first; and a hub with no `registries`
 * that finds the registry a multicast DNS responder advertises (multicast-dns, in this
 * process, on the machine's own network) and registers with it.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import test from 'ava';
import { type DnsRecord, REGISTER_SERVICE, RegistryRecords } from '../../../lib/connections/nmos/registry-discovery.ts';
import { eventually } from '../../helpers/eventually.ts';
import { startHub } from '../../helpers/hub.ts';
import { registry } from '../../helpers/nmos-registry.ts';

/** The records a registry advertises itself with. */
function advertised(instance: string, host: string, address: string, port: number, txt: string[]): DnsRecord[] {
  const name = `${instance}.${REGISTER_SERVICE}`;
  // A TTL of 0 is a goodbye: an advertisement has one of its own (dns-packet writes 0 for none).
  const ttl = 120;
  return [
    { type: 'PTR', name: REGISTER_SERVICE, ttl, data: name },
    { type: 'SRV', name, ttl, data: { target: host, port } },
    { type: 'TXT', name, ttl, data: txt.map((text) => Buffer.from(text)) },
    { type: 'A', name: host, ttl, data: address },
  ];
}

const v13 = (pri: number) => ['api_proto=http', 'api_ver=v1.2,v1.3', 'api_auth=false', `pri=${pri}`];

test('the registries advertised are those this node can use, best priority first; a goodbye forgets one (R-NM1)', (t) => {
  const records = new RegistryRecords();
  records.take([
    ...advertised('second', 'b.local', '192.0.2.2', 8235, v13(20)),
    ...advertised('first', 'a.local', '192.0.2.1', 8235, v13(10)),
    ...advertised('old', 'c.local', '192.0.2.3', 8235, ['api_proto=http', 'api_ver=v1.2', 'pri=0']),
    ...advertised('secure', 'd.local', '192.0.2.4', 443, ['api_proto=https', 'api_ver=v1.3', 'pri=0']),
    ...advertised('authorized', 'e.local', '192.0.2.5', 80, ['api_proto=http', 'api_ver=v1.3', 'api_auth=true', 'pri=0']),
  ]);
  t.deepEqual(records.registries(), ['http://192.0.2.1:8235', 'http://192.0.2.2:8235']);
  records.take([{ type: 'PTR', name: REGISTER_SERVICE, ttl: 0, data: `first.${REGISTER_SERVICE}` }]);
  t.deepEqual(records.registries(), ['http://192.0.2.2:8235']);
});

interface Responder {
  on(event: 'query', listener: (query: { questions: { name: string; type: string }[] }) => void): void;
  respond(response: { answers: DnsRecord[]; additionals?: DnsRecord[] }): void;
  destroy(): void;
}
const multicastDns = createRequire(import.meta.url)('multicast-dns') as () => Responder;

test('a hub with no registries finds one by DNS-SD and registers with it (R-NM1)', async (t) => {
  const registered = await registry(t);
  const port = Number(new URL(registered.url).port);
  // Names of this run alone: another run's responder on the same network is another registry.
  const tag = randomBytes(4).toString('hex');
  const [ptr, ...rest] = advertised(`spec-${tag}`, `spec-${tag}.local`, '127.0.0.1', port, v13(0));
  const responder = multicastDns();
  t.teardown(() => responder.destroy());
  let asked = 0;
  responder.on('query', ({ questions }) => {
    if (!questions.some(({ name, type }) => name === REGISTER_SERVICE && type === 'PTR')) return;
    asked++;
    responder.respond({ answers: [ptr as DnsRecord], additionals: rest });
  });
  const hub = await startHub(t, {
    connections: {
      studio: { type: 'dummy', parameters: ['onair,B,false'] },
      node: { type: 'nmos', port: 0, bindIp: '127.0.0.1', host: '127.0.0.1', expose: ['studio/#'], heartbeatMs: 300 },
    },
  });
  await eventually(
    () => registered.requests.includes('heartbeat'),
    () => `registered with the registry found (asked ${asked} times; ${JSON.stringify(hub.connection('node')?.info)})`,
    15_000,
  );
  t.true(asked > 0);
  t.deepEqual(registered.told().slice(0, 5), ['POST node', 'POST device', 'POST source', 'POST flow', 'POST sender']);
  const info = hub.connection('node')?.info;
  t.is(info?.status, 'ok');
  t.is(info?.details?.['registry'], registered.url);
});
