import { openSync, readdirSync, readSync } from 'node:fs';
import type { Subscription } from 'rxjs';
import type { Logger } from '../core/log.ts';
import { every, type Scheduler } from '../core/scheduler.ts';
import { type ListenSocket, listenExclusive, type TemplatedApp, uws } from './uws.ts';

/** Open file descriptors of this process and its soft limit. */
export interface DescriptorUse {
  readonly open: number;
  readonly limit: number;
}

/** How often descriptor use is checked when it may be near the limit. */
export const checkIntervalMs = 500;
/** The longest between two checks, however far the limit. */
const LONGEST_CHECK_MS = 10_000;
/**
 * Descriptors a hub may open in a millisecond at most (uWS accepts some 20,000 connections a
 * second here): far from the limit the next check can wait as long as it takes to get near it
 * at that pace, since listing /proc/self/fd costs a string per open descriptor (some 5 ms
 * with 10,000 clients connected).
 */
const FASTEST_OPENS_PER_MS = 50;

/**
 * Descriptors kept free for everything but new connections (files, the state store, code
 * flows): accepting pauses when fewer than this are left, and resumes once twice as many
 * are free again, so it does not flap.
 */
export const reserveFor = (limit: number): number => Math.max(16, Math.ceil(limit / 20));

/** /proc/self/limits, opened once: at the limit, opening it again would fail. */
let limitsFile: number | undefined;
const limitsText = Buffer.alloc(4096);

/** The soft limit on open descriptors, re-read each time (prlimit can change it from outside). */
function descriptorLimit(): number | undefined {
  limitsFile ??= openSync('/proc/self/limits', 'r');
  const text = limitsText.toString('latin1', 0, readSync(limitsFile, limitsText, 0, limitsText.length, 0));
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  return soft === undefined ? undefined : soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
}

/**
 * This process's descriptor use, from /proc (Linux; Node has no getrlimit). Elsewhere it
 * is unknown and nothing is guarded. Listing /proc/self/fd needs a descriptor itself: when
 * none is left, the process is at its limit.
 */
export function descriptorUse(): DescriptorUse | undefined {
  let limit: number | undefined;
  try {
    limit = descriptorLimit();
    if (limit === undefined) return undefined;
    return { open: readdirSync('/proc/self/fd').length - 1, limit }; // less the listing's own
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return limit !== undefined && (code === 'EMFILE' || code === 'ENFILE') ? { open: limit, limit } : undefined;
  }
}

export interface AcceptGuardOptions {
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** Where the descriptor numbers come from; specs replace it. */
  readonly use?: () => DescriptorUse | undefined;
}

/**
 * Owns the listening socket of a uWS app and keeps the process below its descriptor limit.
 * uWS has no hook for a failed accept(): at the limit the listening socket stays readable
 * and its loop retries at once, forever, at full CPU. So before the limit is reached the
 * listening socket is closed — new clients are refused (connection refused), the ones
 * connected are served on — and it listens again on the same address and port once
 * enough descriptors are free.
 */
export class AcceptGuard {
  private socket: ListenSocket | undefined;
  private paused = false;
  /** Scheduler time before which descriptor use cannot be near the limit, from the last check. */
  private nextCheckAt = Number.NEGATIVE_INFINITY;
  private readonly checks: Subscription;
  private readonly use: () => DescriptorUse | undefined;

  constructor(
    private readonly app: TemplatedApp,
    socket: ListenSocket,
    private readonly host: string,
    private readonly port: number,
    private readonly options: AcceptGuardOptions,
  ) {
    this.socket = socket;
    this.use = options.use ?? descriptorUse;
    this.use(); // opens /proc/self/limits now, while descriptors are free
    this.checks = every(options.scheduler, checkIntervalMs, () => this.check());
  }

  /** Stops listening for good. Idempotent. */
  close(): void {
    this.checks.unsubscribe();
    this.stopListening();
  }

  private check(): void {
    const now = this.options.scheduler.now();
    if (now < this.nextCheckAt) return;
    const use = this.use();
    if (!use || !Number.isFinite(use.limit)) return;
    const reserve = reserveFor(use.limit);
    const headroom = use.limit - reserve - use.open;
    this.nextCheckAt = this.paused ? now : now + Math.min(LONGEST_CHECK_MS, headroom / FASTEST_OPENS_PER_MS);
    if (!this.paused && use.open >= use.limit - reserve) {
      this.paused = true;
      this.stopListening();
      this.options.log.warn(
        `${use.open} of ${use.limit} file descriptors in use: not accepting new connections until some close (raise the limit with ulimit -n or LimitNOFILE)`,
      );
    } else if (this.paused && !this.socket && use.open <= use.limit - 2 * reserve) {
      this.listenAgain(use);
    }
  }

  private stopListening(): void {
    if (this.socket) uws.us_listen_socket_close(this.socket);
    this.socket = undefined;
  }

  private listenAgain(use: DescriptorUse): void {
    const done = (socket: ListenSocket | false) => {
      if (this.checks.closed) {
        if (socket) uws.us_listen_socket_close(socket);
        return;
      }
      if (!socket) {
        this.options.log.warn(`cannot listen on ${this.host || '*'}:${this.port} again (taken meanwhile?); trying again`);
        return;
      }
      this.socket = socket;
      this.paused = false;
      this.options.log.info(`${use.open} of ${use.limit} file descriptors in use: accepting connections again`);
    };
    listenExclusive(this.app, this.host, this.port, done);
  }
}
