import type { SetResult } from '../core/parameter.ts';
import type { Value } from '../core/value.ts';
import type { StatusReport } from '../sdk/context.ts';
/** What to check: a type of a package, the settings that work with the author's device, and those that must not. */
export interface TypeCheck {
    /** The package's folder (its package.json declares the type), absolute or relative to the working folder. */
    readonly package: string;
    /** The type, one the package declares. */
    readonly type: string;
    /** Settings of a connection of the type that work with the device the author runs for the check. */
    readonly settings: Readonly<Record<string, unknown>>;
    /** Settings that must be refused, each with the path of the mistake in them (`"port"`, `"displays/0/text"`). */
    readonly refused?: readonly {
        readonly settings: Readonly<Record<string, unknown>>;
        readonly path: string;
    }[];
    /** The status the connection must reach with `settings`; default `ok`. */
    readonly reaches?: 'ok' | 'degraded' | 'disabled';
    /** Milliseconds to wait for it, and for a stop to release what the start took; default 10,000. */
    readonly timeoutMs?: number;
    /** The author's own checks while the connection runs: throw (or reject) to fail. */
    readonly exercise?: (connection: RunningConnection) => void | Promise<void>;
    /**
     * Other settings that work with the device: after `exercise` the check reloads the hub with
     * them, as an operator's edit of the flow file would, and the connection must take them and
     * reach its status again.
     */
    readonly changed?: Readonly<Record<string, unknown>>;
}
/** The connection under check, while it runs: its parameters by id (without the connection's id). */
export interface RunningConnection {
    /** A parameter's value; undefined when it has none or does not exist. */
    read(id: string): Value | undefined;
    /** Writes as a client does; resolves with the answer (a device's confirmation or refusal). */
    write(id: string, value: unknown): Promise<SetResult>;
    /** Resolves once `accept` holds for the parameter's value; rejects after `ms` (default `timeoutMs`). */
    waitFor(id: string, accept: (value: Value | undefined) => boolean, ms?: number): Promise<void>;
    /** The ids of its parameters now. */
    parameters(): string[];
    /** Its statuses so far, in order, each with its reason. */
    readonly statuses: readonly StatusReport[];
}
export interface TypeCheckReport {
    readonly passed: readonly string[];
    /** Each check that failed, with why. */
    readonly failed: readonly string[];
    /** The hub's log lines, for a failure's story. */
    readonly log: readonly string[];
}
/** Runs every check; resolves with what passed and what failed. */
export declare function checkConnectionType(check: TypeCheck): Promise<TypeCheckReport>;
/** `checkConnectionType`, throwing an error that lists every failed check (for any test runner). */
export declare function assertConnectionType(check: TypeCheck): Promise<TypeCheckReport>;
