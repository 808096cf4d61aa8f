import { type Result } from './errors.ts';
/** Where the site key comes from: a file (its absolute path) or an environment variable. */
export type KeySource = {
    readonly file: string;
} | {
    readonly env: string;
};
/** The shortest key taken, in characters: `openssl rand -hex 32` makes 64 (256 random bits). */
export declare const MIN_KEY_LENGTH = 32;
/** Reads the site key; the reason when it is missing or too short. */
export declare function loadSiteKey(source: KeySource): Result<Buffer>;
