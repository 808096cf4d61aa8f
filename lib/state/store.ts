import { mkdirSync, statSync } from 'node:fs';
import { open, type RootDatabase } from 'lmdb';
import { BehaviorSubject, type Observable } from 'rxjs';
import { type ErrorCode, fail, ok, reasonOf, type Result } from '../core/errors.ts';
import { afterTurn } from '../core/scheduler.ts';
import type { Json } from '../core/value.ts';
import { FolderLock } from './folder-lock.ts';
import { firstMark, type JournalMark, JournalWriter, journalPath, readJournal, removeJournal } from './journal.ts';

/**
 * How far an answered write is safe (R-S4). `process`: written to the operating system
 * before the answer, so it survives the hub being killed (SIGKILL, a crash) but not a
 * power cut. `power`: also synced to the disk before the answer.
 */
export type Durability = 'process' | 'power';

/** What the store holds: parameter values, and small records connections keep (timer deadlines). */
export type Stored = Json;

export type StoreHealth =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: string; readonly code: Extract<ErrorCode, 'PB_STATE_UNAVAILABLE' | 'PB_STATE_LOCKED'> };

// Keys: `v <address>` for values, `k <connection id>/<key>` for records, `m journal` for
// the journal's mark (`j <number>`: journal records an earlier version kept in the
// database). The space sorts before every character an address may hold, so a prefix scan
// is a range.
const valueKey = (address: string) => `v ${address}`;
/** The keys of every stored value of a connection's parameters. A fresh object each time: LMDB writes into the options it is given. */
const valuesRange = (connectionId: string) => ({ start: valueKey(`${connectionId}/`), end: valueKey(`${connectionId}0`) });
const recordKey = (connectionId: string, key: string) => `k ${connectionId}/${key}`;
// In memory and in the journal a value is keyed by its address as it is (no string is
// built per write) and a record by its database key: an address never holds a space.
const isRecordKey = (key: string) => key.startsWith('k ');
const databaseKey = (key: string) => (isRecordKey(key) ? key : valueKey(key));
/** The journal records of an earlier version, kept in the database. A fresh object each time: LMDB writes into the options it is given. */
const olderJournalRange = () => ({ start: 'j ', end: 'j!' });
const MARK_KEY = 'm journal';

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

/**
 * The hub's embedded database (LMDB) in its state folder (R-S1). Writes go through at
 * once and every write of one event-loop turn is committed together, so there is no
 * periodic flush and nothing waits in memory longer than a turn. A running hub commits a
 * turn's writes as one record appended to its journal file (`journal.ts`: one write call,
 * where a database commit took several), folded into the values' own keys in the database
 * once the file passes a megabyte and when values are read by range, reset or closed (a
 * single key the hub journalled is read from memory): a fader moved a thousand times
 * between two folds is written to its key once. Other processes (the state command) write
 * keys directly, after folding the journal in the same transaction, so every write lands
 * in commit order.
 *
 * A failed commit (a full disk, a folder that became unwritable) never throws at the hub:
 * the store turns unhealthy with the reason, keeps the latest value of every unsaved key,
 * and writes them all at the next attempt. Several processes may open the same folder at
 * once (the `patchbay state` command beside a running hub), but only one running hub: it
 * holds the folder with a lock file (`FolderLock`), and a second is refused as a folder
 * that cannot be opened is.
 */
export class StateStore {
  private readonly healthSubject = new BehaviorSubject<StoreHealth>({ ok: true });
  /**
   * The latest value of every key handed to the database whose write has not been
   * confirmed (a commit on LMDB's writer thread, or one that failed); `undefined` removes.
   */
  private readonly unsaved = new Map<string, Stored | undefined>();
  /** What this turn wrote, not yet handed to the database: one batch per turn, the latest value of each key. */
  private turn = new Map<string, Stored | undefined>();
  /** Told once this turn's batch is committed. */
  private turnWaiters: (() => void)[] = [];
  /** `power`: the latest commit still running on LMDB's writer thread (`process` commits before the turn ends). */
  private inFlight: Promise<void> | undefined;
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
  private journalLookedAt = false;

  readonly health$: Observable<StoreHealth> = this.healthSubject.asObservable();

  /** A running hub's hold on the folder (`openOrWait`); the state command holds none. */
  private lock: FolderLock | undefined;

  private constructor(
    private db: RootDatabase<Stored, string> | undefined,
    readonly folder: string,
    readonly durability: Durability,
    /** Whether commits go to the journal (a running hub) or to the keys (the state command). */
    private readonly journal: boolean,
  ) {}

  /** Opens (creating when needed) the store in `folder`. Fails with PB_STATE_UNAVAILABLE and the reason. */
  static open(folder: string, { durability = 'process' }: { durability?: Durability } = {}): Result<StateStore> {
    const db = openDatabase(folder, durability);
    return db.ok ? ok(new StateStore(db.value, folder, durability, false)) : db;
  }

  /**
   * Like `open`, but for a running hub: it holds the folder (one hub a folder), and a folder
   * that cannot be opened or is held by another hub gives a store that is unhealthy with
   * the reason, keeps values in memory, and opens the folder at a later `retry`, so a bad
   * state folder never stops the hub. Its commits go to the journal.
   */
  static openOrWait(folder: string, { durability = 'process' }: { durability?: Durability } = {}): StateStore {
    const store = new StateStore(undefined, folder, durability, durability === 'process');
    store.hold();
    return store;
  }

  /** Takes the folder and opens the database; says why not in the store's health. */
  private hold(): boolean {
    const lock = FolderLock.take(this.folder);
    const db = lock.ok ? openDatabase(this.folder, this.durability) : lock;
    if (!db.ok) {
      if (lock.ok) lock.value.release();
      const code = db.error.code === 'PB_STATE_LOCKED' ? 'PB_STATE_LOCKED' : 'PB_STATE_UNAVAILABLE';
      const reason = `values are kept in memory only, not saved: ${db.error.message}`;
      if (this.health.ok || this.health.reason !== reason) this.healthSubject.next({ ok: false, reason, code });
      return false;
    }
    this.lock = lock.ok ? lock.value : undefined;
    this.db = db.value;
    return true;
  }

  get health(): StoreHealth {
    return this.healthSubject.value;
  }

  /** The stored value of a parameter, or undefined. */
  value(address: string): Stored | undefined {
    return this.read(address);
  }

  /**
   * Every stored value of a connection's parameters, by address: what a connection that
   * defines many parameters at start reads in one range of the database rather than a
   * read each (a million reads took a second and a half).
   */
  valuesOf(connectionId: string): Map<string, Stored> {
    this.foldJournal();
    const found = new Map<string, Stored>();
    const prefix = `${connectionId}/`;
    if (this.db) for (const { key, value } of this.db.getRange(valuesRange(connectionId))) found.set(key.slice(2), value);
    for (const pending of [this.unsaved, this.turn]) {
      for (const [key, value] of pending) {
        if (!key.startsWith(prefix)) continue;
        if (value === undefined) found.delete(key);
        else found.set(key, value);
      }
    }
    return found;
  }

  /** Stores a parameter's value; committed with the other writes of this turn. */
  setValue(address: string, value: Stored): void {
    this.write(address, value);
  }

  /** A record a connection keeps for itself (a running timer's deadline), or undefined. */
  record(connectionId: string, key: string): Stored | undefined {
    return this.read(recordKey(connectionId, key));
  }

  setRecord(connectionId: string, key: string, value: Stored | undefined): void {
    this.write(recordKey(connectionId, key), value);
  }

  /** Every stored parameter value, by address, in address order. */
  values(): [string, Stored][] {
    this.foldJournal();
    if (!this.db) return [];
    return [...this.db.getRange({ start: 'v ', end: 'v!' })].map(({ key, value }) => [key.slice(2), value]);
  }

  /** Every stored record, as [connection id, key, record], in key order: what `state export` moves beside the values. */
  records(): [string, string, Stored][] {
    this.foldJournal();
    if (!this.db) return [];
    return [...this.db.getRange({ start: 'k ', end: 'k!' })].map(({ key, value }) => {
      const slash = key.indexOf('/');
      return [key.slice(2, slash), key.slice(slash + 1), value];
    });
  }

  /** Every record of one connection, as [key, record]. */
  recordsOf(connectionId: string): [string, Stored][] {
    return this.records()
      .filter(([id]) => id === connectionId)
      .map(([, key, record]) => [key, record]);
  }

  /** Forgets every value and record of a connection: it starts from its defaults next time. Resolves with how many values went. */
  async reset(connectionId: string): Promise<number> {
    await this.settled(); // writes of this turn are not in the database yet
    this.foldJournal();
    const values = this.db ? [...this.db.getKeys(valuesRange(connectionId))].map((key) => key.slice(2)) : [];
    const records = this.db ? [...this.db.getKeys({ start: recordKey(connectionId, ''), end: recordKey(`${connectionId}0`, '') })] : [];
    const unsaved = [...this.unsaved.keys()].filter(
      (key) => key.startsWith(`${connectionId}/`) || key.startsWith(recordKey(connectionId, '')),
    );
    let removed = 0;
    for (const key of new Set([...values, ...records, ...unsaved])) {
      this.write(key, undefined);
      if (!isRecordKey(key)) removed++;
    }
    await this.settled();
    return removed;
  }

  /**
   * Resolves once every write made so far is as safe as the durability promises:
   * committed (`process`) or on the disk (`power`). Callers that answer a client await it
   * first (R-S4); concurrent callers share one commit (group commit).
   */
  settled(): Promise<void> {
    return new Promise((resolve) => this.whenSettled(resolve));
  }

  /**
   * `settled` for hot paths: calls `done` once every write made so far is as safe as
   * promised, at once when nothing waits, without a promise per caller. A failed commit
   * calls it too: the value works in memory and the store's health says why it is not saved.
   */
  whenSettled(done: () => void): void {
    if (this.turn.size > 0) this.turnWaiters.push(done);
    else if (this.inFlight) void this.inFlight.then(done);
    else done();
  }

  /** Waits for pending writes, folds the journal, then closes the database and lets go of the folder. */
  async close(): Promise<void> {
    await this.settled();
    if (this.db && (this.journal || this.hasUnfolded(this.db))) this.foldNow(this.db);
    this.writer?.close();
    this.writer = undefined;
    await this.db?.close();
    this.db = undefined;
    this.lock?.release();
    this.lock = undefined;
  }

  private read(key: string): Stored | undefined {
    if (this.turn.has(key)) return this.turn.get(key);
    if (this.unsaved.has(key)) return this.unsaved.get(key);
    if (this.journalled.has(key) && this.db && this.journalIsOurs(markOf(this.db))) return this.journalled.get(key);
    // A key a running hub has not journalled since its last fold is current in the database
    // (the state command writes there): no fold for it, so a turn that first reads many
    // parameters while the hub writes others does not fold each time.
    if (!this.journal || this.generation === 0 || this.journalled.has(key)) this.foldJournal();
    return this.db?.get(databaseKey(key));
  }

  /**
   * Whether the journal's mark is where this hub's own records begin in the file it writes:
   * no other process folded any since, so `journalled` holds every record past the mark.
   */
  private journalIsOurs(mark: JournalMark): boolean {
    return this.writer !== undefined && mark.generation === this.generation && mark.offset === this.firstJournalled;
  }

  /** Folds the journal into the keys, so that reads find the latest values there. */
  private foldJournal(): void {
    const db = this.db;
    // Looked at once per turn: a restore reads a hundred thousand keys in one.
    if (!db || this.journalLookedAt) return;
    this.journalLookedAt = true;
    queueMicrotask(() => (this.journalLookedAt = false));
    // A hub folds its own records, and at its first read what a hub before it left; the
    // state command whatever a hub journalled and did not fold.
    if (this.journal ? this.generation > 0 && this.journalled.size === 0 : !this.hasUnfolded(db)) return;
    this.foldNow(db);
  }

  /** Whether a hub's journal holds records not folded yet: the file past the mark, or records of an earlier version. */
  private hasUnfolded(db: RootDatabase<Stored, string>): boolean {
    if (db.getKeysCount(olderJournalRange()) > 0) return true;
    const mark = markOf(db);
    return (statSync(journalPath(this.folder, mark.generation), { throwIfNoEntry: false })?.size ?? 0) > mark.offset;
  }

  private foldNow(db: RootDatabase<Stored, string>): void {
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
  private foldOrThrow(db: RootDatabase<Stored, string>): void {
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
  private fold(db: RootDatabase<Stored, string>, rotate = false): number {
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
    if (this.writer && this.journalIsOurs(mark)) {
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
    if (next.generation !== mark.generation || next.offset !== mark.offset) db.putSync(MARK_KEY, next as unknown as Stored);
    return mark.generation;
  }

  private write(key: string, value: Stored | undefined): void {
    if (!this.db) {
      this.unsaved.set(key, value);
      return;
    }
    // The first write of a turn opens its batch, committed once the turn's I/O is done:
    // requests and messages that came together share one commit (group commit).
    if (this.turn.size === 0) afterTurn(this.commitTurn);
    this.turn.set(key, value);
  }

  /** Writes, commits and time spent committing since the store opened (`/metrics`). */
  readonly counts = { writes: 0, commits: 0, commitSeconds: 0 };

  /**
   * Hands this turn's writes to the database as one batch and tells the turn's waiters
   * once it is as safe as promised. `process` commits here and now, without a promise: this
   * runs once per turn that wrote, on the path of every kept write.
   */
  private readonly commitTurn = (): void => {
    const db = this.db;
    const batch = this.turn;
    const started = performance.now();
    this.turn = new Map();
    const waiters = this.turnWaiters;
    this.turnWaiters = [];
    const finished = () => {
      this.counts.writes += batch.size;
      this.counts.commits++;
      this.counts.commitSeconds += (performance.now() - started) / 1000;
      // The answers go out from a microtask, after the commit's turn callback returned:
      // answering from inside it measured about a tenth slower (uWS corks each answer).
      if (waiters.length > 0) queueMicrotask(() => tell(waiters));
    };
    if (!db || this.durability === 'process') {
      this.commitNow(db, batch);
      return finished();
    }
    // A failed commit resolves too (the store's health says why): the value works in memory.
    const committed: Promise<void> = this.commitToDisk(db, batch).then(() => {
      if (this.inFlight === committed) this.inFlight = undefined;
      finished();
    });
    this.inFlight = committed;
  };

  /** `process`: the batch written into the operating system's cache before this returns. */
  private commitNow(db: RootDatabase<Stored, string> | undefined, batch: ReadonlyMap<string, Stored | undefined>): void {
    if (!db) {
      for (const [key, value] of batch) this.unsaved.set(key, value);
      return;
    }
    try {
      // Without a sync a commit is a write into the operating system's cache, cheaper
      // here and now (a few µs) than a round trip to LMDB's writer thread.
      if (this.journal) this.commitToJournal(db, batch);
      else {
        db.transactionSync(() => {
          // Whatever a hub journalled before is older than these writes.
          this.fold(db);
          writeKeys(db, batch);
        });
      }
    } catch (error) {
      // Kept to be written again at the next attempt (`retry`).
      for (const [key, value] of batch) this.unsaved.set(key, value);
      return this.failed(error);
    }
    this.committed(batch);
  }

  /** `power`: waiting for the disk happens on LMDB's writer thread, off the event loop; readers find the values meanwhile among the unsaved. */
  private async commitToDisk(db: RootDatabase<Stored, string>, batch: ReadonlyMap<string, Stored | undefined>): Promise<void> {
    for (const [key, value] of batch) this.unsaved.set(key, value);
    try {
      await db.batch(() => {
        for (const [key, value] of batch) {
          if (value === undefined) void db.remove(databaseKey(key));
          else void db.put(databaseKey(key), value);
        }
      });
      await db.flushed;
    } catch (error) {
      // They are among the unsaved already, written again at the next attempt.
      return this.failed(error);
    }
    this.committed(batch);
  }

  private committed(batch: ReadonlyMap<string, Stored | undefined>): void {
    // Older values of these keys whose save failed are superseded; in `power`, a newer value
    // of a key may be on its way in a later commit, and stays.
    if (this.unsaved.size > 0) {
      for (const [key, value] of batch) if (this.durability === 'process' || this.unsaved.get(key) === value) this.unsaved.delete(key);
    }
    if (!this.health.ok) this.healthSubject.next({ ok: true });
  }

  /** A running hub's commit: the turn as one record appended to its journal file, folded once the file passes a megabyte. */
  private commitToJournal(db: RootDatabase<Stored, string>, batch: ReadonlyMap<string, Stored | undefined>): void {
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

  private failed(error: unknown): void {
    const reason = `values are kept in memory only, not saved: ${reasonOf(error)}`;
    if (this.health.ok || this.health.reason !== reason) this.healthSubject.next({ ok: false, reason, code: 'PB_STATE_UNAVAILABLE' });
  }

  /** Opens the folder if it could not be opened (or was held by another hub), and writes every value whose save failed again. */
  retry(): void {
    if (!this.db) {
      if (!this.hold()) return;
      if (this.unsaved.size === 0) this.healthSubject.next({ ok: true });
    }
    for (const [key, value] of [...this.unsaved]) this.write(key, value);
  }
}

function tell(waiters: readonly (() => void)[]): void {
  for (const done of waiters) done();
}

/** The journal's mark: which of its records the keys hold already. */
function markOf(db: RootDatabase<Stored, string>): JournalMark {
  return (db.get(MARK_KEY) as JournalMark | undefined) ?? firstMark;
}

/** Inside a write transaction: each key's value into its own record, or the record removed (undefined). */
function writeKeys(db: RootDatabase<Stored, string>, values: ReadonlyMap<string, Stored | undefined>): void {
  for (const [key, value] of values) {
    if (value === undefined) db.removeSync(databaseKey(key));
    else db.putSync(databaseKey(key), value);
  }
}

function openDatabase(folder: string, durability: Durability): Result<RootDatabase<Stored, string>> {
  try {
    mkdirSync(folder, { recursive: true });
    // `noSync` for `process`: a commit is in the operating system's hands when it
    // resolves, which survives SIGKILL; `power` waits for the disk as well. Not
    // `useWritemap`, though it halves what a commit costs (3 µs against 6 µs): with it,
    // LMDB's free-page bookkeeping aborts the process (an assertion in mdb_freelist_save)
    // after the delete-only commits of a journal fold — the timer spec crashed every run.
    // `noSubdir: false` said outright: LMDB takes a path with an extension (`studio.state`,
    // mktemp's `tmp.X`) for a database file and fails on the folder.
    return ok(
      open<Stored, string>({ path: folder, noSubdir: false, compression: false, encoding: 'msgpack', noSync: durability === 'process' }),
    );
  } catch (error) {
    return fail('PB_STATE_UNAVAILABLE', `cannot open the state folder ${folder}: ${reasonOf(error)}`);
  }
}
