/**
 * The session with one satellite: greeted, its lines read within `maxLineBytes` and a turn's
 * share at a time, each message answered, and its devices let go when it closes.
 */
import type { Socket } from 'node:net';
import type { ConnectionContext } from '../../sdk/index.ts';
import { type Devices, type Satellite } from './devices.ts';
import type { SatelliteOverruns } from './settings.ts';
export interface SessionOptions {
    readonly context: ConnectionContext;
    /** The satellites connected, this one among them until it closes. */
    readonly satellites: Set<Satellite>;
    readonly devices: Devices;
    readonly overruns: SatelliteOverruns;
    readonly maxLineBytes: number;
    readonly counts: {
        pressed: number;
        unknown: number;
    };
}
export declare function serveSatellite(socket: Socket, { context, satellites, devices, overruns, maxLineBytes, counts }: SessionOptions): void;
