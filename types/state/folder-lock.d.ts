import { type Result } from '../core/errors.ts';
/** The file a running hub keeps in its state folder, naming it. */
export declare const LOCK_FILE = "hub.lock";
/**
 * One state folder, one running hub (R-S1): the hub holds the folder by a lock file that
 * names its process. The file is made in one step (a link of a complete file), so a second
 * hub finds it whole or not at all. A lock whose process is gone — a hub killed with
 * SIGKILL, a power cut — holds nothing: the next hub finds the process missing (or the pid
 * used by a process that started later) and takes the folder. The state command does not
 * lock: it may run beside a running hub (R-S6).
 */
export declare class FolderLock {
    private readonly path;
    private readonly content;
    private constructor();
    /** Takes `folder` for this process. Fails with PB_STATE_LOCKED naming the hub that holds it. */
    static take(folder: string): Result<FolderLock>;
    /** Lets go of the folder, unless another process has taken it meanwhile. Idempotent. */
    release(): void;
}
