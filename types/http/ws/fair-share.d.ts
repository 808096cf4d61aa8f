export interface FairShareOptions<C> {
    /** Milliseconds one client's messages may take per event-loop turn before the rest waits for the next. */
    readonly msPerTurn: number;
    /** Bytes a client may have waiting, each message counted with what keeping it costs (`KEEPING_COSTS`); past them it is refused (`overflow`). */
    readonly maxWaitingBytes: number;
    /** Applies one message of a client; `gone` once the client has left (nothing can be sent to it). */
    readonly apply: (client: C, message: ArrayBuffer, gone: boolean) => void;
    /** A client that sends faster than the hub applies, beyond its waiting room. */
    readonly overflow: (client: C) => void;
    /** The clock shares are measured with (specs pass their own). */
    readonly now?: () => number;
}
/**
 * What the hub spends keeping one waiting message beyond its bytes (its copy's object and
 * allocation, its slot), counted against the waiting room: a client sending one-byte
 * messages would otherwise have millions waiting within 4 MiB, at about 250 bytes of hub
 * memory each (ten such clients held 750 MiB).
 */
export declare const KEEPING_COSTS = 256;
/**
 * WebSocket writes in fair shares: uWS hands over everything a socket has sent at once,
 * so one client writing 20,000 messages a second would make every other client wait
 * while the hub applies them (and sends each change to every listener). Each client gets
 * `msPerTurn` of applying per event-loop turn; the rest waits, in order, for the next turns, in which every waiting
 * client has its share again — while the other sockets are read in between. The waiting
 * room is bounded: a client beyond it is refused instead of growing the hub's memory.
 */
export declare class FairShare<C> {
    private readonly options;
    private readonly used;
    private readonly waiting;
    private turnAhead;
    private readonly now;
    constructor(options: FairShareOptions<C>);
    /** A message from a client: applied now while the client is within its share, else queued behind its earlier ones. */
    offer(client: C, message: ArrayBuffer): void;
    /** A client that overflowed: what it had waiting is dropped. */
    forget(client: C): void;
    /**
     * A client that has left: what it sent before leaving was received, so it is still
     * applied in its turns (a script that writes and disconnects loses nothing); only its
     * answers have nowhere to go.
     */
    leave(client: C): void;
    /** What the messages waiting over all clients cost to keep, in bytes (see `KEEPING_COSTS`). */
    get waitingBytes(): number;
    private nextTurnAhead;
    private turn;
}
