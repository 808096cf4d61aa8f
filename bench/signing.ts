/**
 * What the site key costs a forwarded write: signing it on the writer's hub and verifying it
 * on the owner's, in one process, against building the same message unsigned.
 *
 *   node --import tsx bench/signing.ts [messages]
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Signer, Verifier } from '../lib/broker/signing.ts';

export interface SigningCost {
  readonly messages: number;
  /** Microseconds per message: signed and verified, and built unsigned. */
  readonly signedUs: number;
  readonly unsignedUs: number;
}

export function measureSigning(messages: number): SigningCost {
  const key = randomBytes(32);
  const signer = new Signer(key, 'writer');
  const verifier = new Verifier(key);
  const topics = Array.from({ length: 1000 }, (_, i) => `patchbay/bench/set/p${i}`);
  const message = (i: number) => ({
    topic: topics[i % topics.length]!,
    payload: String(i),
    properties: {
      userProperties: { origin: 'ws 127.0.0.1' },
      responseTopic: 'patchbay/$hub/writer/answers',
      correlationData: randomBytes(16),
    },
  });
  const time = (work: (i: number) => void) => {
    for (let i = 0; i < 10_000; i++) work(i);
    const started = process.hrtime.bigint();
    for (let i = 0; i < messages; i++) work(i);
    return Number(process.hrtime.bigint() - started) / 1000 / messages;
  };
  let taken = 0;
  const unsignedUs = time((i) => {
    const { topic, payload, properties } = message(i);
    if (topic && Buffer.from(payload).length >= 0 && properties.userProperties) taken++;
  });
  const signedUs = time((i) => {
    const { topic, payload, properties } = message(i);
    const signed = signer.sign(topic, payload, properties);
    if (verifier.verify(topic, Buffer.from(payload), signed).ok) taken++;
  });
  if (taken !== 2 * (messages + 10_000)) throw new Error(`${2 * (messages + 10_000) - taken} messages did not verify`);
  return { messages, signedUs, unsignedUs };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const cost = measureSigning(Number(process.argv[2] ?? 200_000));
  console.log(
    `${cost.messages} forwarded writes: ${cost.signedUs.toFixed(2)} µs each signed and verified, ${cost.unsignedUs.toFixed(2)} µs built unsigned: the key costs ${(cost.signedUs - cost.unsignedUs).toFixed(2)} µs a write`,
  );
}
