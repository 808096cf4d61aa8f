import { type Observable } from 'rxjs';
import { type HubError } from '../core/errors.ts';
import type { Graph } from '../core/graph.ts';
import type { Logger } from '../core/log.ts';
import type { Scheduler } from '../core/scheduler.ts';
import type { Fence } from '../core/lease.ts';
import { type Json, type Value } from '../core/value.ts';
import { type ConnectionConfig, type ConnectionInfo, type ConnectionInstance, type StopReason, type StatusReport } from './connection.ts';
import type { ConnectionContext } from '../sdk/context.ts';
import type { HubServices } from './serving.ts';
import { type RecordsEnvironment } from './records.ts';
export declare const connectedParameterId = "_status/connected";
export interface RunnerEnvironment extends RecordsEnvironment {
    readonly graph: Graph;
    readonly scheduler: Scheduler;
    readonly log: Logger;
    readonly baseDir: string;
    /** What the hub grants the types that serve it (`servesHub`); the others never see it. */
    readonly hub: HubServices;
    /** See `ConnectionContext.whenRunning`. */
    readonly whenRunning: (work: () => void) => void;
    /** See `ConnectionContext.fence`. */
    readonly fence: Fence;
    /** While a standby takes over: the active hub's last value of a parameter, which it starts from (R-B2). */
    readonly carried?: (address: string) => Value | undefined;
    /**
     * Runs a connection in a process of its own (R-PK4): what its settings or its type ask
     * for. Absent: every connection runs in the hub's process.
     */
    readonly isolate?: (config: ConnectionConfig, hooks: IsolationHooks) => ConnectionInstance;
}
/** What a connection in a process of its own gets from its runner (see `RunnerEnvironment.isolate`). */
export interface IsolationHooks {
    /** Its context in the hub: where its parameters, statuses and records go. */
    readonly context: ConnectionContext;
    /** Every record it keeps now, for the process to read as it starts. */
    records(): readonly (readonly [string, Json])[];
    /** Shows it `failed` with the reason while its parameters stay (its process is gone, a new one is coming). */
    failed(error: HubError): void;
}
/**
 * Runs one configured connection through its lifecycle (R-L1, R-L2): disabled, or
 * starting → ok / degraded / failed. A start that throws leaves the connection `failed`
 * with the reason and its parameters removed; it never throws to the caller. `stop` is
 * idempotent.
 */
export declare class ConnectionRunner {
    private readonly env;
    private readonly report;
    private instance;
    private connected;
    private readonly log;
    readonly status$: Observable<StatusReport>;
    private current;
    /** The status the connection itself reports; what is shown may add the store's trouble. */
    private own;
    /** Whether it has been `ok` since it started: a device's first link up is "connected", later ones "ok again". */
    private wasOk;
    /** True once the connection defined a parameter the hub keeps. */
    private keeps;
    /** Why values are not being saved, while they are not. */
    private storeTrouble;
    /** While the connection's start runs: the stored values of its parameters, read at once when the first is defined. */
    private restoring;
    private storeWatch;
    /** Why another hub's claim keeps this connection from running, once one does (R-M5). */
    private refusal;
    /** Its records: in the state folder, or in memory (records.ts). */
    private readonly records;
    constructor(config: ConnectionConfig, env: RunnerEnvironment);
    get id(): string;
    get config(): ConnectionConfig;
    get status(): StatusReport;
    get info(): ConnectionInfo;
    start(): Promise<void>;
    /**
     * A connection whose values are kept shows `degraded` while the store cannot save them
     * (6 of R-S: a failing store is never a failing hub, but it is visible where people look).
     */
    private watchStore;
    /**
     * Moves the connection to `config` in place when it can: only its descriptive settings
     * changed, or its type updates itself. Resolves false when a restart is needed (another
     * type, `enabled`, `debug`, `statusParameters` or `persist` changed, or the type cannot update).
     */
    update(config: ConnectionConfig): Promise<boolean>;
    /** Fails the connection for good (until it is replaced): another hub owns its id. */
    refuse(error: HubError): Promise<void>;
    private fail;
    /** Stops the running instance, if any, telling it why (see `StopReason`). */
    stop(reason?: StopReason): Promise<void>;
    /**
     * Stops the connection and removes every trace of it from the graph. With `forget` it
     * is gone from the flow, and its kept values and records go too; without, it is about
     * to start again with other settings and finds them.
     */
    dispose({ forget }: {
        forget: boolean;
    }): Promise<void>;
    /** True when `config` would run this connection exactly as it runs now. */
    sameAs(config: ConnectionConfig): boolean;
    private context;
    /** Every record of the running connection, as [key, record]: what a standby keeps of it. */
    recordEntries(): [string, Json][];
    /**
     * Warns of every stored value of a table's kept rows that no longer fits its row (R-S3),
     * now, as the connection starts: its rows are made when first used, which may be never,
     * and a warning an operator can rely on is in the log before the hub serves anyone. Every
     * value was stored converted to its row's type, so only settings changed since the last
     * pass (their fingerprint is kept as a record) can make one misfit: reading back every
     * stored value of a hundred thousand rows takes half a second.
     */
    private tellMisfits;
    private warnMisfit;
    /**
     * The spec with the stored value as its initial one, when the parameter persists and a
     * usable value is stored (R-S3); with `persist: false` on the connection it does not persist.
     * `quiet`: a table's row, whose stored value was checked when the table was defined.
     */
    private seeded;
    private restored;
    private setStatus;
    /** Shows the connection's own status, or `degraded` while it is ok but its values cannot be saved. */
    private publish;
}
