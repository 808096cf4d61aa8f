/**
 * Which requests fail now, and the connection's status that says so (R-J1): `degraded` with
 * the latest failure's reason until the device answers again.
 */
import { type ConnectionContext, Status } from '../../sdk/index.ts';
import type { Request } from './settings.ts';

export class FailingRequests {
  /** Each request's latest failure, while its latest answer was not a success. */
  private readonly failing = new Map<string, string>();
  private readonly requests: readonly Request[];
  private readonly context: Pick<ConnectionContext, 'setStatus'>;

  constructor(requests: readonly Request[], context: Pick<ConnectionContext, 'setStatus'>) {
    this.requests = requests;
    this.context = context;
  }

  has(id: string): boolean {
    return this.failing.has(id);
  }

  /**
   * The device answered: this request's failure is over, and so is every failure of a
   * request sent only on demand, which no poll would ever clear (R-J1 "until the next
   * success"). A polled request's failure stays until its own next answer: it says what
   * fails now, and does not flap with every success of another request.
   */
  succeeded(request: Request): void {
    this.failing.delete(request.id);
    for (const other of this.requests) if (other.every === undefined) this.failing.delete(other.id);
    this.show();
  }

  failed(request: Request, reason: string): void {
    this.failing.delete(request.id);
    this.failing.set(request.id, reason);
    this.show();
  }

  // The latest failure is the one shown: `failing` keeps them in the order they came.
  private show(): void {
    const latest = [...this.failing.values()].at(-1);
    if (latest === undefined) return this.context.setStatus(Status.Ok);
    const more = this.failing.size > 1 ? ` (and ${this.failing.size - 1} more request${this.failing.size > 2 ? 's' : ''} failing)` : '';
    this.context.setStatus(Status.Degraded, `${latest}${more}`, 'PB_DEVICE_UNAVAILABLE');
  }
}
