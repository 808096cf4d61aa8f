/**
 * Which requests fail now, and the connection's status that says so (R-J1): `degraded` with
 * the latest failure's reason until the device answers again.
 */
import { type ConnectionContext } from '../../sdk/index.ts';
import type { Request } from './settings.ts';
export declare class FailingRequests {
    /** Each request's latest failure, while its latest answer was not a success. */
    private readonly failing;
    private readonly requests;
    private readonly context;
    constructor(requests: readonly Request[], context: Pick<ConnectionContext, 'setStatus'>);
    has(id: string): boolean;
    /**
     * The device answered: this request's failure is over, and so is every failure of a
     * request sent only on demand, which no poll would ever clear (R-J1 "until the next
     * success"). A polled request's failure stays until its own next answer: it says what
     * fails now, and does not flap with every success of another request.
     */
    succeeded(request: Request): void;
    failed(request: Request, reason: string): void;
    private show;
}
