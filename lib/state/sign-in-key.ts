/**
 * The key that signs the session cookies of browsers signed in by token (R-H11), kept in
 * the state folder so that a restart does not sign them out. It is a file of its own
 * (`sign-in.key`, mode 600: the user's alone), not a value in the database: `state export`
 * must never carry a secret, and the file can be replaced whole by `patchbay state <flow>
 * rotate-sign-in-key`, which signs every browser out. A running hub follows the file, so a
 * new key signs browsers out at once, not at the next start.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, type FSWatcher, mkdirSync, readFileSync, renameSync, statSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail, ok, reasonOf, type Result } from '../core/errors.ts';
import type { Logger } from '../core/log.ts';

export const SIGN_IN_KEY_FILE = 'sign-in.key';

const keyText = () => `${randomBytes(32).toString('hex')}\n`;

/** 32 bytes or more as hex, or an error saying what is wrong with the file. */
function parseKey(text: string, path: string): Result<Buffer> {
  const hex = text.trim();
  return /^(?:[0-9a-f]{2}){32,}$/i.test(hex)
    ? ok(Buffer.from(hex, 'hex'))
    : fail('PB_STATE_UNAVAILABLE', `${path} does not hold a sign-in key (64 or more hex digits)`);
}

/** Writes a new key into `folder`, replacing the file in one step (a rename), readable by the user alone. */
export function rotateSignInKey(folder: string): Result<string> {
  const path = join(folder, SIGN_IN_KEY_FILE);
  const temporary = `${path}.${process.pid}.new`;
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(temporary, keyText(), { mode: 0o600, flag: 'w' });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
    return ok(path);
  } catch (error) {
    return fail('PB_STATE_UNAVAILABLE', `cannot write a sign-in key to ${path}: ${reasonOf(error)}`);
  }
}

/**
 * The key in `folder`, made when there is none, and followed while the hub runs. When the
 * folder cannot hold it the key is this process's alone, with a warning: browsers are
 * signed out at the next start, as without a state folder.
 */
export class KeptSessionKey {
  private key: Buffer;
  private watcher: FSWatcher | undefined;
  private closed = false;
  private readonly path: string;

  constructor(
    folder: string,
    private readonly log: Logger,
  ) {
    this.path = join(folder, SIGN_IN_KEY_FILE);
    const read = this.read() ?? this.make(folder);
    this.key = read ?? randomBytes(32);
    if (read) this.follow();
  }

  /** The key now: read at each use, so that a new one counts at once. */
  current(): Buffer {
    return this.key;
  }

  /** Stops following the file. Idempotent. */
  close(): void {
    this.closed = true;
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** The key in the file, when there is one that can be read; warns about one others may read. */
  private read(): Buffer | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`cannot read the sign-in key ${this.path}: ${reasonOf(error)}`);
      return undefined;
    }
    const parsed = parseKey(text, this.path);
    if (!parsed.ok) {
      this.log.warn(`${parsed.error.message}; a new one is made, which signs every browser out`);
      return undefined;
    }
    if ((statSync(this.path).mode & 0o077) !== 0)
      this.log.warn(`${this.path} may be read by other users: whoever reads it can sign in as any token holder; chmod 600 it`);
    return parsed.value;
  }

  private make(folder: string): Buffer | undefined {
    const made = rotateSignInKey(folder);
    if (!made.ok) {
      this.log.warn(`${made.error.message}: browsers signed in by token are signed out at every start`);
      return undefined;
    }
    return this.read();
  }

  /**
   * Follows the file: a rename over it (rotation) ends the watch of the old file, so each
   * event reads the file again and watches whatever is there now.
   */
  private follow(): void {
    if (this.closed) return;
    try {
      this.watcher = watch(this.path, { persistent: false }, () => {
        this.watcher?.close();
        this.watcher = undefined;
        const next = this.read();
        if (next && !next.equals(this.key)) {
          this.key = next;
          this.log.info('a new sign-in key: every browser signed in by token must sign in again');
        }
        this.follow();
      });
    } catch (error) {
      this.log.warn(`cannot follow ${this.path} (a new key counts from the next start): ${reasonOf(error)}`);
    }
  }
}
