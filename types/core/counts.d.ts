/**
 * What the hub counts of its own work, read by `/metrics` when scraped (R-O1): plain
 * numbers kept where the work is done, so counting costs an addition.
 */
export interface HubCounts {
    /** Restarts of each connection by reloads that changed its settings, by connection id. */
    readonly restarts: ReadonlyMap<string, number>;
    readonly rules: {
        /** Destination writes rules made. */
        readonly writes: number;
        /** Rule writes a destination refused (a value it cannot take). */
        readonly failures: number;
        /** Rule writes dropped to cut a feedback loop. */
        readonly loopCuts: number;
    };
    /** Absent without a state folder. */
    readonly store?: {
        readonly healthy: boolean;
        /** Values and records written (deletions included). */
        readonly writes: number;
        /** Commits: one per event-loop turn that wrote. */
        readonly commits: number;
        /** Seconds spent committing, in all. */
        readonly commitSeconds: number;
    };
}
/**
 * A metric a connection type reports of each of its connections (R-O1): read at scrape
 * time from what the connection reports about itself (`details`), so the type counts in
 * its own code and `/metrics` knows no type by name.
 */
export interface ConnectionMetric {
    /** `patchbay_<type>_<what>`. */
    readonly name: string;
    readonly help: string;
    readonly kind: 'gauge' | 'counter';
    /** Labels besides `connection`, which every sample has. */
    readonly labelNames?: readonly string[];
    /** The samples of one connection, from its details. */
    samples(details: Readonly<Record<string, unknown>>): readonly MetricSample[];
}
export interface MetricSample {
    readonly labels?: Readonly<Record<string, string>>;
    readonly value: number;
}
