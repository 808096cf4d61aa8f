/**
 * A write a surface's key made, as its origin says it: the key, the surface named as
 * Companion names its surfaces (`satellite-<device id>` for a deck on a satellite), and who
 * pressed it (the desk, or a console pressing the desk's key). The origin is one text through
 * the graph, the log and the traces; a type that hands a press on to something that wants the
 * surface (a Companion module's `surfaceId`) reads it back with `surfaceOf`, never by parsing
 * the text itself.
 */

/** The origin of what key `key` of surface `surface` writes when `by` presses it. */
export const keyOrigin = (surface: string, key: number, by: string): string => `key ${key} of ${surface} (${by})`;

const KEY_ORIGIN = /^key \d+ of (\S+) \(/;

/** The surface a write's origin names when a key made the write; undefined for any other write. */
export const surfaceOf = (origin: string | undefined): string | undefined => KEY_ORIGIN.exec(origin ?? '')?.[1];

/** A deck on a Companion Satellite, as Companion names it among its surfaces. */
export const satelliteSurface = (deviceId: string): string => `satellite-${deviceId}`;
