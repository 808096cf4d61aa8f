/**
 * The parameters of a device connection (R-G1, R-G2, R-G4), written once for every device
 * type: each is this hub's own (published and shared as any other) while its writes go to
 * the device through the link — refused at once while it is down, answered when the device
 * confirms, or when it did not in time. What a device makes appear is bounded by
 * `maxParameters`: past it nothing more is made, and the connection is `degraded` saying so.
 */
import { checkParameterId } from '../../core/address.ts';
import { automated } from '../../core/origins.ts';
import type { Answered, OwnedParameter, ParameterMeta } from '../../core/parameter.ts';
import type { Value, ValueType } from '../../core/value.ts';
import type { ConnectionContext } from '../context.ts';
import type { DeviceLink } from './device-link.ts';
import type { Overruns } from './overruns.ts';

/** Whether a write comes from a rule or a code flow (R-O2's `rule <path>`, `flow <id>`), not from a client. */

/** The default of every device type's `maxParameters` (R-G4). */
export const DEFAULT_MAX_PARAMETERS = 100_000;

export interface DeviceParameterSpec {
  readonly type: ValueType;
  readonly access: 'read-only' | 'read-write' | 'write-only';
  /** What it holds before the device says (a declared default); unknown when absent. */
  readonly initial?: Value;
  /** Whether the hub keeps its value across restarts (R-S2); the kept value is never sent (R-G3). */
  readonly persist?: boolean;
  /** What it says of itself (R-PK6): a device's name for it, its range, its choices. */
  readonly meta?: ParameterMeta | undefined;
}

/**
 * Hands one write to the device: `confirm()` once the device took it (or with the error
 * it answered). A type whose device does not echo writes reports the value itself when
 * confirming (see `DeviceParameters.define`).
 */
export type DeviceSend = (value: Value, confirm: (error?: unknown) => void, origin: string | undefined) => void;

/** A parameter made, with what it was made as and how its writes are sent now. */
interface Made {
  readonly parameter: OwnedParameter;
  readonly type: ValueType;
  readonly access: DeviceParameterSpec['access'];
  /** Replaced at each `define`: a reconnect's writes go through the new link's socket. */
  send: DeviceSend;
  /** Writes sent and not yet answered, and the last value sent. */
  unsettled: number;
  lastSent: Value | undefined;
}

export class DeviceParameters {
  private readonly made = new Map<string, Made>();

  constructor(
    private readonly context: ConnectionContext,
    private readonly link: DeviceLink,
    private readonly overruns: Overruns<'parameters'>,
    private readonly maxParameters: number = DEFAULT_MAX_PARAMETERS,
  ) {}

  get size(): number {
    return this.made.size;
  }

  get(id: string): OwnedParameter | undefined {
    return this.made.get(id)?.parameter;
  }

  ids(): IterableIterator<string> {
    return this.made.keys();
  }

  /**
   * Makes `<connection>/<id>`, or returns the one made already — its writes sent through
   * `send` from now on (a device read again after a reconnect hands the new link's), and
   * made anew when the device now says another type or access. Past `maxParameters` it
   * makes nothing: the parameter is counted as dropped and the connection degraded (R-G4).
   * `echoes: false` for devices that never send back what they were told: a confirmed
   * write then sets the value here, with its writer as who changed it (R-O2).
   */
  define(id: string, spec: DeviceParameterSpec, send: DeviceSend, { echoes = true } = {}): OwnedParameter | undefined {
    const known = this.made.get(id);
    if (known && known.type === spec.type && known.access === spec.access) {
      known.send = send;
      if (spec.meta !== undefined) known.parameter.describe(spec.meta);
      return known.parameter;
    }
    if (known) this.remove(id);
    if (this.made.size >= this.maxParameters) {
      this.overruns.dropped('parameters', `more than maxParameters (${this.maxParameters}) parameters: ${id} and others not made`);
      return undefined;
    }
    const parameter: OwnedParameter = this.context.define(id, {
      type: spec.type,
      access: spec.access,
      ...(spec.initial !== undefined ? { initial: spec.initial } : {}),
      ...(spec.persist ? { persist: true } : {}),
      ...(spec.meta === undefined ? {} : { meta: spec.meta }),
      ownedHere: true,
      forward: (value, origin, answered?: Answered) => {
        // A rule or code flow that hands back the value the device last said (a two-way sync
        // of a fader with a dashboard's) would echo every move to the device: taken, as an
        // unchanged write is. A client's write is always sent, so an operator can send again.
        // While writes are on their way the device is about to hold the last one sent, not
        // the value it last confirmed: a lamp told 2 and then 0 in one turn gets the 0.
        const held = made.unsettled > 0 ? made.lastSent : parameter.value;
        if (spec.type !== 'T' && automated(origin) && held === value) {
          answered?.({ ok: true, value: false });
          return { ok: true, value: false };
        }
        made.unsettled += 1;
        made.lastSent = value;
        let settled = false;
        const settle = () => {
          if (settled) return;
          settled = true;
          made.unsettled -= 1;
        };
        const result = this.link.write(
          (confirm) =>
            made.send(
              value,
              (error) => {
                if (error === undefined && !echoes) parameter.report(value, origin);
                confirm(error);
              },
              origin,
            ),
          (outcome) => {
            settle();
            answered?.(outcome);
          },
        );
        if (!result.ok) settle();
        return result;
      },
    });
    const made: Made = { parameter, type: spec.type, access: spec.access, send, unsettled: 0, lastSent: undefined };
    this.made.set(id, made);
    return parameter;
  }

  /** Takes a parameter away (the device dropped it); rules that use it wait again (R-G2). */
  remove(id: string): void {
    if (!this.made.delete(id)) return;
    this.context.remove(id);
  }

  /** Takes every parameter away. */
  clear(): void {
    for (const id of [...this.made.keys()]) this.remove(id);
  }
}

/**
 * A parameter id made from names a device gives (an Ember+ identifier path, an OSC
 * address): each name a segment, characters an id cannot hold replaced by `_`, a name
 * that is empty (or `.`/`..`) replaced by `fallback(index)`, and a leading `_` (reserved
 * for the hub) replaced by `-`. Undefined when even that is not an id.
 */
export function parameterIdOf(
  names: readonly string[],
  fallback: (index: number) => string = (index) => String(index),
): string | undefined {
  const segments = names.map((name, index) => {
    const cleaned = name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128);
    return cleaned === '' || cleaned === '.' || cleaned === '..' ? fallback(index) : cleaned;
  });
  if (segments[0]?.startsWith('_')) segments[0] = `-${segments[0].slice(1)}`;
  const id = segments.join('/');
  return checkParameterId(id).ok ? id : undefined;
}
