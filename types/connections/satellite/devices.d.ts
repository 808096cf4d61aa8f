/**
 * The devices satellites add (`ADD-DEVICE`), within `maxDevices`, `maxDevicesPerClient`,
 * `maxKeys` and bitmaps of at most `MAX_BITMAP_PX`: each with its parameters, kept when its
 * satellite lets it go so that it comes back as it was — until the table is full and another
 * device needs the room, which the device gone longest gives up. A device id is one
 * satellite's while that satellite is there: another, from another address, asking for it
 * is refused (the desk is not taken over); from the same address it is that satellite back
 * on a new link, and has it. Keys a satellite held down are let go when it goes.
 */
import type { Socket } from 'node:net';
import { type ConnectionContext, type OwnedParameter } from '../../sdk/index.ts';
import { type Message } from './messages.ts';
import type { SatelliteOverruns } from './settings.ts';
/** One satellite connected: its socket and the devices it added. */
export interface Satellite {
    readonly socket: Socket;
    /** Its address and port, as shown; and its address alone, which says which machine it is. */
    readonly peer: string;
    readonly address: string;
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
    /** When its satellite let it go, in the order devices went: the longest gone is forgotten first. */
    wentAt: number;
    readonly connected: OwnedParameter;
    readonly brightness: OwnedParameter;
    /** By key: its pressed parameter while the device is there. */
    readonly pressed: (OwnedParameter | undefined)[];
}
/** What shows on a device's keys: each key made ready as the device is added, then sent. */
export interface KeyFaces {
    define(device: Device, key: number): void;
    send(device: Device, key: number): void;
    /** The satellite went: nothing more is sent to it. */
    forgetSatellite(satellite: Satellite): void;
    /** The device is forgotten: its keys' parameters go. */
    forget(device: Device): void;
}
/**
 * The largest key bitmap the hub draws, pixels a side. Stream Decks' keys are 72–288 pixels;
 * a bitmap is size² × 3 bytes, in base64 a third more, for every key: 512 is a megabyte a key.
 */
export declare const MAX_BITMAP_PX = 512;
export interface DeviceBounds {
    readonly maxDevices: number;
    readonly maxDevicesPerClient: number;
    readonly maxKeys: number;
}
export declare const send: (target: Satellite, line: string) => undefined;
/** A key from `KEY`: its index, or `row/column` as newer satellites send it. */
export declare function keyOf(device: Device, raw: string | true | undefined): number | undefined;
export declare class Devices {
    private readonly context;
    private readonly keys;
    private readonly overruns;
    private readonly bounds;
    /** A key of a device went down or up: what the flow's `keys` make of it. */
    private readonly pressed;
    private readonly byId;
    /** Devices let go so far: the order they went in. */
    private went;
    constructor(context: ConnectionContext, keys: KeyFaces, overruns: SatelliteOverruns, bounds: DeviceBounds, 
    /** A key of a device went down or up: what the flow's `keys` make of it. */
    pressed: (device: Device, key: number, down: boolean, origin: string) => void);
    get(deviceId: string): Device | undefined;
    /** Every device a satellite has added, there now or not. */
    all(): Device[];
    add(from: Satellite, params: Message['params']): void;
    /** A key of `device` went down or up, as its satellite says. */
    press(device: Device, key: number, down: boolean, origin: string): void;
    /**
     * The device went (removed, or its satellite gone): the keys it held down are let go first
     * — a momentary key whose link dropped must not stay pressed — then no more presses; what it
     * shows is kept for its return.
     */
    detach(device: Device): void;
    /** The satellite went (closed, or silent past `timeout`): its devices are let go. */
    gone(satellite: Satellite): void;
    /** Makes room: the device gone longest is forgotten with its parameters. False when every device is there. */
    private forgetLongestGone;
    private define;
}
