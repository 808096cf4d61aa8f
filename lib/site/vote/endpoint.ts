/**
 * A member of a group's vote on the network (R-AV2): one UDP socket that answers for its
 * voter (a hub's own, or the witness's) and carries its candidate's requests and answers.
 * What it does not take, it counts by why: `unsigned` (not signed with the site key),
 * `malformed`, `stranger` (a sender that is not one of the group's voters, or another group),
 * `replayed` (a request not after the last taken from its sender, or an answer to a request
 * this run never sent).
 */
import { createSocket, type Socket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import { decode, encode, isAfter, type Stamp } from './wire.ts';
import type { VoteAnswer, VoteRequest, Voter } from './voter.ts';

/** How long a closing endpoint waits for what it sent to leave. */
const CLOSE_WAIT_MS = 100;

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

export class VoteEndpoint {
  private readonly lastTaken: Map<string, Stamp>;
  /** Datagrams handed to the socket and not sent yet. */
  private sending = 0;
  /** Told once nothing sent is still on its way (`close` waits for it). */
  private readonly sent: (() => void)[] = [];

  private constructor(
    private readonly socket: Socket,
    private readonly options: EndpointOptions,
  ) {
    this.lastTaken = new Map(Object.entries(options.lastTaken ?? {}));
    socket.on('message', (bytes, from) => this.receive(bytes, from));
  }

  /** Binds its socket; rejects with the reason when the address cannot be had. */
  static open(options: EndpointOptions): Promise<VoteEndpoint> {
    const socket = createSocket({ type: options.listen.host.includes(':') ? 'udp6' : 'udp4' });
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(options.listen.port, options.listen.host, () => {
        socket.off('error', reject);
        // A datagram that cannot be sent (a voter's host unreachable) is a vote not heard: the rounds go on.
        socket.on('error', () => {});
        resolve(new VoteEndpoint(socket, options));
      });
    });
  }

  /** The port it listens on (the one asked for, or the one given for port 0). */
  get port(): number {
    return this.socket.address().port;
  }

  /** Sends its candidate's request of round `n` to `voter`; its own voter answers at once. */
  ask(voter: string, request: VoteRequest & { readonly n: number }): void {
    const { id, group, key, start } = this.options;
    const { n, ...asked } = request;
    if (voter === id) {
      if (this.options.voter) this.options.answered?.(id, n, this.options.voter.ask(asked, performance.now()));
      return;
    }
    const address = this.options.voters[voter];
    if (!address) return;
    this.send(address, encode(key, { k: 'ask', g: group, from: id, to: voter, s: { start, n }, request: asked }));
  }

  /** Closes its socket once what it sent has left (a release sent as the hub stops), within a tenth of a second. */
  async close(): Promise<void> {
    if (this.sending > 0) {
      // The real clock: the socket's own callbacks say when a datagram left; a hub stopping waits no longer than this.
      let gaveUp: NodeJS.Timeout | undefined;
      await Promise.race([this.whenSent(), new Promise((resolve) => (gaveUp = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(gaveUp);
    }
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  /** Resolves once every datagram sent so far has left. */
  private whenSent(): Promise<void> {
    return new Promise((resolve) => this.sent.push(resolve));
  }

  private receive(bytes: Buffer, from: { address: string; port: number }): void {
    const { id, group, key, voters, voter } = this.options;
    const decoded = decode(key, bytes);
    if (!decoded.ok) return this.options.dropped?.(decoded.why, undefined);
    const { datagram } = decoded;
    if (datagram.g !== group || datagram.to !== id || !Object.hasOwn(voters, datagram.from) || datagram.from === id)
      return this.options.dropped?.('stranger', datagram.from);
    if (datagram.k === 'answer') {
      // An answer to this run's request only: one to an earlier run of this hub is a replay.
      if (datagram.re.start !== this.options.start) return this.options.dropped?.('replayed', datagram.from);
      this.options.answered?.(datagram.from, datagram.re.n, datagram.answer);
      return;
    }
    if (!voter) return;
    if (!isAfter(datagram.s, this.lastTaken.get(datagram.from))) return this.options.dropped?.('replayed', datagram.from);
    this.lastTaken.set(datagram.from, datagram.s);
    this.options.keepTaken?.(datagram.from, datagram.s);
    const answer = voter.ask(datagram.request, performance.now());
    // Answered where the request came from: the sender's address may differ from the one configured (NAT, a second interface).
    this.send(
      { host: from.address, port: from.port },
      encode(key, { k: 'answer', g: group, from: id, to: datagram.from, re: datagram.s, answer }),
    );
  }

  private send(address: Address, bytes: Buffer): void {
    this.sending++;
    this.socket.send(bytes, address.port, address.host, () => {
      if (--this.sending === 0) for (const resolve of this.sent.splice(0)) resolve();
    });
  }
}
