/**
 * The thread `ember-decoding.ts` hands Glow messages to: a message's BER in, its elements (or
 * why not) out, one message at a time. Nothing here is kept between messages.
 */
import { parentPort } from 'node:worker_threads';
import { decodeMessage } from './ember-plus.ts';

parentPort?.on('message', (ber: Uint8Array) => {
  parentPort?.postMessage(decodeMessage(Buffer.from(ber.buffer, ber.byteOffset, ber.byteLength)));
});
