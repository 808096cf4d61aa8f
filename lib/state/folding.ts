/**
 * Folding the journal into the database's keys (R-S4). A running hub appends each turn's
 * writes to its journal file (`journal.ts`) and keeps the latest value of each key it
 * journalled since its last fold, so a read of one of those keys is answered from memory;
 * the file is folded into the keys once it passes a megabyte, when values are read by
 * range, at a reset and at close. The state command folds what a hub left and writes keys
 * directly, after folding, in the same transaction, so every write lands in commit order.
 */
import { statSync } from 'node:fs';
import { type JournalMark, JournalWriter, journalPath, readJournal, removeJournal } from './journal.ts';
import { type Database, databaseKey, MARK_KEY, markOf, olderJournalRange, type Stored, writeKeys } from './layout.ts';

/**
 * One turn's writes as one journal record, JSON (written at native speed): keys and values
 * in turn (`p`) and removed keys (`r`). A turn holds each key once, so the two never share one.
 */
type JournalEntry = { readonly p: Stored[]; readonly r: string[] };

/**
 * The size of a hub's journal file past which it is folded into the keys (and the next
 * file begun): what a start after a kill reads back at most. A fold is a database commit,
 * as costly as fifty appends; folding every 64 turns cost as much as the appends did.
 */
const FOLD_AFTER_BYTES = 1024 * 1024;

export class JournalFolding {
  /**
   * The hub's journal file; undefined until its first commit or read, which folds what a
   * hub before it left, and after each fold that starts the next file.
   */
  private writer: JournalWriter | undefined;
  /** The generation of the file this hub appends to; 0 until it has folded what it found. */
  private generation = 0;
  /**
   * The latest value of each key this hub journalled since it last folded, and where in its
   * file the first of those records begins: while the mark points there, reads find these
   * keys here and a fold applies them from memory instead of reading the file back.
   */
  private journalled = new Map<string, Stored | undefined>();
  private firstJournalled = 0;
  private lookedAt = false;

  constructor(
    private readonly folder: string,
    /** Whether commits go to the journal (a running hub) or to the keys (the state command). */
    private readonly journal: boolean,
    /** A fold that failed: the store's health says why. */
    private readonly failed: (error: unknown) => void,
  ) {}

  /** The value of `key` in the database, or in this hub's journal while that holds its latest. */
  read(db: Database, key: string): Stored | undefined {
    if (this.journalled.has(key) && this.isOurs(markOf(db))) return this.journalled.get(key);
    // A key a running hub has not journalled since its last fold is current in the database
    // (the state command writes there): no fold for it, so a turn that first reads many
    // parameters while the hub writes others does not fold each time.
    if (!this.journal || this.generation === 0 || this.journalled.has(key)) this.foldPending(db);
    return db.get(databaseKey(key));
  }

  /** Folds the journal into the keys, so that reads find the latest values there. */
  foldPending(db: Database): void {
    // Looked at once per turn: a restore reads a hundred thousand keys in one.
    if (this.lookedAt) return;
    this.lookedAt = true;
    queueMicrotask(() => (this.lookedAt = false));
    // A hub folds its own records, and at its first read what a hub before it left; the
    // state command whatever a hub journalled and did not fold.
    if (this.journal ? this.generation > 0 && this.journalled.size === 0 : !this.hasUnfolded(db)) return;
    this.foldNow(db);
  }

  /**
   * A turn's writes, committed: a running hub's as one record appended to its journal file
   * (folded once the file passes a megabyte); the state command's into the keys, in one
   * transaction with whatever a hub journalled before, which is older. Throws when it fails.
   */
  commit(db: Database, batch: ReadonlyMap<string, Stored | undefined>): void {
    if (!this.journal) {
      db.transactionSync(() => {
        this.fold(db);
        writeKeys(db, batch);
      });
      return;
    }
    const entry: JournalEntry = { p: [], r: [] };
    for (const [key, value] of batch) {
      if (value === undefined) entry.r.push(key);
      else entry.p.push(key, value);
    }
    // What a hub before this one left is folded first: it is older.
    if (this.generation === 0) this.foldOrThrow(db);
    this.writer ??= new JournalWriter(journalPath(this.folder, this.generation));
    if (this.journalled.size === 0) this.firstJournalled = this.writer.size;
    try {
      this.writer.append(JSON.stringify(entry));
    } catch (error) {
      // Readers stop at a damaged record: the next commit folds what is whole and starts another file.
      this.writer.close();
      this.writer = undefined;
      this.generation = 0;
      throw error;
    }
    for (const [key, value] of batch) this.journalled.set(key, value);
    if (this.writer.size >= FOLD_AFTER_BYTES) this.foldOrThrow(db);
  }

  /** Folds what is left and closes the journal file: the store closes. */
  close(db: Database | undefined): void {
    if (db && (this.journal || this.hasUnfolded(db))) this.foldNow(db);
    this.writer?.close();
    this.writer = undefined;
  }

  /**
   * Whether the journal's mark is where this hub's own records begin in the file it writes:
   * no other process folded any since, so `journalled` holds every record past the mark.
   */
  private isOurs(mark: JournalMark): boolean {
    return this.writer !== undefined && mark.generation === this.generation && mark.offset === this.firstJournalled;
  }

  /** Whether a hub's journal holds records not folded yet: the file past the mark, or records of an earlier version. */
  private hasUnfolded(db: Database): boolean {
    if (db.getKeysCount(olderJournalRange()) > 0) return true;
    const mark = markOf(db);
    return (statSync(journalPath(this.folder, mark.generation), { throwIfNoEntry: false })?.size ?? 0) > mark.offset;
  }

  private foldNow(db: Database): void {
    try {
      this.foldOrThrow(db);
    } catch (error) {
      this.failed(error);
    }
  }

  /**
   * Folds in a transaction of its own. A hub, which alone writes the file, also moves the
   * mark to the next file and removes the folded one once the fold is committed; the state
   * command leaves the file to the hub and moves the mark within it.
   */
  private foldOrThrow(db: Database): void {
    const rotate = this.journal;
    const folded = db.transactionSync(() => this.fold(db, rotate));
    // Only once the fold is committed: until then reads still find the values here. The
    // next append says where the records kept here begin.
    this.journalled = new Map();
    if (!rotate) return;
    this.writer?.close();
    this.writer = undefined;
    this.generation = folded + 1;
    removeJournal(journalPath(this.folder, folded));
  }

  /**
   * Inside a write transaction: applies the journal records past the mark, in order, to
   * the keys they name (the latest value of each, once), and moves the mark past them.
   * Returns the generation of the file it folded.
   */
  private fold(db: Database, rotate = false): number {
    const mark = markOf(db);
    const latest = new Map<string, Stored | undefined>();
    const apply = (record: string) => {
      const { p, r } = JSON.parse(record) as JournalEntry;
      for (let i = 0; i < p.length; i += 2) latest.set(p[i] as string, p[i + 1]);
      for (const key of r) latest.set(key, undefined);
    };
    // Records an earlier version kept in the database are older than any file's.
    for (const { key, value } of db.getRange(olderJournalRange())) {
      apply(value as string);
      db.removeSync(key);
    }
    let end: number;
    if (this.writer && this.isOurs(mark)) {
      for (const [key, value] of this.journalled) latest.set(key, value);
      end = this.writer.size;
    } else {
      // Not where this hub's own records begin (another process folded some, or a hub before it left them): read them back.
      const found = readJournal(journalPath(this.folder, mark.generation), mark.offset);
      for (const record of found.records) apply(record);
      end = found.end;
    }
    writeKeys(db, latest);
    const next: JournalMark = rotate ? { generation: mark.generation + 1, offset: 0 } : { generation: mark.generation, offset: end };
    if (next.generation !== mark.generation || next.offset !== mark.offset)
      db.putSync(MARK_KEY, { generation: next.generation, offset: next.offset });
    return mark.generation;
  }
}
