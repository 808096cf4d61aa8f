/**
 * One consumer connected to an ember-provider: its socket, its subscriptions, and the bound
 * on what waits to be sent to it. A consumer that stops reading is cut off once more than
 * `maxQueuedBytes` wait for it: the provider never waits for a consumer, so one that stalls
 * holds nobody up, and what it cost stays bounded.
 */
import type { Socket } from 'node:net';
export declare class ConsumerSession {
    readonly socket: Socket;
    private readonly maxQueuedBytes;
    private readonly cutOff;
    /** `ember <address>:<port>`: the origin of its writes (R-O2). */
    readonly origin: string;
    /** The numbered paths it follows: nodes it asked for (their children), elements it subscribed to. */
    readonly subscriptions: Set<string>;
    /** Its messages dropped so far (malformed, past a bound). */
    dropped: number;
    private closed;
    /** Requests in the current second, and when it began. */
    private requests;
    private secondBegan;
    private lastKeepalive;
    constructor(socket: Socket, maxQueuedBytes: number, cutOff: (session: ConsumerSession) => void);
    send(message: Buffer): void;
    /**
     * Counts `count` requests (commands and elements of its messages) at `now`: false once it
     * asked for more than `perSecond` within a second — the caller cuts it off.
     */
    asks(count: number, now: number, perSecond: number): boolean;
    /** Whether a keep-alive asked at `now` is answered: one in 100 ms at most. */
    mayAnswerKeepalive(now: number): boolean;
    get isClosed(): boolean;
    close(): void;
}
