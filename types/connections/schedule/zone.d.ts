/**
 * Local time in one IANA time zone, with the schedule's rule for daylight-saving changes.
 *
 * A wall time is a local date and time written as if it were UTC: milliseconds since the
 * epoch of "2026-03-29T02:30:00" read as "2026-03-29T02:30:00Z". Instants are real
 * milliseconds since the epoch. `offsetAt` links them: wall = instant + offset.
 *
 * Where a change makes a wall time happen twice (autumn), it stands for its first
 * instant; where a change skips it (spring), it stands for the instant of the change. So
 * every wall time has one instant, and later wall times never have earlier instants: what
 * lets a schedule fire each local time exactly once (R-Z1).
 */
export declare class Zone {
    readonly name: string;
    private readonly fields;
    private constructor();
    /** The zone of this name (an IANA name such as `Europe/Berlin`, or `UTC`), or undefined when this machine does not know it. */
    static named(name: string): Zone | undefined;
    /** The machine's own time zone (`TZ`, or the system's setting). */
    static ofMachine(): Zone;
    /** Milliseconds to add to `instant` to get its wall time. Offsets change on whole seconds, so the milliseconds are left out. */
    offsetAt(instant: number): number;
    wallOf(instant: number): number;
    /**
     * The instant a wall time stands for: its only instant, the first of two (a time an
     * autumn change repeats), or the change itself (a time a spring change skips).
     */
    instantOf(wall: number): number;
    /**
     * The first whole second in (from, to] whose offset differs from `from`'s: the instant of
     * a change known to lie there (a binary search, some twenty formats for a day).
     */
    changeBetween(from: number, to: number): number;
    /**
     * `2026-03-29T03:00:00+02:00`: the instant as local time with its offset, to the second, or
     * to the millisecond for an instant within a second (an `at` written with a fraction).
     */
    iso(instant: number): string;
}
