/**
 * CPU-heavy work done off the event loop (R-G4): one worker thread for a kind of job, shared
 * by every peer whose work it does, one job at a time. Peers with jobs waiting take turns, a job
 * each, so one peer's flood delays another's job by one job at most; a peer decides itself what
 * waits and when it may take its turn (a peer whose socket is paused, or that does not read,
 * simply has nothing to take). The thread's heap is bounded; a thread that dies fails the job it
 * was doing (its peer is told why) and the next job starts another.
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from './thread.ts';

/** One peer's side of a `BoundedWorker`: its jobs wait with it. */
export interface WorkerTurns<Job, Result> {
  /** Its next job, or undefined when none waits (or it may not have one now). */
  take(): Job | undefined;
  /** More jobs wait after the one taken. */
  readonly hasWaiting: boolean;
  /** The result of the job it took last. */
  done(result: Result): void;
}

export interface BoundedWorkerOptions<Result> {
  /** The thread's module: it answers each message posted to it with one message, the result. */
  readonly entry: URL;
  /** The thread's heap, MiB. */
  readonly heapMb: number;
  /** What a job the thread could not finish (it died) yields, by why. */
  failed(why: string): Result;
}

export class BoundedWorker<Job, Result> {
  private worker: Worker | undefined;
  /** The peer whose job the thread does now. */
  private busy: WorkerTurns<Job, Result> | undefined;
  /** Peers with jobs waiting, in turn (a Set keeps the order things were added in). */
  private readonly turns = new Set<WorkerTurns<Job, Result>>();

  constructor(private readonly options: BoundedWorkerOptions<Result>) {}

  /** `peer` has a job waiting (again): it takes its turn. */
  wants(peer: WorkerTurns<Job, Result>): void {
    if (peer !== this.busy) this.turns.add(peer);
    this.next();
  }

  /** `peer` wants no more turns (a job it has running still ends with `done`). */
  forget(peer: WorkerTurns<Job, Result>): void {
    this.turns.delete(peer);
  }

  /** Starts the thread ahead of the first job: loading it takes a good part of a second. */
  warm(): void {
    this.started();
  }

  private next(): void {
    if (this.busy !== undefined) return;
    for (const peer of this.turns) {
      this.turns.delete(peer);
      const job = peer.take();
      if (job === undefined) continue;
      this.busy = peer;
      const worker = this.started();
      // A job under way keeps the process alive until it ends, as a pending read would.
      worker.ref();
      worker.postMessage(job);
      return;
    }
  }

  private done(result: Result): void {
    const peer = this.busy;
    this.busy = undefined;
    if (peer !== undefined) {
      // Behind the others that wait: one job a turn.
      if (peer.hasWaiting) this.turns.add(peer);
      peer.done(result);
    }
    this.next();
    if (this.busy === undefined) this.worker?.unref();
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const { entry, heapMb } = this.options;
    const worker = startThread(entry, { heapMb });
    let why = 'stopped';
    worker.on('message', (result: Result) => this.done(result));
    worker.on('error', (error) => (why = error.message));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.busy !== undefined) this.done(this.options.failed(why));
    });
    // Idle, it does not keep the process alive; a job under way does (see `next`). (After
    // the listeners: a 'message' listener refs the thread again.)
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/** The module next to `url` named `name`, as it runs: `.ts` in a checkout, `.js` once built. */
export function siblingModule(url: string, name: string): URL {
  return new URL(`./${name}.${url.endsWith('.ts') ? 'ts' : 'js'}`, url);
}
