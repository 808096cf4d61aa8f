/**
 * The problems of a connection's parts that its status does not say (R-RS6): a key whose
 * press was refused, a scene whose recall was not taken whole. The connection runs, and
 * is right to say `ok`; what asked and failed stays listed in `/problems` until it works
 * again, is cleared, or the connection stops.
 */
import { Subject } from 'rxjs';
import type { ErrorCode } from '../core/errors.ts';
import type { Problem } from './connection.ts';

/** The most part problems one connection lists: past them, the oldest goes. */
const MOST_PARTS = 100;
/** The longest message a part problem keeps (a reason of a device may be long). */
const MOST_CHARACTERS = 300;

export class PartProblems {
  private readonly standing = new Map<string, Problem>();
  private readonly changed = new Subject<Problem | undefined>();
  /** Each change: the problem that began, or undefined for one that ended. */
  readonly changed$ = this.changed.asObservable();

  constructor(private readonly connection: string) {}

  /** Lists `problem` under `part`, in place of what was listed there; undefined ends it. */
  set(part: string, problem: { readonly code: ErrorCode; readonly message: string } | undefined): void {
    const before = this.standing.get(part);
    if (problem === undefined) {
      if (!before) return;
      this.standing.delete(part);
      return this.changed.next(undefined);
    }
    const message = problem.message.length > MOST_CHARACTERS ? `${problem.message.slice(0, MOST_CHARACTERS - 1)}…` : problem.message;
    if (before?.code === problem.code && before.message === message) return;
    const listed: Problem = { source: 'connection', id: this.connection, part, code: problem.code, message };
    this.standing.delete(part);
    this.standing.set(part, listed);
    if (this.standing.size > MOST_PARTS) this.standing.delete(this.standing.keys().next().value as string);
    this.changed.next(listed);
  }

  list(): Problem[] {
    return [...this.standing.values()];
  }

  /** The connection stopped: what its parts asked is over. */
  clear(): void {
    if (this.standing.size === 0) return;
    this.standing.clear();
    this.changed.next(undefined);
  }
}
