import { type Checked, type CheckRequest, type TypeDescription } from './type-host-messages.ts';
/** How long a type's module may take to load and describe itself, in ms. */
export declare const DESCRIBE_MS = 10000;
/** How long the hub waits for a check of a connection's settings (its `parse()` and the rest), in ms. */
export declare const CHECK_MS = 2000;
type Described = {
    readonly ok: true;
    readonly description: TypeDescription;
} | {
    readonly ok: false;
    readonly reason: string;
};
export declare class TypeHost {
    readonly version: string;
    private readonly worker;
    private readonly signal;
    private readonly answers;
    /** Why the thread is gone, once it is. */
    private ended;
    private next;
    private readonly describing;
    private readonly described;
    constructor(version: string);
    /** Why the thread can no longer answer, or undefined while it can. */
    get failure(): string | undefined;
    /** A type of the package as its module defines it, or why it cannot be had. */
    describe(module: string, type: string): Promise<Described>;
    private ask;
    /** A check of a connection's settings, answered within CHECK_MS or failed with the reason. */
    check(request: CheckRequest extends infer R ? (R extends CheckRequest ? Omit<R, 'n'> : never) : never): Checked;
    /** Ends the thread, for `reason`: everything asked of it from now on fails with it. */
    end(reason: string): void;
}
/** The thread of the package in `folder` at `version`: the one there is while it runs, or a new one. */
export declare function typeHostFor(folder: string, version: string): TypeHost;
/**
 * Ends the threads past MOST_HOSTS, least recently used first, but never one of `inUse` (the
 * packages of the flow just read, whose checks are yet to come).
 */
export declare function retireTypeHosts(inUse: ReadonlySet<string>): void;
export {};
