import type { OwnedParameter } from '../../core/parameter.ts';
import type { Value, ValueType } from '../../core/value.ts';
import type { ConnectionContext } from '../context.ts';
import type { DeviceLink } from './device-link.ts';
import type { Overruns } from './overruns.ts';
/** The default of every device type's `maxParameters` (R-G4). */
export declare const DEFAULT_MAX_PARAMETERS = 100000;
export interface DeviceParameterSpec {
    readonly type: ValueType;
    readonly access: 'read-only' | 'read-write' | 'write-only';
    /** What it holds before the device says (a declared default); unknown when absent. */
    readonly initial?: Value;
    /** Whether the hub keeps its value across restarts (R-S2); the kept value is never sent (R-G3). */
    readonly persist?: boolean;
}
/**
 * Hands one write to the device: `confirm()` once the device took it (or with the error
 * it answered). A type whose device does not echo writes reports the value itself when
 * confirming (see `DeviceParameters.define`).
 */
export type DeviceSend = (value: Value, confirm: (error?: unknown) => void, origin: string | undefined) => void;
export declare class DeviceParameters {
    private readonly context;
    private readonly link;
    private readonly overruns;
    private readonly maxParameters;
    private readonly made;
    constructor(context: ConnectionContext, link: DeviceLink, overruns: Overruns<'parameters'>, maxParameters?: number);
    get size(): number;
    get(id: string): OwnedParameter | undefined;
    ids(): IterableIterator<string>;
    /**
     * Makes `<connection>/<id>`, or returns the one made already — its writes sent through
     * `send` from now on (a device read again after a reconnect hands the new link's), and
     * made anew when the device now says another type or access. Past `maxParameters` it
     * makes nothing: the parameter is counted as dropped and the connection degraded (R-G4).
     * `echoes: false` for devices that never send back what they were told: a confirmed
     * write then sets the value here, with its writer as who changed it (R-O2).
     */
    define(id: string, spec: DeviceParameterSpec, send: DeviceSend, { echoes }?: {
        echoes?: boolean | undefined;
    }): OwnedParameter | undefined;
    /** Takes a parameter away (the device dropped it); rules that use it wait again (R-G2). */
    remove(id: string): void;
    /** Takes every parameter away. */
    clear(): void;
}
/**
 * A parameter id made from names a device gives (an Ember+ identifier path, an OSC
 * address): each name a segment, characters an id cannot hold replaced by `_`, a name
 * that is empty (or `.`/`..`) replaced by `fallback(index)`, and a leading `_` (reserved
 * for the hub) replaced by `-`. Undefined when even that is not an id.
 */
export declare function parameterIdOf(names: readonly string[], fallback?: (index: number) => string): string | undefined;
