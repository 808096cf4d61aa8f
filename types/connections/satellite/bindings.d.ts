/**
 * The `keys` setting at work, without rules: a bound key shows its text, and its colour
 * follows `show`; a press of it toggles, holds or fires its target.
 */
import { type ConnectionContext } from '../../sdk/index.ts';
import type { Device } from './devices.ts';
import type { KeyLooks } from './key-looks.ts';
import type { KeyBinding } from './settings.ts';
export declare class KeyBindings {
    private readonly context;
    private readonly bindings;
    private readonly looks;
    constructor(context: ConnectionContext, bindings: readonly KeyBinding[], looks: KeyLooks);
    /** Gives each bound key its look, and its colour to follow `show`: the subscriptions to end at stop. */
    start(): {
        unsubscribe(): void;
    }[];
    /** Key `key` of device `deviceId` went down or up: what the bindings of that key write. */
    press(deviceId: string, key: number, down: boolean, origin: string): void;
    /** What a press of each bound key of `device` writes, by key: for the console's grid. */
    presses(device: Device): {
        [k: string]: {
            press: "none" | "toggle" | "momentary" | "fire";
            target: string;
        };
    };
}
