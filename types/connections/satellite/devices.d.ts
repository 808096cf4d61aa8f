/**
 * The devices satellites add (`ADD-DEVICE`), within `maxDevices` and `maxKeys`: each with its
 * parameters, kept when its satellite lets it go so that it comes back as it was.
 */
import type { Socket } from 'node:net';
import { type ConnectionContext, type OwnedParameter } from '../../sdk/index.ts';
import { type Message } from './messages.ts';
import type { SatelliteOverruns } from './settings.ts';
/** One satellite connected: its socket and the devices it added. */
export interface Satellite {
    readonly socket: Socket;
    readonly peer: string;
    readonly devices: Set<Device>;
    heardAt: number;
}
/** A device a satellite added, and its parameters. */
export interface Device {
    readonly deviceId: string;
    readonly id: string;
    keysTotal: number;
    perRow: number;
    bitmapSize: number;
    satellite: Satellite | undefined;
    readonly connected: OwnedParameter;
    readonly brightness: OwnedParameter;
    /** By key: its pressed parameter while the device is there. */
    readonly pressed: (OwnedParameter | undefined)[];
}
/** What shows on a device's keys: each key made ready as the device is added, then sent. */
export interface KeyFaces {
    define(device: Device, key: number): void;
    send(device: Device, key: number): void;
}
export declare const send: (target: Satellite, line: string) => undefined;
/** A key from `KEY`: its index, or `row/column` as newer satellites send it. */
export declare function keyOf(device: Device, raw: string | true | undefined): number | undefined;
export declare class Devices {
    private readonly context;
    private readonly keys;
    private readonly overruns;
    private readonly bounds;
    private readonly byId;
    constructor(context: ConnectionContext, keys: KeyFaces, overruns: SatelliteOverruns, bounds: {
        readonly maxDevices: number;
        readonly maxKeys: number;
    });
    get(deviceId: string): Device | undefined;
    /** Every device a satellite has added, there now or not. */
    all(): Device[];
    add(from: Satellite, params: Message['params']): void;
    /** The device went (removed, or its satellite gone): no more presses; what it shows is kept for its return. */
    detach(device: Device): void;
    private define;
}
