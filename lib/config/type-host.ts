/**
 * The hub's side of the thread that loads a package's types (R-PK1, R-PK4, type-host-worker.ts):
 * the hub learns each type's description from it and has it run `parse()` and the type's
 * checks of a connection's settings, so that nothing of a package runs in the hub's own
 * thread unless a connection asks for `isolate: "none"`. A module that throws after loading,
 * exits or takes up its thread ends that thread alone: the package's types are refused from
 * then on with `PB_PLUGIN_LOAD` and the reason, and the hub carries on. A description must
 * come within DESCRIBE_MS; a check within CHECK_MS, which the hub waits out blocked (the flow
 * file's checks are synchronous), once: a thread that missed it is ended.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import { reasonOf } from '../core/errors.ts';
import { siblingModule } from '../sdk/process/bounded-worker.ts';
import { startThread } from '../sdk/process/thread.ts';
import {
  type Checked,
  type CheckRequest,
  checkedOf,
  type DescribedAnswer,
  describedOf,
  type TypeDescription,
} from './type-host-messages.ts';

/** How long a type's module may take to load and describe itself, in ms, counted from when the thread is ready. */
export const DESCRIBE_MS = 10_000;
/** How long the thread may take to start (patchbay's own code alone runs until it is ready), in ms. */
const START_MS = 60_000;
/** How long the hub waits for a check of a connection's settings (its `parse()` and the rest), in ms. */
export const CHECK_MS = 2000;
/** The heap of the thread, in MB: a module that needs more to describe itself and parse settings is refused. */
const HEAP_MB = 256;
/** Package folders whose threads are kept for the next reload; past it the least recently used ends. */
const MOST_HOSTS = 16;

const entry = siblingModule(import.meta.url, 'type-host-worker');

type Described = { readonly ok: true; readonly description: TypeDescription } | { readonly ok: false; readonly reason: string };

export class TypeHost {
  private readonly worker: Worker;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly answers: MessagePort;
  /** Why the thread is gone, once it is. */
  private ended: string | undefined;
  private next = 0;
  private readonly describing = new Map<number, (answer: Described) => void>();
  private readonly described = new Map<string, Promise<Described>>();
  /** Settles once the thread has loaded its entry and the public face: no package code has run before. */
  private readonly ready: Promise<void>;
  private readonly stopStarting: () => void;

  constructor(readonly installed: string) {
    const { port1, port2 } = new MessageChannel();
    this.answers = port1;
    // What a module prints while it is read is dropped, in its thread: never the hub's log.
    this.worker = startThread(entry, {
      heapMb: HEAP_MB,
      workerData: { answers: port2, signal: this.signal },
      transferList: [port2],
      packageCode: true,
    });
    let started = () => {};
    this.ready = new Promise((done) => {
      started = done;
    });
    // The real clock, as for the deadlines below: a thread that never starts is ended. Not
    // unref'd: while the hub waits for the thread, this is what keeps the process alive.
    const startTimer = setTimeout(() => this.end(`its thread did not start within ${START_MS} ms`), START_MS);
    this.stopStarting = () => clearTimeout(startTimer);
    this.worker.on('message', (message: unknown) => {
      if (isReady(message)) {
        this.stopStarting();
        return started();
      }
      const answer: DescribedAnswer | undefined = describedOf(message);
      if (!answer) return this.end('it sent a message of no known shape');
      this.describing.get(answer.n)?.(answer.ok ? { ok: true, description: answer.description } : { ok: false, reason: answer.reason });
    });
    this.worker.on('error', (error) => this.end(`it threw: ${reasonOf(error)}`));
    this.worker.on('exit', (code) => this.end(`its thread ended (exit code ${code})`));
    // The thread keeps no hub running: a hub that ends, ends it.
    this.worker.unref();
    this.answers.unref();
  }

  /** Why the thread can no longer answer, or undefined while it can. */
  get failure(): string | undefined {
    return this.ended;
  }

  /** A type of the package as its module defines it, or why it cannot be had. */
  describe(module: string, type: string): Promise<Described> {
    const key = `${type}\u0000${module}`;
    let described = this.described.get(key);
    if (!described) {
      described = this.ask(module, type);
      this.described.set(key, described);
    }
    return described;
  }

  private async ask(module: string, type: string): Promise<Described> {
    if (this.ended) return { ok: false, reason: this.ended };
    const n = this.next++;
    const gone = new Promise<void>((done) => this.describing.set(n, () => done()));
    await Promise.race([this.ready, gone]);
    if (this.ended) return { ok: false, reason: this.ended };
    return new Promise((done) => {
      // The real clock: a watchdog over a thread of package code, which runs while a flow file is
      // read, before any hub and its scheduler (the check below waits on it too, in Atomics.wait).
      const timer = setTimeout(() => this.end(`did not answer within ${DESCRIBE_MS} ms`), DESCRIBE_MS);
      this.describing.set(n, (answer) => {
        clearTimeout(timer);
        this.describing.delete(n);
        done(answer);
      });
      this.worker.postMessage({ t: 'describe', n, module, type });
    });
  }

  /** A check of a connection's settings, answered within CHECK_MS or failed with the reason. */
  check(request: CheckRequest extends infer R ? (R extends CheckRequest ? Omit<R, 'n'> : never) : never): Checked {
    if (this.ended) return { ok: false, failure: this.ended };
    const n = this.next++;
    Atomics.store(this.signal, 0, 0);
    this.worker.postMessage({ ...request, n });
    if (Atomics.wait(this.signal, 0, 0, CHECK_MS) === 'timed-out') {
      this.end(`did not answer within ${CHECK_MS} ms`);
      return { ok: false, failure: this.ended ?? '' };
    }
    const received = receiveMessageOnPort(this.answers);
    const answer = received ? checkedOf(received.message, n) : 'it woke the hub without an answer';
    if (typeof answer === 'string') {
      this.end(answer);
      return { ok: false, failure: answer };
    }
    return answer;
  }

  /** Ends the thread, for `reason`: everything asked of it from now on fails with it. */
  end(reason: string): void {
    if (this.ended) return;
    this.ended = reason;
    this.stopStarting();
    void this.worker.terminate();
    this.answers.close();
    for (const answered of [...this.describing.values()]) answered({ ok: false, reason });
  }
}

const isReady = (message: unknown): boolean =>
  typeof message === 'object' && message !== null && (message as { t?: unknown }).t === 'ready';

/** The threads of the packages in use, by folder, least recently used first: a reload finds its packages' types read already. */
const hosts = new Map<string, TypeHost>();

/**
 * The thread of the package in `folder` as `installed` (its version and the stamps of its
 * modules): the one there is while it runs, or a new one once it was installed again, since
 * a thread imports a module once.
 */
export function typeHostFor(folder: string, installed: string): TypeHost {
  const kept = hosts.get(folder);
  hosts.delete(folder);
  if (kept && kept.installed === installed && kept.failure === undefined) {
    hosts.set(folder, kept);
    return kept;
  }
  kept?.end('its package was read again');
  const host = new TypeHost(installed);
  hosts.set(folder, host);
  return host;
}

/**
 * Ends the threads past MOST_HOSTS, least recently used first, but never one of `inUse` (the
 * packages of the flow just read, whose checks are yet to come).
 */
export function retireTypeHosts(inUse: ReadonlySet<string>): void {
  for (const [folder, host] of hosts) {
    if (hosts.size <= MOST_HOSTS) return;
    if (inUse.has(folder)) continue;
    hosts.delete(folder);
    host.end('its package has not been used for a while');
  }
}
