/**
 * The host's side of the wire a Companion module of base 1.x speaks (R-CM1): messages over
 * Node's IPC channel, each `{direction: 'call', name, payload, callbackId?}` or `{direction:
 * 'response', callbackId, success, payload}`, the payload EJSON text (JSON that also carries
 * binary data and dates, as the module's base writes it). A call the host makes waits for
 * its response at most its timeout; a call the module makes is answered by the handler of
 * its name, or refused as unknown. Anything else on the channel is dropped and counted: a
 * module is someone else's program.
 */
import type { ChildProcess } from 'node:child_process';
import EJSON from 'ejson';
import { HubError, reasonOf } from '../../sdk/index.ts';

/** What the module may call, by name: each answers with a value, or throws to refuse. */
export type ModuleCalls = Readonly<Record<string, (payload: unknown) => unknown>>;

interface Waiting {
  readonly resolve: (payload: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** Callback ids wrap here, as the module's base wraps its own. */
const MAX_CALLBACK_ID = 1 << 28;

/**
 * A payload as the base wrote it (EJSON text). EJSON marks its extra types with keys that
 * begin with `$` (`{"$date": …}`); a text without `"$` anywhere has none, and plain JSON
 * reads it the same at a fraction of the cost — a module's definitions run to megabytes.
 */
function parsePayload(payload: unknown): unknown {
  if (typeof payload !== 'string' || payload === '') return undefined;
  return payload.includes('"$') ? EJSON.parse(payload) : JSON.parse(payload);
}

export class ModuleIpc {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  /** Messages that were not of the wire's shape, or answered nothing that waited. */
  dropped = 0;

  constructor(
    private readonly child: ChildProcess,
    private readonly calls: ModuleCalls,
  ) {
    child.on('message', (message: unknown) => this.received(message));
  }

  /** Calls `name` on the module; rejects with PB_DEVICE_TIMEOUT after `timeoutMs`, or with the module's refusal. */
  call(name: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    if (this.nextId > MAX_CALLBACK_ID) this.nextId = 1;
    const callbackId = this.nextId++;
    return new Promise((resolve, reject) => {
      // The real clock: a deadline on someone else's process.
      const timer = setTimeout(() => {
        this.waiting.delete(callbackId);
        reject(new HubError('PB_DEVICE_TIMEOUT', `the module did not answer ${name} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(callbackId, { resolve, reject, timer });
      this.send({ direction: 'call', name, payload: EJSON.stringify(payload), callbackId });
    });
  }

  /** Tells the module something it does not answer. */
  tell(name: string, payload: unknown): void {
    this.send({ direction: 'call', name, payload: EJSON.stringify(payload), callbackId: undefined });
  }

  /** Fails every call still waiting: the module is gone. */
  close(reason: string): void {
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(new HubError('PB_DEVICE_UNAVAILABLE', reason));
      this.waiting.delete(id);
    }
  }

  private send(message: object): void {
    if (this.child.connected) this.child.send(message);
  }

  private received(message: unknown): void {
    if (typeof message !== 'object' || message === null) return void this.dropped++;
    const { direction, name, payload, callbackId, success } = message as Record<string, unknown>;
    // A module's own calls carry a number (base 1.5 on) or a text (before) as their id.
    const id = typeof callbackId === 'number' || (typeof callbackId === 'string' && callbackId !== '') ? callbackId : undefined;
    if (direction === 'response' && typeof id === 'number') return this.answered(id, success === true, payload);
    if (direction !== 'call' || typeof name !== 'string') return void this.dropped++;
    const handler = Object.hasOwn(this.calls, name) ? this.calls[name] : undefined;
    const answer = (ok: boolean, body: unknown) => {
      if (id !== undefined) this.send({ direction: 'response', callbackId: id, success: ok, payload: EJSON.stringify(body) });
    };
    if (!handler) return answer(false, { message: `Unknown command "${name}"` });
    let parsed: unknown;
    try {
      parsed = parsePayload(payload);
    } catch (error) {
      return answer(false, { message: `the payload of ${name} is not EJSON: ${reasonOf(error)}` });
    }
    Promise.resolve()
      .then(() => handler(parsed))
      .then(
        (result) => answer(true, result ?? null),
        (error: unknown) => answer(false, { message: reasonOf(error) }),
      );
  }

  private answered(id: number, success: boolean, payload: unknown): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return void this.dropped++;
    this.waiting.delete(id);
    clearTimeout(waiting.timer);
    let body: unknown;
    try {
      body = parsePayload(payload);
    } catch {
      body = undefined;
    }
    if (success) return waiting.resolve(body);
    const message =
      typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
        ? (body as { message: string }).message
        : String(body);
    waiting.reject(new HubError('PB_BAD_ANSWER', message));
  }
}
