import { BehaviorSubject, type Observable } from 'rxjs';
import { type ErrorCode, ok, reasonOf, type Result } from '../core/errors.ts';
import { afterTurn } from '../core/scheduler.ts';
import { FolderLock } from './folder-lock.ts';
import { JournalFolding } from './folding.ts';
import { type Database, databaseKey, type Durability, isRecordKey, openDatabase, recordKey, type Stored, valuesRange } from './layout.ts';

export type { Durability, Stored } from './layout.ts';

export type StoreHealth =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: string; readonly code: Extract<ErrorCode, 'PB_STATE_UNAVAILABLE' | 'PB_STATE_LOCKED'> };

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
  /** The journal, folded into the keys (folding.ts). */
  private readonly folding: JournalFolding;

  readonly health$: Observable<StoreHealth> = this.healthSubject.asObservable();

  /** A running hub's hold on the folder (`openOrWait`); the state command holds none. */
  private lock: FolderLock | undefined;

  private constructor(
    private db: Database | undefined,
    readonly folder: string,
    readonly durability: Durability,
    /** Whether commits go to the journal (a running hub) or to the keys (the state command). */
    journal: boolean,
  ) {
    this.folding = new JournalFolding(folder, journal, (error) => this.failed(error));
  }

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
    this.foldPending();
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
    this.foldPending();
    if (!this.db) return [];
    return [...this.db.getRange({ start: 'v ', end: 'v!' })].map(({ key, value }) => [key.slice(2), value]);
  }

  /** Every stored record, as [connection id, key, record], in key order: what `state export` moves beside the values. */
  records(): [string, string, Stored][] {
    this.foldPending();
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
    this.foldPending();
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
    this.folding.close(this.db);
    await this.db?.close();
    this.db = undefined;
    this.lock?.release();
    this.lock = undefined;
  }

  private read(key: string): Stored | undefined {
    if (this.turn.has(key)) return this.turn.get(key);
    if (this.unsaved.has(key)) return this.unsaved.get(key);
    return this.db ? this.folding.read(this.db, key) : undefined;
  }

  private foldPending(): void {
    if (this.db) this.folding.foldPending(this.db);
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
    // The real clock: commitSeconds measures the database's work, not the hub's time.
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
  private commitNow(db: Database | undefined, batch: ReadonlyMap<string, Stored | undefined>): void {
    if (!db) {
      for (const [key, value] of batch) this.unsaved.set(key, value);
      return;
    }
    try {
      // Without a sync a commit is a write into the operating system's cache, cheaper
      // here and now (a few µs) than a round trip to LMDB's writer thread.
      this.folding.commit(db, batch);
    } catch (error) {
      // Kept to be written again at the next attempt (`retry`).
      for (const [key, value] of batch) this.unsaved.set(key, value);
      return this.failed(error);
    }
    this.committed(batch);
  }

  /** `power`: waiting for the disk happens on LMDB's writer thread, off the event loop; readers find the values meanwhile among the unsaved. */
  private async commitToDisk(db: Database, batch: ReadonlyMap<string, Stored | undefined>): Promise<void> {
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
