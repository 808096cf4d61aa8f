import test from 'ava';
import { createHmac, randomBytes } from 'node:crypto';
import { type SignedProperties, Signer, Verifier } from '../../lib/broker/signing.ts';

const key = randomBytes(32);

/** The signature as the wire format defines it (signing.ts), computed here on its own: hubs of other versions check it. */
function wireMac(topic: string, payload: string, properties: SignedProperties): string {
  const user = properties.userProperties ?? {};
  let text = topic;
  for (const name of Object.keys(user).sort()) if (name !== 'sig') text += `\0${name}=${String(user[name])}`;
  text += `\0${properties.responseTopic ?? ''}\0${properties.correlationData?.toString('hex') ?? ''}\0`;
  return createHmac('sha256', key).update(text).update(payload).digest('base64url').slice(0, 22);
}

const write = {
  userProperties: { origin: 'ws 127.0.0.1' },
  responseTopic: 'patchbay/$hub/w/answers',
  correlationData: randomBytes(16),
};

test('a signed message carries the hub, a counter and the signature of the wire format, and verifies once (R-M5)', (t) => {
  const signer = new Signer(key, 'w');
  const signed = signer.sign('patchbay/desk/set/level', '12', write);
  const user = signed.userProperties as Record<string, string>;
  t.is(user['hub'], 'w');
  t.regex(user['n'] ?? '', /^\d+\.0\.1$/);
  t.is(user['origin'], 'ws 127.0.0.1');
  t.is(user['sig'], wireMac('patchbay/desk/set/level', '12', signed));
  t.deepEqual(write.userProperties, { origin: 'ws 127.0.0.1' }, 'the properties given are left as they were');
  const verifier = new Verifier(key);
  t.deepEqual(verifier.verify('patchbay/desk/set/level', Buffer.from('12'), signed), { ok: true, hub: 'w' });
  t.deepEqual(verifier.verify('patchbay/desk/set/level', Buffer.from('12'), signed), { ok: false, why: 'duplicate' });
  const value = signer.sign('patchbay/desk/val/level', '13', { userProperties: { by: 'hub w: ws 127.0.0.1' } });
  t.is((value.userProperties as Record<string, string>)['sig'], wireMac('patchbay/desk/val/level', '13', value));
  t.true(new Verifier(key).verify('patchbay/desk/val/level', Buffer.from('13'), value).ok);
});

test('a signed message altered in any part is refused as a bad signature: topic, payload, each property, response topic, correlation data', (t) => {
  const signer = new Signer(key, 'w');
  const topic = 'patchbay/desk/set/level';
  const signed = signer.sign(topic, '12', write);
  const user = signed.userProperties as Record<string, string>;
  // One in 64 signatures already ends in "A": the last character changed must differ from the one it replaces.
  const lastChanged = `${user['sig']!.slice(0, 21)}${user['sig']!.endsWith('A') ? 'B' : 'A'}`;
  const altered: [string, string, string, SignedProperties][] = [
    ['the topic', 'patchbay/desk/set/gain', '12', signed],
    ['the payload', topic, '13', signed],
    ['the origin', topic, '12', { ...signed, userProperties: { ...user, origin: 'ws 10.0.0.9' } }],
    ['the hub', topic, '12', { ...signed, userProperties: { ...user, hub: 'x' } }],
    ['the counter', topic, '12', { ...signed, userProperties: { ...user, n: `${user['n']}0` } }],
    ['a property added', topic, '12', { ...signed, userProperties: { ...user, extra: '1' } }],
    ['a property taken away', topic, '12', { ...signed, userProperties: { hub: user['hub']!, n: user['n']!, sig: user['sig']! } }],
    ['the response topic', topic, '12', { ...signed, responseTopic: 'patchbay/$hub/x/answers' }],
    ['the correlation data', topic, '12', { ...signed, correlationData: randomBytes(16) }],
    ['the signature', topic, '12', { ...signed, userProperties: { ...user, sig: lastChanged } }],
    ['a longer signature', topic, '12', { ...signed, userProperties: { ...user, sig: `${user['sig']}A` } }],
  ];
  for (const [what, alteredTopic, payload, properties] of altered)
    t.deepEqual(new Verifier(key).verify(alteredTopic, Buffer.from(payload), properties), { ok: false, why: 'bad signature' }, what);
  t.deepEqual(new Verifier(randomBytes(32)).verify(topic, Buffer.from('12'), signed), { ok: false, why: 'bad signature' }, 'another key');
  t.deepEqual(new Verifier(key).verify(topic, Buffer.from('12'), { userProperties: { origin: 'x' } }), { ok: false, why: 'unsigned' });
});

test("a hub's earlier message after a later one on the same topic is refused as replayed; other topics count on their own", (t) => {
  const signer = new Signer(key, 'w');
  const verifier = new Verifier(key);
  const first = signer.sign('patchbay/desk/val/a', '1', {});
  const second = signer.sign('patchbay/desk/val/a', '2', {});
  const other = signer.sign('patchbay/desk/val/b', '3', {});
  t.true(verifier.verify('patchbay/desk/val/a', Buffer.from('2'), second).ok);
  t.deepEqual(verifier.verify('patchbay/desk/val/a', Buffer.from('1'), first), { ok: false, why: 'replayed' });
  t.true(verifier.verify('patchbay/desk/val/b', Buffer.from('3'), other).ok);
});
