import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
/** A scheduler whose clock moves only when a spec says so. */
export class VirtualClock {
    scheduler = new VirtualTimeScheduler(VirtualAction, Number.POSITIVE_INFINITY);
    get now() {
        return this.scheduler.frame;
    }
    /** Runs everything due up to `ms` from now, in order, and leaves the clock there. */
    advanceBy(ms) {
        const target = this.scheduler.frame + ms;
        this.scheduler.maxFrames = target;
        this.scheduler.flush();
        this.scheduler.frame = target;
    }
}
