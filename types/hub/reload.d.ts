/**
 * Reloads: moving the running hub to an edited flow. The new flow is compared with the
 * running connections (kept, updated in place, restarted, added, removed) and summed up; a
 * flow whose running code flows would not load is refused, and the hub runs on as it was.
 */
import type { Subject } from 'rxjs';
import type { Flow } from '../config/flow-file.ts';
import { type Problem } from '../connections/connection.ts';
import type { ConnectionRunner } from '../connections/runner.ts';
import { HubError } from '../core/errors.ts';
import type { Logger } from '../core/log.ts';
import type { StateStore } from '../state/store.ts';
import type { Logic } from './logic.ts';
import { type GroupRole } from './redundancy.ts';
import type { RunnerFactory } from './runner-factory.ts';
/**
 * A reload not taken: a code flow that runs would not load as edited (a typo). The hub runs
 * on as it was, and lists the problem until a reload is taken.
 */
export declare class ReloadRefused extends HubError {
    constructor(message: string, code?: 'PB_CODE_FLOW' | 'PB_FLOW_FILE_INVALID');
}
/** What a reload changed. */
export interface ReloadSummary {
    /** Connections whose settings did not change, and those that took new settings in place. */
    readonly kept: readonly string[];
    /** Of the kept ones, those whose own settings changed and were taken without a restart. */
    readonly updated: readonly string[];
    readonly restarted: readonly string[];
    readonly added: readonly string[];
    readonly removed: readonly string[];
}
/** What a reload works on, of the hub. */
export interface ReloadTarget {
    readonly log: Logger;
    readonly state: StateStore | undefined;
    /** The rules and code flows of the running flow. */
    readonly logic: Logic;
    /** Makes the runners of new and restarted connections, and lets go of those that leave. */
    readonly factory: RunnerFactory;
    /** The hub's role in its redundancy group: a standby runs no rules or code flows. */
    readonly groupRole: GroupRole;
    /** The group the running flow puts the hub in (R-B1), if any. */
    group(): string | undefined;
    /** The connections of the running flow, in flow order. */
    runners(): readonly ConnectionRunner[];
    /** Every problem of the hub as it happens. */
    readonly problemStream: Subject<Problem>;
    /** Told when connections came or went, for the clients that follow them. */
    readonly connectionsChanged: Subject<void>;
    /** True when the hub runs the connection now (a standby runs only those that serve the hub). */
    runsHere(runner: ConnectionRunner): boolean;
    /** Starts the code flows, then the rules; resolves with how many rules run. */
    startLogic(): Promise<number>;
    /** Stops the rules and the code flows. */
    stopLogic(): void;
    /** Makes `flow` the running flow, then what `runners` makes its connections. */
    adopt(flow: Flow, runners: () => ConnectionRunner[]): void;
}
/** The hub's reloads, and what they leave for the hub to show: the refusal of the last one, the restarts they made. */
export declare class Reloads {
    private readonly hub;
    /** Code flows a refused reload kept running, with why (until a reload is taken). */
    refusals: Problem[];
    /** Restarts of each connection by reloads (`/metrics`). */
    readonly restarts: Map<string, number>;
    constructor(hub: ReloadTarget);
    /** The hub's reload: refused when the group changes or a running code flow would not load as edited, else applied. */
    reload(flow: Flow): Promise<ReloadSummary>;
    private apply;
}
