import { mkdirSync } from 'node:fs';
import { open, type RootDatabase } from 'lmdb';
import { BehaviorSubject, type Observable } from 'rxjs';
import { fail, ok, reasonOf, type Result } from '../core/errors.ts';
import { afterTurn } from '../core/scheduler.ts';
import type { Json } from '../core/value.ts';

/**
 * How far an answered write is safe (R-S4). `process`: written to the operating system
 * before the answer, so it survives the hub being killed (SIGKILL, a crash) but not a
 * power cut. `power`: also synced to the disk before the answer.
 */
export type Durability = 'process' | 'power';
export const durabilities: readonly Durability[] = ['process', 'power'];

/** What the store holds: parameter values, and small records connections keep (timer deadlines). */
export type Stored = Json;

export type StoreHealth = { readonly ok: true } | { readonly ok: false; readonly reason: string };

// Keys: `v <address>` for values, `k <connection id>/<key>` for records. The space sorts
// before every character an address may hold, so a prefix scan is a range.
const valueKey = (address: string) => `v ${address}`;
const recordKey = (connectionId: string, key: string) => `k ${connectionId}/${key}`;

/**
 * The hub's embedded database (LMDB) in its state folder (R-S1). Writes go through at
 * once and LMDB commits every write of one event-loop turn in one transaction, so there is
 * no periodic flush and nothing waits in memory longer than a turn. A failed commit (a
 * full disk, a folder that became unwritable) never throws at the hub: the store turns
 * unhealthy with the reason, keeps the latest value of every unsaved key, and writes them
 * all at the next attempt. Several processes may open the same folder at once (the
 * `patchbay state` command beside a running hub).
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
  private writing: Promise<void> = Promise.resolve();
  /** True while a commit runs on LMDB's writer thread (`power`). */
  private committing = false;

  readonly health$: Observable<StoreHealth> = this.healthSubject.asObservable();

  private constructor(
    private db: RootDatabase<Stored, string> | undefined,
    readonly folder: string,
    readonly durability: Durability,
  ) {}

  /** Opens (creating when needed) the store in `folder`. Fails with PB_STATE_UNAVAILABLE and the reason. */
  static open(folder: string, { durability = 'process' }: { durability?: Durability } = {}): Result<StateStore> {
    const db = openDatabase(folder, durability);
    return db.ok ? ok(new StateStore(db.value, folder, durability)) : db;
  }

  /**
   * Like `open`, but a folder that cannot be opened gives a store that is unhealthy with
   * the reason, keeps values in memory, and opens the folder at a later `retry`: how a
   * running hub uses it, so a bad state folder never stops the hub.
   */
  static openOrWait(folder: string, { durability = 'process' }: { durability?: Durability } = {}): StateStore {
    const db = openDatabase(folder, durability);
    const store = new StateStore(db.ok ? db.value : undefined, folder, durability);
    if (!db.ok) store.healthSubject.next({ ok: false, reason: `values are kept in memory only, not saved: ${db.error.message}` });
    return store;
  }

  get health(): StoreHealth {
    return this.healthSubject.value;
  }

  /** The stored value of a parameter, or undefined. */
  value(address: string): Stored | undefined {
    return this.read(valueKey(address));
  }

  /** Stores a parameter's value; committed with the other writes of this turn. */
  setValue(address: string, value: Stored): void {
    this.write(valueKey(address), value);
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
    if (!this.db) return [];
    return [...this.db.getRange({ start: 'v ', end: 'v!' })].map(({ key, value }) => [key.slice(2), value]);
  }

  /** Forgets every value and record of a connection: it starts from its defaults next time. Resolves with how many values went. */
  async reset(connectionId: string): Promise<number> {
    await this.settled(); // writes of this turn are not in the database yet
    let removed = 0;
    for (const [prefix, end] of [
      [valueKey(`${connectionId}/`), valueKey(`${connectionId}0`)],
      [recordKey(connectionId, ''), recordKey(`${connectionId}0`, '')],
    ] as const) {
      const keys = new Set([...(this.db?.getKeys({ start: prefix, end }) ?? []), ...[...this.unsaved.keys()].filter((key) => key >= prefix && key < end)]);
      for (const key of keys) {
        this.write(key, undefined);
        if (prefix.startsWith('v')) removed++;
      }
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
    return this.writing;
  }

  /**
   * `settled` for hot paths: calls `done` once every write made so far is as safe as
   * promised, at once when nothing waits, without a promise per caller. A failed commit
   * calls it too: the value works in memory and the store's health says why it is not saved.
   */
  whenSettled(done: () => void): void {
    if (this.turn.size > 0) this.turnWaiters.push(done);
    else if (this.committing) void this.writing.then(done);
    else done();
  }

  /** Waits for pending writes, then closes the database. */
  async close(): Promise<void> {
    await this.settled();
    await this.db?.close();
    this.db = undefined;
  }

  private read(key: string): Stored | undefined {
    if (this.turn.has(key)) return this.turn.get(key);
    if (this.unsaved.has(key)) return this.unsaved.get(key);
    return this.db?.get(key);
  }

  private write(key: string, value: Stored | undefined): void {
    if (!this.db) {
      this.unsaved.set(key, value);
      return;
    }
    if (this.turn.size === 0) {
      // The first write of a turn opens its batch, committed once the turn's I/O is done:
      // requests and messages that came together share one commit (group commit).
      this.writing = new Promise((resolve) => afterTurn(() => resolve(this.commitTurn())));
    }
    this.turn.set(key, value);
  }

  /** Writes, commits and time spent committing since the store opened (`/metrics`). */
  readonly counts = { writes: 0, commits: 0, commitSeconds: 0 };

  /** Hands this turn's writes to the database as one batch and resolves once it is as safe as promised. */
  private async commitTurn(): Promise<void> {
    const db = this.db;
    const batch = this.turn;
    const started = performance.now();
    this.turn = new Map();
    const waiters = this.turnWaiters;
    this.turnWaiters = [];
    try {
      this.committing = true;
      await this.commit(db, batch);
    } finally {
      this.counts.writes += batch.size;
      this.counts.commits++;
      this.counts.commitSeconds += (performance.now() - started) / 1000;
      this.committing = false;
      for (const done of waiters) done();
    }
  }

  private async commit(db: RootDatabase<Stored, string> | undefined, batch: ReadonlyMap<string, Stored | undefined>): Promise<void> {
    if (!db) {
      for (const [key, value] of batch) this.unsaved.set(key, value);
      return;
    }
    try {
      if (this.durability === 'process') {
        // Without a sync a commit is a write into the operating system's cache, cheaper
        // here and now (about 12 µs) than a round trip to LMDB's writer thread.
        db.transactionSync(() => {
          for (const [key, value] of batch) {
            if (value === undefined) db.removeSync(key);
            else db.putSync(key, value);
          }
        });
      } else {
        // Waiting for the disk happens on LMDB's writer thread, off the event loop; readers
        // find the values meanwhile among the unsaved.
        for (const [key, value] of batch) this.unsaved.set(key, value);
        await db.batch(() => {
          for (const [key, value] of batch) {
            if (value === undefined) void db.remove(key);
            else void db.put(key, value);
          }
        });
        await db.flushed;
      }
    } catch (error) {
      // Kept to be written again at the next attempt (`retry`); in `power` they are there already.
      if (this.durability === 'process') for (const [key, value] of batch) this.unsaved.set(key, value);
      return this.failed(error);
    }
    // Older values of these keys whose save failed are superseded; in `power`, a newer value
    // of a key may be on its way in a later commit, and stays.
    if (this.unsaved.size > 0) {
      for (const [key, value] of batch) if (this.durability === 'process' || this.unsaved.get(key) === value) this.unsaved.delete(key);
    }
    if (!this.health.ok) this.healthSubject.next({ ok: true });
  }

  private failed(error: unknown): void {
    const reason = `values are kept in memory only, not saved: ${reasonOf(error)}`;
    if (this.health.ok || this.health.reason !== reason) this.healthSubject.next({ ok: false, reason });
  }

  /** Opens the folder if it could not be opened, and writes every value whose save failed again. */
  retry(): void {
    if (!this.db) {
      const db = openDatabase(this.folder, this.durability);
      if (!db.ok) return this.failed(db.error);
      this.db = db.value;
    }
    for (const [key, value] of [...this.unsaved]) this.write(key, value);
  }
}

function openDatabase(folder: string, durability: Durability): Result<RootDatabase<Stored, string>> {
  try {
    mkdirSync(folder, { recursive: true });
    // `noSync` for `process`: a commit is in the operating system's hands when it
    // resolves, which survives SIGKILL; `power` waits for the disk as well.
    return ok(open<Stored, string>({ path: folder, compression: false, encoding: 'msgpack', noSync: durability === 'process' }));
  } catch (error) {
    return fail('PB_STATE_UNAVAILABLE', `cannot open the state folder ${folder}: ${reasonOf(error)}`);
  }
}
