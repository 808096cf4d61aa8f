/**
 * What the line-protocol types (R-N1, R-N2) share, whatever carries their bytes (a TCP
 * connection, datagrams, a serial port), read from their shared settings (`line-settings.ts`)
 * once: how frames look and what they mean. The device that acts on it is `line-device.ts`,
 * and a type made of both, supplying only its transport, is declared by `line-type.ts`.
 *
 * Frames are text in the connection's `encoding` (see `framing.ts`). Each received frame is
 * tried against the `receive` patterns in order (RE2, as every user expression in the hub);
 * the first that matches sets the parameters its `set` names, with `$name` standing for the
 * pattern's named group (for each match of its `each` pattern, when it has one: the lines of
 * a block). A frame no pattern matches is counted and logged at debug level.
 * A write sends the frame of its parameter's `send` entry, `$VALUE` standing for the value
 * (and `$1` for the number of a range the entry's parameter has, `out/{0..39}`),
 * and is answered once the transport took it (devices of this kind confirm nothing); its
 * value is then the parameter's, as the device says nothing back (R-G1). Nothing is sent at
 * start, restored values included (R-G3); polls run while the link is up.
 */
import type { Checked } from '../../core/issue.ts';
import { type GroupPattern } from '../../core/regex.ts';
import { type FramingOptions } from './framing.ts';
import { type ParameterLines } from '../parameter-lines.ts';
import { type LineSettingsWritten } from './line-settings.ts';
import { type Filled, type Template } from './line-templates.ts';
export interface LineProtocol extends FramingOptions {
    readonly parameters: ParameterLines;
    readonly receivers: readonly {
        readonly pattern: GroupPattern;
        /** Applies `set` once for each of its matches; its groups come before those of `pattern`. */
        readonly each?: GroupPattern;
        readonly set: readonly {
            readonly id: Filled;
            readonly value: Filled;
        }[];
    }[];
    /** The send entry of each parameter that takes writes. */
    readonly sends: ReadonlyMap<string, {
        readonly frame: Template;
        readonly values: Readonly<Record<string, string>>;
    }>;
    readonly polls: readonly {
        readonly frame: Buffer;
        readonly every: number;
    }[];
    readonly maxFramesPerSecond: number;
    readonly timeout: number;
}
/** Reads the shared settings: every mistake with its path, relative to the connection. */
export declare function parseLineProtocol(settings: LineSettingsWritten): Checked<LineProtocol>;
