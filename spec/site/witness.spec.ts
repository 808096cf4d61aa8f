/**
 * `patchbay witness` as a group of two hubs uses it (R-AV2, R-AV3): a real witness process on
 * UDP, and two hubs' vote endpoints (voter, candidate, socket) in this process, reaching the
 * witness through a relay of the spec's that records every datagram, as a reader of the
 * network would. The witness killed: the holder holds on with the other hub's vote. The
 * holder gone and its requests played back to the witness: refused, and the other hub takes
 * over all the same.
 */
import { createSocket, type Socket } from 'node:dgram';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import test, { type ExecutionContext } from 'ava';
import { Candidate } from '../../lib/site/vote/candidate.ts';
import { ASK_EVERY_MS } from '../../lib/site/vote/voter.ts';
import { type Address, VoteEndpoint } from '../../lib/site/vote/endpoint.ts';
import { Voter } from '../../lib/site/vote/voter.ts';
import { voteKey } from '../../lib/site/vote/wire.ts';
import { eventually } from '../helpers/eventually.ts';
import { freeUdpPorts } from '../helpers/ports.ts';
import { startWitness } from '../helpers/witness-process.ts';

const siteKey = 'a site key of sixty-four characters, as openssl rand -hex 32 makes';

/** The witness of group `studio` on 127.0.0.1 (`port` 0: any), the site key from the environment. */
const witnessOn = (t: ExecutionContext, state: string, port = 0) =>
  startWitness(t, { group: 'studio', listen: `127.0.0.1:${port}`, state, env: { PATCHBAY_SITE_KEY: siteKey } });

/** A UDP relay between one hub and the witness that keeps what the hub sent: a reader of the network. */
class Relay {
  readonly sent: Buffer[] = [];
  private hub: Address | undefined;

  private constructor(
    private readonly socket: Socket,
    private witness: Address,
  ) {
    socket.on('message', (bytes, from) => {
      if (from.port === this.witness.port && from.address === this.witness.host) {
        if (this.hub) socket.send(bytes, this.hub.port, this.hub.host);
        return;
      }
      this.hub = { host: from.address, port: from.port };
      this.sent.push(bytes);
      socket.send(bytes, this.witness.port, this.witness.host);
    });
  }

  static async open(witness: Address): Promise<Relay> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new Relay(socket, witness);
  }

  get port(): number {
    return this.socket.address().port;
  }

  /** The witness came back on another port. */
  moveTo(witness: Address): void {
    this.witness = witness;
  }

  /** Plays back what the hub sent, as an attacker on the network would (from this relay's address). */
  replay(datagrams: readonly Buffer[]): void {
    for (const bytes of datagrams) this.socket.send(bytes, this.witness.port, this.witness.host);
  }

  close(): void {
    this.socket.close();
  }
}

interface Hub {
  readonly id: string;
  readonly candidate: Candidate;
  holds(): boolean;
  stop(): Promise<void>;
}

/** A hub's side of the vote: its voter, its candidate asking every round, its socket. */
async function startHub(t: ExecutionContext, id: 'a' | 'b', voters: Record<string, Address>, port: number): Promise<Hub> {
  const voter = new Voter(id, undefined, performance.now());
  let candidate: Candidate | undefined;
  const endpoint = await VoteEndpoint.open({
    id,
    group: 'studio',
    key: voteKey(Buffer.from(siteKey)),
    listen: { host: '127.0.0.1', port },
    voters,
    voter,
    start: Date.now(),
    answered: (from, n, answer) => candidate?.answered(from, n, answer, performance.now()),
  });
  candidate = new Candidate(id, Object.keys(voters), (to, request) => endpoint.ask(to, request), { members: ['a', 'b'] });
  const rounds = setInterval(() => candidate?.tick(performance.now()), ASK_EVERY_MS);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    clearInterval(rounds);
    await endpoint.close();
  };
  t.teardown(stop);
  return { id, candidate, holds: () => !stopped && candidate?.lease(performance.now()) !== undefined, stop };
}

/** Watches who holds for `ms`: every 20 ms, the hubs that hold. */
async function watch(hubs: readonly Hub[], ms: number): Promise<string[][]> {
  const seen: string[][] = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    seen.push(hubs.filter((hub) => hub.holds()).map((hub) => hub.id));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return seen;
}

test.serial(
  'a witness and two hubs: one holds; the witness killed, it holds on; the holder gone and its requests played back, the other takes over',
  async (t) => {
    const state = await mkdtemp(join(tmpdir(), 'patchbay-witness-'));
    let witness = await witnessOn(t, state);
    const [portA, portB] = (await freeUdpPorts(2)) as [number, number];
    const relays = {
      a: await Relay.open({ host: '127.0.0.1', port: witness.port }),
      b: await Relay.open({ host: '127.0.0.1', port: witness.port }),
    };
    t.teardown(() => {
      relays.a.close();
      relays.b.close();
    });
    const votersOf = (relay: Relay) => ({
      a: { host: '127.0.0.1', port: portA },
      b: { host: '127.0.0.1', port: portB },
      witness: { host: '127.0.0.1', port: relay.port },
    });
    const a = await startHub(t, 'a', votersOf(relays.a), portA);
    const b = await startHub(t, 'b', votersOf(relays.b), portB);

    await eventually(() => a.holds() || b.holds(), 'a hub to hold the lease', 15_000);
    const holder = a.holds() ? a : b;
    const other = holder === a ? b : a;
    t.is(holder, a, 'the first member holds it when both start together');
    // This process runs both hubs' sides and other specs' work: a stall of it may cost the holder its lease for a moment
    // (as a stalled hub loses it), but never may the other hold it while the holder lives, with or without the witness.
    const steady = await watch([a, b], 1500);
    t.false(
      steady.some((holding) => holding.includes(other.id)),
      `only the holder held: ${JSON.stringify(steady.filter((h) => h.length !== 1).slice(0, 5))}`,
    );

    // The witness killed: the holder keeps its lease with the other hub's vote.
    witness.child.kill('SIGKILL');
    const withoutWitness = await watch([a, b], 3000);
    t.false(
      withoutWitness.some((holding) => holding.includes(other.id)),
      'the other never held it',
    );
    await eventually(() => holder.holds(), 'the holder to hold without the witness', 5000);

    // Back, from its state folder, on its old port.
    witness = await witnessOn(t, state, witness.port);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const captured = relays[holder.id as 'a' | 'b'].sent.slice(-20);
    t.true(captured.length >= 5, 'the relay heard the holder ask the witness');

    // The holder gone for good; what it sent is played back to the witness, again and again.
    await holder.stop();
    const goneAt = performance.now();
    const replaying = setInterval(() => relays[holder.id as 'a' | 'b'].replay(captured), 100);
    t.teardown(() => clearInterval(replaying));
    await eventually(() => other.holds(), 'the other hub to take over, played back or not', 15_000);
    t.log(`taken over ${Math.round(performance.now() - goneAt)} ms after the holder went`);
    clearInterval(replaying);
    await eventually(
      () => new RegExp(`a vote not taken \\(replayed, from ${holder.id}\\)`).test(witness.log()),
      'the witness says it refused the played-back requests',
    );
    t.false(holder.holds());
  },
);
