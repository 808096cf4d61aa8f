/**
 * The site key (R-M5, R-AV3): the one secret every hub of a site holds, and the witness of a
 * group. It signs what hubs share on the broker and the votes of a group. Read from a file or
 * an environment variable, never from the flow file.
 */
import { readFileSync } from 'node:fs';
import { fail, ok, type Result } from '../core/errors.ts';

/** Where the site key comes from: a file (its absolute path) or an environment variable. */
export type KeySource = { readonly file: string } | { readonly env: string };

/** The shortest key taken, in characters: `openssl rand -hex 32` makes 64 (256 random bits). */
export const MIN_KEY_LENGTH = 32;
/** Reads the site key; the reason when it is missing or too short. */
export function loadSiteKey(source: KeySource): Result<Buffer> {
  let text: string | undefined;
  let where: string;
  if ('file' in source) {
    where = `the key file ${source.file}`;
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (error) {
      return fail('PB_START_FAILED', `${where} cannot be read: ${(error as Error).message}`);
    }
  } else {
    where = `the environment variable ${source.env}`;
    text = process.env[source.env];
    if (text === undefined || text === '')
      return fail('PB_START_FAILED', `${where} is not set: hubs that share a broker need the site key`);
  }
  const key = Buffer.from(text.trim(), 'utf8');
  if (key.length < MIN_KEY_LENGTH)
    return fail(
      'PB_START_FAILED',
      `${where} holds ${key.length} characters; a site key has at least ${MIN_KEY_LENGTH} (make one with: openssl rand -hex 32, 64 characters of 256 random bits)`,
    );
  return ok(key);
}
