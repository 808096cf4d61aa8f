/**
 * The wire a Companion module of base 1.x speaks (R-CM1), as the process kit's `Channel`
 * carries it: messages over Node's IPC channel (the kit's `ChildLink` reads it: junk on it ends
 * the module, not the hub; only flat records are read), each `{direction: 'call', name,
 * payload, callbackId?}` or `{direction: 'response', callbackId, success, payload}`, the
 * payload EJSON text (JSON that also carries binary data and dates, as the module's base
 * writes it). A long payload is read without holding the hub's loop (payload-reading.ts); the
 * channel handles messages in the order they came all the same. The commands are untyped
 * yet: a module is someone else's program, and what it sends is checked where it is taken.
 */
import EJSON from 'ejson';
import { Channel, type Commands, type Handlers, reasonOf, type Scheduler, type WireCodec, type WireMessage } from '../../sdk/index.ts';
import { LONG_PAYLOAD, PayloadReader } from './payload-reading.ts';

/** What the module may call, by name: each answers with a value, or throws to refuse. */
export type ModuleCalls = Readonly<Record<string, (payload: unknown) => unknown>>;

/**
 * The longest message taken from a module: its definitions run to megabytes (a large
 * router's), its variables' values to a few more.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * A payload as the base wrote it (EJSON text). EJSON marks its extra types with keys that
 * begin with `$` (`{"$date": …}`); a text without `"$` anywhere has none, and plain JSON
 * reads it the same at a fraction of the cost — a module's definitions run to megabytes.
 */
const parserOf = (payload: string): ((text: string) => unknown) =>
  payload.includes('"$') ? (text) => EJSON.parse(text) : (text) => JSON.parse(text);

/** Companion's form of the wire, reading long payloads with `reader`. */
function companionCodec(reader: PayloadReader): WireCodec {
  const readPayloadOf = async (payload: unknown): Promise<{ value: unknown } | { error: string }> => {
    if (typeof payload !== 'string' || payload === '') return { value: undefined };
    try {
      const parse = parserOf(payload);
      return { value: payload.length > LONG_PAYLOAD ? await reader.read(payload, parse) : parse(payload) };
    } catch (error) {
      return { error: reasonOf(error) };
    }
  };
  return {
    encode: (message) =>
      message.kind === 'call'
        ? { direction: 'call', name: message.name, payload: EJSON.stringify(message.payload), callbackId: message.id }
        : { direction: 'response', callbackId: message.id, success: message.ok, payload: EJSON.stringify(message.payload) },
    decode: async (raw): Promise<WireMessage | undefined> => {
      const { direction, name, callbackId, success, payload } = raw as Record<string, unknown>;
      // A module's own calls carry a number (base 1.5 on) or a text (before) as their id.
      const id = typeof callbackId === 'number' || (typeof callbackId === 'string' && callbackId !== '') ? callbackId : undefined;
      if (direction === 'response' && typeof id === 'number') {
        const read = await readPayloadOf(payload);
        return { kind: 'answer', id, ok: success === true, payload: 'value' in read ? read.value : undefined };
      }
      if (direction !== 'call' || typeof name !== 'string') return undefined;
      const read = await readPayloadOf(payload);
      return 'value' in read
        ? { kind: 'call', name, id, payload: read.value }
        : { kind: 'call', name, id, payload: undefined, unreadable: `it is not EJSON: ${read.error}` };
    },
  };
}

/** The host's end of a module's wire. */
export class ModuleIpc extends Channel<Commands, Commands> {
  private readonly reader: PayloadReader;

  /** `send` puts a message on the module's channel. */
  constructor(send: (message: unknown) => void, calls: ModuleCalls, scheduler: Scheduler) {
    const reader = new PayloadReader();
    super({ send, handlers: calls as Handlers<Commands>, scheduler, called: 'the module', codec: companionCodec(reader) });
    this.reader = reader;
  }

  /** Fails every call still waiting: the module is gone. */
  override close(reason: string): void {
    super.close(reason);
    this.reader.stop();
  }
}
