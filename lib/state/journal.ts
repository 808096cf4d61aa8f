import { closeSync, ftruncateSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * A running hub's journal (R-S4): each commit is one record appended to a file in the
 * state folder with one write call, where an LMDB commit took three page writes and its
 * free-page bookkeeping (16 µs against 3 µs here, on the path of every kept `/update`).
 * What a write call has handed to the operating system survives the process being
 * killed, which is what durability `process` promises.
 *
 * A record is its length and the CRC-32 of its bytes (both 32-bit little-endian), then the
 * bytes. A reader takes the whole records of a file and stops at the first that is cut
 * short or does not match its checksum: what a failed write or a power cut leaves.
 *
 * Files are numbered (`journal-<generation>`). Which bytes are folded into the database
 * is a mark the database itself keeps (`JournalMark`), moved in the transaction that
 * folds them, so a process that dies at any moment leaves every record folded once or
 * still to fold.
 */
export interface JournalMark {
  /** The file records are appended to. Files of earlier generations are folded whole. */
  readonly generation: number;
  /** Where in it the records still to fold begin. */
  readonly offset: number;
}

export const firstMark: JournalMark = { generation: 1, offset: 0 };

const HEADER = 8;

export const journalPath = (folder: string, generation: number) => join(folder, `journal-${generation}`);

/** The journal file a hub appends to: only the hub that holds the folder writes one. */
export class JournalWriter {
  private readonly fd: number;
  /** Bytes of whole records in the file: where the next one goes. */
  size = 0;
  /** Where each record is put together: one buffer for every append, grown for a larger one. */
  private scratch = Buffer.allocUnsafe(64 * 1024);

  /** Starts the file of `generation` empty: anything there was never marked and is not the journal's. */
  constructor(readonly path: string) {
    // Kept values may be secrets (a token a rule carries): the hub's user's alone, as the flow file.
    this.fd = openSync(path, 'w', 0o600);
  }

  /**
   * Appends one record. Throws when the operating system did not take all of it, after
   * cutting the file back to its whole records (a failing disk may refuse that too: the
   * caller then starts another file, since readers stop at a damaged record).
   */
  append(payload: string): void {
    // Room for the longest UTF-8 the text can take, so that `write` never cuts it.
    if (this.scratch.length < HEADER + payload.length * 3) this.scratch = Buffer.allocUnsafe(HEADER + payload.length * 3);
    const record = this.scratch;
    const length = record.write(payload, HEADER);
    record.writeUInt32LE(length, 0);
    record.writeUInt32LE(crc32(record.subarray(HEADER, HEADER + length)), 4);
    const bytes = HEADER + length;
    try {
      const written = writeSync(this.fd, record, 0, bytes, this.size);
      if (written !== bytes) throw new Error(`the journal took ${written} of ${bytes} bytes`);
    } catch (error) {
      try {
        ftruncateSync(this.fd, this.size);
      } catch {
        // the caller starts another file
      }
      throw error;
    }
    this.size += bytes;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** The whole records of a journal file from `offset`, and where the last of them ends; a missing file has none. */
export function readJournal(path: string, offset: number): { readonly records: string[]; readonly end: number } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], end: offset };
    throw error;
  }
  const records: string[] = [];
  let at = offset;
  while (at + HEADER <= bytes.length) {
    const length = bytes.readUInt32LE(at);
    const end = at + HEADER + length;
    if (end > bytes.length) break;
    const body = bytes.subarray(at + HEADER, end);
    if (crc32(body) !== bytes.readUInt32LE(at + 4)) break;
    records.push(body.toString());
    at = end;
  }
  return { records, end: at };
}

/**
 * Removes a journal file whose records are folded. One that stays (a folder that refuses
 * it) is harmless: the mark has moved past its generation, and nothing reads it again.
 */
export function removeJournal(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // see above
  }
}
