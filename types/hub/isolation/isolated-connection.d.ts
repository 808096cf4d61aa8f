import type { ConnectionConfig, ConnectionInstance, ConnectionPlan } from '../../connections/connection.ts';
import type { IsolationHooks } from '../../connections/runner.ts';
import type { StopReason } from '../../sdk/type.ts';
export declare class IsolatedConnection implements ConnectionInstance {
    private config;
    private readonly hooks;
    private child;
    /** True once the current process has started its instance. */
    private up;
    private stopping;
    private attempts;
    private startedAt;
    private restartTimer;
    private pingTimer;
    private lastPong;
    private lastPing;
    private lastTick;
    /** Set when the process was killed for not answering, to the ms it went unanswered: the reason it ended. */
    private hungFor;
    /** Set when the process was killed for the memory it held, to that many MB. */
    private overMemory;
    /** Why the hub killed the process for what it sent, when it did. */
    private refused;
    private output;
    /** True once the current process answered a ping. */
    private answered;
    private pings;
    private reportedDetails;
    /** Why the last process ended, while none runs. */
    private down;
    /** Its parameters in the hub, kept across processes so their values stay readable. */
    private readonly mirror;
    private nextWrite;
    private readonly pending;
    private nextUpdate;
    /** Updates sent to the process, by number: each settled by its answer, its end, or `hangMs`. */
    private readonly updating;
    private fence;
    private readonly hangMs;
    private readonly maxMemoryMb;
    /** The end of what the process wrote to its standard error, to say why it ended. */
    private stderrTail;
    constructor(config: ConnectionConfig, hooks: IsolationHooks);
    /** Resolves once the first process has started its instance, or failed to (then a restart waits). */
    start(): Promise<void>;
    stop(reason?: StopReason): Promise<void>;
    /**
     * New settings while it runs (a reload): the instance in its process takes them in place
     * when its type has `update`; false (no `update`, declined, no process, no answer within
     * `hangMs`) has the runner restart it; an `update` that throws fails it. The settings taken
     * are the ones a later process starts with.
     */
    update(plan: ConnectionPlan): Promise<boolean>;
    details(): Readonly<Record<string, unknown>>;
    private spawn;
    private tick;
    private fenceState;
    /** What the process tells of its parameters and records. */
    private receive;
    /** The hub's parameter for one of the process's: its writes go to the process, answered with its answer. */
    private hubSpec;
    private answerPending;
}
