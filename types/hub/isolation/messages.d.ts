import { type ErrorCode } from '../../core/errors.ts';
import type { Access } from '../../core/parameter.ts';
import { type Json, type Value, type ValueType } from '../../core/value.ts';
import type { Status } from '../../sdk/context.ts';
import type { StopReason } from '../../sdk/type.ts';
/** A parameter as the process defined it: what the hub defines in its place. */
export interface DefinedSpec {
    readonly type: ValueType;
    readonly access: Access;
    readonly persist: boolean;
    /** Its value when defined (the process's restored or initial value). */
    readonly value: Value | undefined;
}
/** A change of one of its parameters: its id, its value, and who made it (undefined: the connection itself). */
export type Change = readonly [id: string, value: Value, by: string | undefined];
/** An error across the wall: its code and message. */
export interface WireError {
    readonly code: ErrorCode;
    readonly message: string;
}
export type ToChild = {
    readonly t: 'start';
    /** The module whose default export is the type, or a built-in type's name. */
    readonly module: string | undefined;
    readonly type: string;
    readonly id: string;
    readonly baseDir: string;
    readonly settings: Readonly<Record<string, unknown>>;
    /** The last values the hub has of its parameters (kept, or from before a restart of the process), by id. */
    readonly values: readonly (readonly [string, Value])[];
    readonly records: readonly (readonly [string, Json])[];
    readonly debug: boolean;
    readonly fence: FenceState;
} | {
    readonly t: 'write';
    readonly n: number;
    readonly id: string;
    readonly value: Value;
    readonly origin: string | undefined;
}
/** New settings, as the flow file writes them, for the instance's `update` (a reload). */
 | {
    readonly t: 'update';
    readonly n: number;
    readonly settings: Readonly<Record<string, unknown>>;
} | {
    readonly t: 'running';
} | {
    readonly t: 'fence';
    readonly fence: FenceState;
} | {
    readonly t: 'settled';
    readonly n: number;
}
/** The hub has handled a `values` message: the process may send another. */
 | {
    readonly t: 'taken';
} | {
    readonly t: 'ping';
    readonly n: number;
} | {
    readonly t: 'stop';
    readonly reason: StopReason;
};
/** Whether the hub may drive devices (R-B3), as the process's fence answers. */
export interface FenceState {
    readonly holds: boolean;
    readonly epoch: number;
    readonly refusal: string;
}
export type FromChild = {
    readonly t: 'started';
} | {
    readonly t: 'failed';
    readonly error: WireError;
} | {
    readonly t: 'define';
    readonly id: string;
    readonly spec: DefinedSpec;
}
/** A table of parameters (`defineTable`), by rows: each row's spec and value. */
 | {
    readonly t: 'table';
    readonly rows: readonly (DefinedSpec & {
        readonly id: string;
    })[];
} | {
    readonly t: 'remove';
    readonly id: string;
}
/** Changes of its parameters, in the order they were made: [id, value, who made it (absent: the connection)]. */
 | {
    readonly t: 'values';
    readonly changes: readonly Change[];
} | {
    readonly t: 'status';
    readonly status: Status;
    readonly reason: string;
    readonly code: ErrorCode | undefined;
} | {
    readonly t: 'record';
    readonly key: string;
    readonly value: Json | undefined;
} | {
    readonly t: 'answer';
    readonly n: number;
    readonly changed: boolean;
    readonly error?: WireError;
} | {
    readonly t: 'settle';
    readonly n: number;
}
/** The answer to `update`: taken in place, not (a restart is needed), or failed with the error. */
 | {
    readonly t: 'updated';
    readonly n: number;
    readonly taken: boolean;
    readonly error?: WireError;
} | {
    readonly t: 'pong';
    readonly n: number;
    readonly details: Readonly<Record<string, unknown>> | undefined;
} | {
    readonly t: 'log';
    readonly line: string;
} | {
    readonly t: 'crash';
    readonly reason: string;
    readonly stack: string | undefined;
} | {
    readonly t: 'stopped';
};
/** The longest text a message from a process may carry (a log line, a reason, a stack): past it the message is refused. */
export declare const MOST_TEXT: number;
/**
 * A message from a process as the hub may use it, or what is wrong with it: the process runs
 * a package's code, which may send anything over its channel (`process.send`).
 */
export declare function fromChildOf(message: unknown): FromChild | string;
