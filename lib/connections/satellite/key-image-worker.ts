/**
 * The thread `key-drawing.ts` hands keys to: a key's size and look in, its bitmap (RGB, in
 * base64 as `KEY-STATE` carries it) out, one key at a time. Nothing here is kept between keys.
 */
import { parentPort } from 'node:worker_threads';
import { type KeyImageJob, keyImage } from './key-image.ts';

parentPort?.on('message', ({ size, color, text, textColor }: KeyImageJob) => {
  parentPort?.postMessage({ bitmap: keyImage(size, color, text, textColor).toString('base64') });
});
