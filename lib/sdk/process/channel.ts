/**
 * One end of a typed wire between the hub and a program of its own (R-PK4, R-CM1), the same
 * at both ends. Each side names what it may ask of the other as Companion's host API does,
 * a map of `name: (payload) => answer`: a command whose answer is `never` is told (nothing
 * comes back), any other is called and answered — with its value, or refused with a reason
 * and a code. A call waits at most its deadline; a call of a name this end has no handler for
 * is refused as unknown. What comes is handled in the order it came, even when reading a
 * message takes its time (a long payload read off the loop, `WireCodec.decode`); what is not
 * of the wire's shape, or answers nothing that waits, is dropped and counted. The messages'
 * form on the wire is the codec's: this project's own, or Companion's.
 */
import type { Subscription } from 'rxjs';
import { type ErrorCode, errorTable, HubError, reasonOf } from '../../core/errors.ts';
import { after, type Scheduler } from '../../core/scheduler.ts';

/** What one side may ask of the other, by name: the payload each takes, and its answer (`never`: told, not answered). */
// biome-ignore lint/suspicious/noExplicitAny: a map of commands, as Companion's host API writes them
export type Commands = { [name: string]: (payload: any) => any };

/** What `K` of `C` takes. */
export type PayloadOf<C, K extends keyof C> = C[K] extends (payload: infer P) => unknown ? P : never;
type AnswerOf<C, K extends keyof C> = C[K] extends (payload: never) => infer A ? A : never;
/** The names of `C` that are called, and answered. */
export type Called<C> = { [K in keyof C]: [AnswerOf<C, K>] extends [never] ? never : K }[keyof C];
/** The names of `C` that are told, and not answered. */
export type Told<C> = { [K in keyof C]: [AnswerOf<C, K>] extends [never] ? K : never }[keyof C];

/** This end's handlers of what the other may ask: an answer, or a throw that refuses. */
export type Handlers<In> = {
  readonly [K in keyof In]: (payload: PayloadOf<In, K>) => ([AnswerOf<In, K>] extends [never] ? void : AnswerOf<In, K>) | Promise<unknown>;
};

/** A message of the wire, whatever its form on it. */
export type WireMessage =
  /** A call (with the id its answer will carry) or, without an id, a tell. `unreadable`: its payload could not be read, and why. */
  | {
      readonly kind: 'call';
      readonly name: string;
      readonly id: number | string | undefined;
      readonly payload: unknown;
      readonly unreadable?: string;
    }
  | { readonly kind: 'answer'; readonly id: number; readonly ok: boolean; readonly payload: unknown };

/** How messages look on a wire. */
export interface WireCodec {
  encode(message: WireMessage): unknown;
  /** What came, as a message, or undefined when it is not of the wire's shape; may take its time. */
  decode(raw: unknown): WireMessage | undefined | Promise<WireMessage | undefined>;
}

/** What a refusal carries across: its reason, and the hub's code for it when it has one. */
interface Refusal {
  readonly message: string;
  readonly code?: string;
  readonly declared?: string;
}

/** This project's form: `{ c: name, n: id, p: payload }` for a call (no `n`: a tell), `{ a: id, ok, p }` for its answer. */
export const ownCodec: WireCodec = {
  encode: (message) =>
    message.kind === 'call'
      ? { c: message.name, ...(message.id === undefined ? {} : { n: message.id }), p: message.payload }
      : { a: message.id, ok: message.ok, p: message.payload },
  decode: (raw) => {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const { c, n, a, ok, p } = raw as Record<string, unknown>;
    if (typeof c === 'string' && (n === undefined || typeof n === 'number')) return { kind: 'call', name: c, id: n, payload: p };
    if (typeof a === 'number' && typeof ok === 'boolean') return { kind: 'answer', id: a, ok, payload: p };
    return undefined;
  },
};

/** Call ids wrap here, as Companion's base wraps its own. */
const MOST_ID = 1 << 28;

interface Waiting {
  readonly name: string;
  readonly resolve: (payload: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly deadline: Subscription | undefined;
}

export interface ChannelOptions<In> {
  /** Puts a message on the wire. */
  readonly send: (message: unknown) => void;
  readonly handlers: Handlers<In>;
  readonly scheduler: Scheduler;
  /** How a missed deadline names the other end: "the module", "its process". */
  readonly called: string;
  readonly codec?: WireCodec;
  /**
   * When given, the other end is held to the wire: what is no message, a name this end has no
   * handler for, or a payload `check` refuses is told here, once — the caller ends the other
   * end — and nothing after it is handled; without it such a message is counted in `dropped`,
   * and an unknown name answered as unknown.
   */
  readonly refuse?: (why: string) => void;
  /** Why a payload that came is refused — a call's or tell's (`call`), or an answer's to a call of `name` (`answer`, `refusal`) — or undefined. */
  readonly check?: (name: string, kind: 'call' | 'answer' | 'refusal', payload: unknown) => string | undefined;
}

export class Channel<Out, In> {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  /** Messages that were not of the wire's shape, or answered nothing that waited. */
  dropped = 0;
  private readonly backlog: unknown[] = [];
  private reading = false;
  private closed: string | undefined;
  /** Set once the other end was refused (`ChannelOptions.refuse`): nothing more is handled. */
  private refused = false;
  private readonly codec: WireCodec;

  constructor(private readonly options: ChannelOptions<In>) {
    this.codec = options.codec ?? ownCodec;
  }

  /** Asks `name` of the other end: its answer, a refusal (PB_BAD_ANSWER, or the code it gave), or PB_DEVICE_TIMEOUT past `deadlineMs`. */
  call<K extends Called<Out> & string>(name: K, payload: PayloadOf<Out, K>, deadlineMs?: number): Promise<AnswerOf<Out, K>> {
    if (this.closed !== undefined) return Promise.reject(new HubError('PB_DEVICE_UNAVAILABLE', this.closed));
    if (this.nextId > MOST_ID) this.nextId = 1;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const deadline =
        deadlineMs === undefined
          ? undefined
          : after(this.options.scheduler, deadlineMs, () => {
              this.waiting.delete(id);
              reject(new HubError('PB_DEVICE_TIMEOUT', `${this.options.called} did not answer ${name} within ${deadlineMs} ms`));
            });
      this.waiting.set(id, { name, resolve: resolve as (payload: unknown) => void, reject, deadline });
      this.send({ kind: 'call', name, id, payload });
    });
  }

  /** Tells `name` to the other end without waiting for an answer (one told answers nothing). */
  tell<K extends keyof Out & string>(name: K, payload: PayloadOf<Out, K>): void {
    this.send({ kind: 'call', name, id: undefined, payload });
  }

  /** A message that came over the wire, as its channel read it. */
  received(raw: unknown): void {
    if (this.closed !== undefined || this.refused) return;
    this.backlog.push(raw);
    if (!this.reading) void this.readBacklog();
  }

  /** No more is sent or handled; every call still waiting fails with `reason` (PB_DEVICE_UNAVAILABLE). */
  close(reason: string): void {
    this.closed ??= reason;
    this.backlog.length = 0;
    for (const [id, waiting] of this.waiting) {
      waiting.deadline?.unsubscribe();
      waiting.reject(new HubError('PB_DEVICE_UNAVAILABLE', reason));
      this.waiting.delete(id);
    }
  }

  private send(message: WireMessage): void {
    if (this.closed === undefined) this.options.send(this.codec.encode(message));
  }

  /** In the order they came: most at once; one that takes its time to read holds those after it. */
  private async readBacklog(): Promise<void> {
    this.reading = true;
    while (this.backlog.length > 0) {
      const raw = this.backlog.shift();
      let message: WireMessage | undefined;
      try {
        const decoded = this.codec.decode(raw);
        message = decoded instanceof Promise ? await decoded : decoded;
      } catch {
        message = undefined;
      }
      if (this.closed !== undefined || this.refused) break;
      if (message === undefined) this.misfit('a message of no known shape');
      else if (message.kind === 'answer') this.answered(message);
      else this.handle(message);
    }
    this.reading = false;
  }

  /** A message not of the wire's shape: refused when the other end is held to the wire, else counted. */
  private misfit(why: string): void {
    if (!this.options.refuse) return void this.dropped++;
    this.refused = true;
    this.options.refuse(why);
  }

  private handle({ name, id, payload, unreadable }: Extract<WireMessage, { kind: 'call' }>): void {
    const answer = (ok: boolean, body: unknown) => {
      if (id !== undefined) this.send({ kind: 'answer', id: id as number, ok, payload: body });
    };
    const handlers = this.options.handlers as Readonly<Record<string, (payload: unknown) => unknown>>;
    const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
    if (!handler && this.options.refuse) return this.misfit(`a message of no known kind (${JSON.stringify(name.slice(0, 40))})`);
    if (!handler) return answer(false, { message: `Unknown command "${name}"` } satisfies Refusal);
    const wrong = this.options.check?.(name, 'call', payload);
    if (wrong !== undefined) return this.misfit(`a "${name}" message that cannot be taken (${wrong})`);
    if (unreadable !== undefined)
      return answer(false, { message: `the payload of ${name} could not be read: ${unreadable}` } satisfies Refusal);
    Promise.resolve()
      .then(() => handler(payload))
      .then(
        (result) => answer(true, result ?? null),
        (error: unknown) =>
          // Held to the wire, the other end sent what this end could not take: it is refused.
          this.options.refuse
            ? this.misfit(`a "${name}" message that could not be taken: ${reasonOf(error)}`)
            : answer(false, {
                message: reasonOf(error),
                ...(error instanceof HubError ? { code: error.code, ...(error.declared ? { declared: error.declared } : {}) } : {}),
              } satisfies Refusal),
      );
  }

  private answered({ id, ok, payload }: Extract<WireMessage, { kind: 'answer' }>): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return void this.dropped++;
    const wrong = this.options.check?.(waiting.name, ok ? 'answer' : 'refusal', payload);
    if (wrong !== undefined) return this.misfit(`an answer to "${waiting.name}" that cannot be taken (${wrong})`);
    this.waiting.delete(id);
    waiting.deadline?.unsubscribe();
    if (ok) return waiting.resolve(payload);
    const refusal = (typeof payload === 'object' && payload !== null ? payload : { message: String(payload) }) as Partial<Refusal>;
    const code =
      typeof refusal.code === 'string' && Object.hasOwn(errorTable, refusal.code) ? (refusal.code as ErrorCode) : 'PB_BAD_ANSWER';
    const declared = typeof refusal.declared === 'string' ? { declared: refusal.declared } : {};
    waiting.reject(new HubError(code, typeof refusal.message === 'string' ? refusal.message : String(payload), declared));
  }
}
