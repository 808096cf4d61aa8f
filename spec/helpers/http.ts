import { connect } from 'node:net';
import type { ExecutionContext } from 'ava';
import WebSocket from 'ws';
import type { Hub } from '../../lib/hub/hub.ts';
import { startHub } from './hub.ts';

export interface Served {
  readonly hub: Hub;
  readonly port: number;
  readonly base: string;
}

/** The base URL of what the hub's connection `id` serves on 127.0.0.1 (a rest-api, an nmos node). */
export const baseOf = (hub: Hub, id: string) => `http://127.0.0.1:${hub.connection(id)?.info.details?.['port'] as number}`;

/** Starts a hub whose `api` connection is a rest-api on 127.0.0.1 and a free port. */
export async function serve(t: ExecutionContext, api: object = {}, connections: object = {}): Promise<Served> {
  const hub = await startHub(t, { connections: { api: { type: 'rest-api', port: 0, bindIp: '127.0.0.1', ...api }, ...connections } });
  const info = hub.connection('api')?.info;
  if (info?.status !== 'ok') throw new Error(`rest-api did not start: ${info?.reason}`);
  const port = info.details?.['port'] as number;
  return { hub, port, base: `http://127.0.0.1:${port}` };
}

/**
 * Sends bytes exactly as given (no URL normalisation) and returns status code and body.
 * The request should say `Connection: close`; the socket stays open for writing until the
 * server closes it, since a half-closed client counts as gone.
 */
export function rawRequest(port: number, request: string | Buffer): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = split < 0 ? text : text.slice(0, split);
      resolve({ status: Number(head.split(' ')[1]), head, body: split < 0 ? '' : text.slice(split + 4) });
    });
    socket.write(request);
  });
}

/** A WebSocket client that records every message it receives. */
export class Client {
  readonly messages: unknown[] = [];
  /** Messages that came as binary frames: a browser would get a Blob for each, not text. */
  binaryMessages = 0;
  private readonly waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.binaryMessages++;
      this.messages.push(JSON.parse(data.toString()));
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(t: ExecutionContext, url: string, options: WebSocket.ClientOptions = {}): Promise<Client> {
    const socket = new WebSocket(url, options);
    t.teardown(() => socket.terminate());
    // Listening starts now: the snapshot may arrive in the same packet as the upgrade answer.
    const client = new Client(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    return client;
  }

  send(data: unknown): void {
    this.socket.send(typeof data === 'string' ? data : JSON.stringify(data));
  }

  /** Waits until `check` holds for the messages so far (15 s at most). */
  async until(check: (messages: unknown[]) => boolean, what = 'messages'): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!check(this.messages)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for `count` messages in all. */
  untilCount(count: number): Promise<void> {
    return this.until((m) => m.length >= count, `${count} messages`);
  }

  /** The last value seen per address: what a dashboard would show. */
  state(): Record<string, string> {
    const state: Record<string, string> = {};
    for (const m of this.messages as { p: string; v?: string }[]) if (m.v !== undefined) state[m.p] = m.v;
    return state;
  }
}

/** Resolves after the event loop has had `ms` to deliver anything in flight. */
export const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

export { freePort } from './ports.ts';
