import type { Device, Satellite } from './devices.ts';
import type { KeyImageJob } from './key-image.ts';
/** A key's bitmap, or why the thread could not draw it. */
export type Drawn = {
    readonly bitmap: string;
} | {
    readonly failed: string;
};
/** What a key shows: what it is drawn from, less its size. */
export type Look = Omit<KeyImageJob, 'size'>;
/** A key drawn, for `satellite`: sent with its look (and no bitmap if it could not be drawn). */
export type Deliver = (device: Device, key: number, look: Look, bitmap: string | undefined) => void;
/** The keys of every satellite waiting to be drawn. */
export declare class KeyDrawing {
    private readonly lookOf;
    private readonly deliver;
    private readonly waiting;
    constructor(lookOf: (device: Device, key: number) => Look, deliver: Deliver);
    /** Starts the thread ahead of the first key: loading it takes a good part of a second. */
    warm(): void;
    /** Draws the key of `device` (which wants bitmaps) for its satellite, when their turn comes. */
    draw(device: Device, key: number): void;
    /** The satellite went: nothing more is drawn for it. */
    forget(satellite: Satellite): void;
}
