/**
 * The rates a WebSocket client's `?maxHz=` runs at (R-W2). Clients of one filter set share
 * a topic per rate, and each topic ticks on its own, so a rate asked is taken down to the
 * nearest step of a fixed ladder — 1, 2 and 5 times a power of ten, from 0.1 to 1000 a
 * second — rather than kept as asked: twenty dashboards asking twenty rates share at most
 * thirteen topics per filter set, not twenty, and a client still never gets more than it
 * asked for.
 */
export declare const rateLadder: readonly [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
/** The highest rate of the ladder at or below `hz`; 0 (no limit) stays 0; undefined below the lowest step or above the highest. */
export declare function rateAtOrBelow(hz: number): number | undefined;
