/**
 * Milliseconds on the monotonic clock (CLOCK_MONOTONIC), with microsecond resolution.
 * It is the same clock in every process of this machine, so a timestamp written by the
 * load writer can be compared with the arrival time in a client process.
 */
export function nowMs() {
    return Number(process.hrtime.bigint() / 1000n) / 1000;
}
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The p-th percentile (0–100) of `values`, NaN when empty. */
export function percentile(values, p) {
    if (values.length === 0)
        return Number.NaN;
    const sorted = Float64Array.from(values).sort();
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
