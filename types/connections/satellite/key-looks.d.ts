/**
 * What each key shows — colour, text, text colour — kept while its device is away, as
 * read-write parameters while it is there, and sent to its satellite as `KEY-STATE` (with a
 * bitmap for a device that asked for them, drawn off the event loop), once a turn however
 * often it changed. A device forgotten (to make room for another) takes its looks with it,
 * but for keys bound in the flow.
 */
import { type ConnectionContext } from '../../sdk/index.ts';
import { type Device, type Satellite } from './devices.ts';
/** What a key shows, whether or not its device is there. */
export interface KeyLook {
    color: string;
    text: string;
    textColor: string;
}
export declare class KeyLooks {
    private readonly context;
    /** The device a satellite added by its DEVICEID, if one has. */
    private readonly deviceOf;
    private readonly counts;
    /** What each key shows, by `<device id>/<key>`: kept while its device is away. */
    private readonly looks;
    private readonly due;
    private readonly params;
    /** Looks the flow's `keys` set: kept when their device is forgotten. */
    private readonly pinned;
    /** By device id: how many keys have look parameters. */
    private readonly defined;
    private readonly drawing;
    constructor(context: ConnectionContext, 
    /** The device a satellite added by its DEVICEID, if one has. */
    deviceOf: (deviceId: string) => Device | undefined, counts: {
        sent: number;
    });
    of(deviceId: string, key: number): KeyLook;
    /** The look of a key bound in the flow: kept whatever becomes of its device. */
    pin(deviceId: string, key: number): KeyLook;
    /** Starts drawing's thread, so that the first device's keys do not wait for it. */
    warm(): void;
    send(device: Device, key: number): void;
    /** Its satellite went: nothing more is drawn for it. */
    forgetSatellite(satellite: Satellite): void;
    /** The device is forgotten: its look parameters go, and its looks but those the flow binds. */
    forget(device: Device): void;
    private deliver;
    /** A key's look changed, by a write, a binding or a client: kept, shown in its parameter, sent. */
    set(deviceId: string, key: number, field: keyof KeyLook, value: string, by?: string): void;
    /** Makes the key's look parameters, once: they stay while the device is away. */
    define(device: Device, key: number): void;
    /** Sends a key's state at the end of the turn, once for all of the turn's changes to it. */
    private sendSoon;
}
