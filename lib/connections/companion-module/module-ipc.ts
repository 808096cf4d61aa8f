/**
 * The host's side of the wire a Companion module of base 1.x speaks (R-CM1): messages over
 * Node's IPC channel (the process kit's `ChildLink` reads it: junk on it ends the module, not
 * the hub; only flat records are read), each `{direction: 'call', name, payload, callbackId?}`
 * or `{direction: 'response', callbackId, success, payload}`, the payload EJSON text (JSON that also carries
 * binary data and dates, as the module's base writes it). A call the host makes waits for
 * its response at most its timeout; a call the module makes is answered by the handler of
 * its name, or refused as unknown. Messages are handled in the order they come; a long
 * payload is read without holding the hub's loop (payload-reading.ts). Anything else on the
 * channel is dropped and counted: a module is someone else's program.
 */
import type { Subscription } from 'rxjs';
import EJSON from 'ejson';
import { after, HubError, reasonOf, type Scheduler } from '../../sdk/index.ts';
import { LONG_PAYLOAD, PayloadReader } from './payload-reading.ts';

/** What the module may call, by name: each answers with a value, or throws to refuse. */
export type ModuleCalls = Readonly<Record<string, (payload: unknown) => unknown>>;

interface Waiting {
  readonly resolve: (payload: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: Subscription;
}

/**
 * The longest message taken from a module: its definitions run to megabytes (a large
 * router's), its variables' values to a few more.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Callback ids wrap here, as the module's base wraps its own. */
const MAX_CALLBACK_ID = 1 << 28;

/**
 * A payload as the base wrote it (EJSON text). EJSON marks its extra types with keys that
 * begin with `$` (`{"$date": …}`); a text without `"$` anywhere has none, and plain JSON
 * reads it the same at a fraction of the cost — a module's definitions run to megabytes.
 */
function parsePayload(payload: unknown): unknown {
  if (typeof payload !== 'string' || payload === '') return undefined;
  return parserOf(payload)(payload);
}

const parserOf = (payload: string): ((text: string) => unknown) =>
  payload.includes('"$') ? (text) => EJSON.parse(text) : (text) => JSON.parse(text);

/** A payload read: its value, or why it could not be. */
type Parsed = { readonly value: unknown } | { readonly error: string };

export class ModuleIpc {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  /** Messages that were not of the wire's shape, or answered nothing that waited. */
  dropped = 0;
  /** Messages come in, to be handled in their order. */
  private readonly backlog: Record<string, unknown>[] = [];
  private reading = false;
  private readonly reader = new PayloadReader();
  private closed = false;

  /** `send` puts a message on the module's channel. */
  constructor(
    private readonly sendMessage: (message: object) => void,
    private readonly calls: ModuleCalls,
    private readonly scheduler: Scheduler,
  ) {}

  /** Calls `name` on the module; rejects with PB_DEVICE_TIMEOUT after `timeoutMs`, or with the module's refusal. */
  call(name: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    if (this.nextId > MAX_CALLBACK_ID) this.nextId = 1;
    const callbackId = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = after(this.scheduler, timeoutMs, () => {
        this.waiting.delete(callbackId);
        reject(new HubError('PB_DEVICE_TIMEOUT', `the module did not answer ${name} within ${timeoutMs} ms`));
      });
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
    this.closed = true;
    this.reader.stop();
    for (const [id, waiting] of this.waiting) {
      waiting.timer.unsubscribe();
      waiting.reject(new HubError('PB_DEVICE_UNAVAILABLE', reason));
      this.waiting.delete(id);
    }
  }

  private send(message: object): void {
    if (!this.closed) this.sendMessage(message);
  }

  /** A message from the module, as its channel read it. */
  received(message: unknown): void {
    if (this.closed) return;
    if (typeof message !== 'object' || message === null) return void this.dropped++;
    this.backlog.push(message as Record<string, unknown>);
    if (!this.reading) void this.readBacklog();
  }

  /**
   * The messages in the order they came: most at once, as they come; one with a long payload
   * read off the loop (payload-reading.ts), those after it waiting for it.
   */
  private async readBacklog(): Promise<void> {
    this.reading = true;
    for (let message = this.backlog.shift(); message !== undefined; message = this.backlog.shift()) {
      const { payload } = message;
      let parsed: Parsed;
      try {
        parsed = {
          value:
            typeof payload === 'string' && payload.length > LONG_PAYLOAD
              ? await this.reader.read(payload, parserOf(payload))
              : parsePayload(payload),
        };
      } catch (error) {
        parsed = { error: reasonOf(error) };
      }
      try {
        this.handle(message, parsed);
      } catch {
        // A message the hub could not take must not stop the ones after it.
        this.dropped++;
      }
    }
    this.reading = false;
  }

  private handle(message: Record<string, unknown>, parsed: Parsed): void {
    const { direction, name, callbackId, success } = message;
    // A module's own calls carry a number (base 1.5 on) or a text (before) as their id.
    const id = typeof callbackId === 'number' || (typeof callbackId === 'string' && callbackId !== '') ? callbackId : undefined;
    if (direction === 'response' && typeof id === 'number') return this.answered(id, success === true, parsed);
    if (direction !== 'call' || typeof name !== 'string') return void this.dropped++;
    const handler = Object.hasOwn(this.calls, name) ? this.calls[name] : undefined;
    const answer = (ok: boolean, body: unknown) => {
      if (id !== undefined) this.send({ direction: 'response', callbackId: id, success: ok, payload: EJSON.stringify(body) });
    };
    if (!handler) return answer(false, { message: `Unknown command "${name}"` });
    if ('error' in parsed) return answer(false, { message: `the payload of ${name} is not EJSON: ${parsed.error}` });
    Promise.resolve()
      .then(() => handler(parsed.value))
      .then(
        (result) => answer(true, result ?? null),
        (error: unknown) => answer(false, { message: reasonOf(error) }),
      );
  }

  private answered(id: number, success: boolean, parsed: Parsed): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return void this.dropped++;
    this.waiting.delete(id);
    waiting.timer.unsubscribe();
    const body = 'value' in parsed ? parsed.value : undefined;
    if (success) return waiting.resolve(body);
    const message =
      typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
        ? (body as { message: string }).message
        : String(body);
    waiting.reject(new HubError('PB_BAD_ANSWER', message));
  }
}
