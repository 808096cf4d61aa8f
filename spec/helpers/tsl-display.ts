import { createRequire } from 'node:module';
import type { ExecutionContext } from 'ava';

const require = createRequire(import.meta.url);

export type DisplayMessage = { index: number; display: { lh_tally: number; rh_tally: number; text: string } };

/**
 * A multiviewer's displays as the `tsl-umd-v5` library receives TSL UMD v5.0 over UDP on
 * `port`: every message it decodes, in order. The library keeps its socket to itself, so
 * the socket it makes is caught as it is made, to close it when the spec ends.
 */
export function tslDisplays(t: ExecutionContext, port: number): DisplayMessage[] {
  const TSL5 = require('tsl-umd-v5') as new () => import('node:events').EventEmitter & { listenUDP(port: number): void };
  const dgram = require('node:dgram') as Record<string, unknown>;
  const multiviewer = new TSL5();
  const heard: DisplayMessage[] = [];
  multiviewer.on('message', (message: DisplayMessage) => heard.push(message));
  const createSocket = dgram['createSocket'] as (...args: unknown[]) => { close(): void };
  let socket: { close(): void } | undefined;
  dgram['createSocket'] = (...args: unknown[]) => (socket = createSocket(...args));
  try {
    multiviewer.listenUDP(port);
  } finally {
    dgram['createSocket'] = createSocket;
  }
  t.teardown(() => socket?.close());
  return heard;
}

/** What display `index` shows now: its last message. */
export const shown = (heard: readonly DisplayMessage[], index: number) =>
  heard.filter((message) => message.index === index).at(-1)?.display;
