type Listener = (combination: string) => void;
/**
 * The process-wide global key hook (R-K2), shared by every keyboard connection: started
 * on the first `acquire`, stopped when the last one releases it. A combination fires when
 * its key is released; the modifiers are those held when the key went down, so releasing
 * ctrl a moment before F1 still counts as ctrl-f1.
 */
declare class GlobalHook {
    private readonly listeners;
    private hook;
    private codeToKey;
    private readonly armed;
    /** Call only after `probeDisplay()` passed: loading the hook without a display aborts the process. */
    acquire(listener: Listener): () => void;
    get running(): boolean;
    private startHook;
    private down;
    private up;
}
export declare const globalHook: GlobalHook;
export {};
