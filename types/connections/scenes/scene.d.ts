/**
 * One scene of a `scenes` connection while it runs (R-Y1): its parameters, its stored values
 * (a record of the connection), store, recall, and the dirty flag that follows every kept
 * address.
 */
import { type ConnectionContext, HubError, type AddressPatterns } from '../../sdk/index.ts';
/** A scene as the settings give it, its member patterns compiled. */
export interface SceneSettings {
    readonly id: string;
    readonly members: readonly string[];
    readonly patterns: AddressPatterns;
}
/** The bound on a scene's size, shared by the scenes of a connection: `over` says whether a scene's latest store was over it. */
export interface SceneBound {
    readonly maxMembers: number;
    over(sceneId: string, over: boolean): void;
}
/**
 * One scene while the connection runs. Dirty is a count of kept members that exist and
 * differ, kept up to date by following each kept address (members come and go).
 */
export declare class Scene {
    private readonly context;
    private readonly settings;
    private readonly bound;
    private stored;
    private readonly following;
    private readonly differing;
    /** Counts recalls, so that late device answers are reported only for the latest one. */
    private recallNumber;
    private readonly dirty;
    private readonly size;
    private readonly report;
    constructor(context: ConnectionContext, settings: SceneSettings, bound: SceneBound);
    /**
     * A trigger that runs `work` and fires for whoever listens. Its writer is answered once
     * what the work stored is as safe as the hub promises (R-S4): an HTTP client that has
     * its `OK` for a store knows the scene survives the hub being killed. A trigger's write
     * alone would be answered at once, so the trigger answers itself (as a device's
     * parameter does when the device confirms). One that could not be done (a store past
     * `maxMembers`, a recall of a scene never stored) is refused with the reason.
     */
    private command;
    private get key();
    private get origin();
    /** The parameters the scene would keep now: read-write state parameters of other connections with a known value. */
    private members;
    store(): HubError | undefined;
    /**
     * Writes every kept value whose parameter exists and still matches the members, in one
     * synchronous loop: the whole scene lands in this turn. Gone members are skipped and
     * listed; a refused write is listed and the others are written. A recall that a write
     * of this one sets off again (a rule from a member to recall) settles: it writes the
     * values already there, which changes nothing and fires no rule.
     */
    recall(): HubError | undefined;
    /** Follows every kept address: dirty counts the members that exist and differ from the scene. */
    private follow;
    private unfollow;
    close(): void;
    details(): {
        id: string;
        members: readonly string[];
        stored: number;
        dirty: boolean;
    };
}
