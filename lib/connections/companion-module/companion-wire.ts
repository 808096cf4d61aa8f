/**
 * The wire a Companion module of base 1.x speaks (R-CM1), as the process kit's `Channel`
 * carries it at both ends — the hub's host (module-ipc.ts) and the host entry point a module
 * of base 2.x runs under (base-2/host.ts). Each message is `{direction: 'call', name, payload,
 * callbackId?}` or `{direction: 'response', callbackId, success, payload}`, the payload EJSON
 * text (JSON that also carries binary data and dates, as the module's base writes it). The
 * commands each way are the base's own host API (`HostToModuleEventsV0`,
 * `ModuleToHostEventsV0`; type-only imports of the dev dependency, erased when built), as
 * Companion's host types them. What a module sends is someone else's program's: its handlers
 * take it as `unknown` and check it where they use it.
 */
import type {
  HostToModuleEventsV0,
  ModuleToHostEventsV0,
  UpgradeActionAndFeedbackInstancesMessage,
} from '@companion-module/base/dist/host-api/api.js';
import type { OptionsObject } from '@companion-module/base/dist/util.js';
import EJSON from 'ejson';
import { reasonOf, type WireCodec, type WireMessage } from '../../sdk/index.ts';

/** What the host may ask of a module, as the base names it. */
export type HostToModule = HostToModuleEventsV0;
/** The bindings as a module's upgrade scripts are given them. */
export type UpgradeInstances = UpgradeActionAndFeedbackInstancesMessage;
/** What a module may ask of its host, as the base names it, and the registration its entry point makes first. */
export type ModuleToHost = ModuleToHostEventsV0 & {
  register: (payload: { verificationToken: string; connectionId: string }) => Record<string, never>;
};

/**
 * Options as the base's messages carry them. The flow file's are JSON values, checked against
 * the module's fields where it has them (bindings.ts); the base types them narrower
 * (`InputValue`), and a module reads what it is given, as Companion's own host gives it.
 */
export const moduleOptions = (options: Readonly<Record<string, unknown>>): OptionsObject => options as OptionsObject;

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

/** Reads a payload the long way (off the loop), when given; `parse` is how it reads. */
export type LongReader = (text: string, parse: (text: string) => unknown) => Promise<unknown>;

/** Companion's form of the wire; payloads longer than `long` characters are read by `readLong`, when given. */
export function companionCodec(readLong?: { readonly long: number; readonly read: LongReader }): WireCodec {
  const readPayload = async (payload: unknown): Promise<{ value: unknown } | { error: string }> => {
    if (typeof payload !== 'string' || payload === '') return { value: undefined };
    try {
      const parse = parserOf(payload);
      return { value: readLong && payload.length > readLong.long ? await readLong.read(payload, parse) : parse(payload) };
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
      if (typeof raw !== 'object' || raw === null) return undefined;
      const { direction, name, callbackId, success, payload } = raw as Record<string, unknown>;
      // A module's own calls carry a number (base 1.5 on) or a text (before) as their id.
      const id = typeof callbackId === 'number' || (typeof callbackId === 'string' && callbackId !== '') ? callbackId : undefined;
      if (direction === 'response' && typeof id === 'number') {
        const read = await readPayload(payload);
        return { kind: 'answer', id, ok: success === true, payload: 'value' in read ? read.value : undefined };
      }
      if (direction !== 'call' || typeof name !== 'string') return undefined;
      const read = await readPayload(payload);
      return 'value' in read
        ? { kind: 'call', name, id, payload: read.value }
        : { kind: 'call', name, id, payload: undefined, unreadable: `it is not EJSON: ${read.error}` };
    },
  };
}
