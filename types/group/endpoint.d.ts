import { type Stamp } from './wire.ts';
import type { VoteAnswer, VoteRequest, Voter } from './voter.ts';
export interface Address {
    readonly host: string;
    readonly port: number;
}
export type Dropped = 'unsigned' | 'malformed' | 'stranger' | 'replayed';
export interface EndpointOptions {
    /** This member's id: a hub's, or the witness's. */
    readonly id: string;
    readonly group: string;
    /** The vote key (`voteKey` of the site key). */
    readonly key: Buffer;
    /** Where it listens. */
    readonly listen: Address;
    /**
     * Every voter of the group by id, itself included, and where each listens; undefined for a
     * voter this one never asks (a witness asks no one: it answers where each request came from).
     */
    readonly voters: Readonly<Record<string, Address | undefined>>;
    /** Its voter, when it is one. */
    readonly voter?: Voter;
    /** A time that only grows across its restarts (see wire.ts): its requests' stamps start from it. */
    readonly start: number;
    /** The last request taken from each sender, as kept from before a restart. */
    readonly lastTaken?: Readonly<Record<string, Stamp>>;
    /** Keeps the last request taken from a sender (the state folder), so that a restart does not open old ones again. */
    readonly keepTaken?: (sender: string, stamp: Stamp) => void;
    /** An answer to one of its candidate's requests. */
    readonly answered?: (voter: string, n: number, answer: VoteAnswer) => void;
    /** A datagram not taken, and why. */
    readonly dropped?: (why: Dropped, from: string | undefined) => void;
}
export declare class VoteEndpoint {
    private readonly socket;
    private readonly options;
    private readonly lastTaken;
    /** Datagrams handed to the socket and not sent yet. */
    private sending;
    private constructor();
    /** Binds its socket; rejects with the reason when the address cannot be had. */
    static open(options: EndpointOptions): Promise<VoteEndpoint>;
    /** The port it listens on (the one asked for, or the one given for port 0). */
    get port(): number;
    /** Sends its candidate's request of round `n` to `voter`; its own voter answers at once. */
    ask(voter: string, request: VoteRequest & {
        readonly n: number;
    }): void;
    /** Closes its socket once what it sent has left (a release sent as the hub stops), within a tenth of a second. */
    close(): Promise<void>;
    private receive;
    private send;
}
