import { type Scheduler } from '../../../sdk/index.ts';
export declare class Corrections {
    private readonly scheduler;
    /** Whether the broker is connected: a correction due while it is not is left to `up`, which publishes anyway. */
    private readonly up;
    /** Topics of this hub's someone else published on, and when each was last put back. */
    private readonly byTopic;
    constructor(scheduler: Scheduler, 
    /** Whether the broker is connected: a correction due while it is not is left to `up`, which publishes anyway. */
    up: () => boolean);
    /** Publishes again what someone else overwrote on `topic`. */
    correct(topic: string, republish: () => void): void;
    stop(): void;
}
