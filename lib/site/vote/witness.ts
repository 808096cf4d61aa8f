/**
 * `patchbay witness`: the third voter of a group of two hubs (R-AV2), a process of its own on
 * a third machine — the broker's is a good place, as long as it is not one of the hubs'. It
 * holds no parameters and drives nothing: it only grants the lease to one hub at a time, by
 * the voters' rule (voter.ts), and keeps what it promised and the last request it took from
 * each hub in its state folder, so that a restart neither promises an epoch twice nor takes
 * an old request played back.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../core/log.ts';
import { type Address, type Dropped, VoteEndpoint } from './endpoint.ts';
import { type Pledge, Voter } from './voter.ts';
import { type Stamp, voteKey } from './wire.ts';

export interface WitnessOptions {
  readonly id: string;
  readonly group: string;
  /** The hubs of the group (their ids, as in `hub.members`). */
  readonly members: readonly string[];
  readonly listen: Address;
  readonly siteKey: Buffer;
  /** Where it keeps its promise and the last requests taken; undefined: in memory only. */
  readonly stateFolder: string | undefined;
  readonly log: Logger;
}

interface Kept {
  readonly pledge?: Pledge;
  readonly taken?: Record<string, Stamp>;
}

/** How often the last requests taken are written: a restart may take one request per hub again that came in the last second. */
const KEEP_TAKEN_EVERY_MS = 1000;

export interface RunningWitness {
  readonly port: number;
  /** What it did not take, by why. */
  readonly dropped: Readonly<Record<Dropped, number>>;
  stop(): Promise<void>;
}

export async function startWitness(options: WitnessOptions): Promise<RunningWitness> {
  const { id, group, members, log } = options;
  const file = options.stateFolder === undefined ? undefined : join(options.stateFolder, `witness-${group}.json`);
  let kept: Kept = {};
  if (file) {
    mkdirSync(options.stateFolder as string, { recursive: true });
    try {
      kept = JSON.parse(readFileSync(file, 'utf8')) as Kept;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new Error(`the witness's state ${file} cannot be read: ${String(error)}`);
    }
  }
  const taken: Record<string, Stamp> = { ...kept.taken };
  let pledge = kept.pledge;
  let dirty = false;
  const write = () => {
    if (!file || !dirty) return;
    dirty = false;
    writeFileSync(`${file}.new`, JSON.stringify({ pledge, taken }));
    renameSync(`${file}.new`, file);
  };
  const voter = new Voter(id, pledge, performance.now(), (promised) => {
    pledge = promised;
    dirty = true;
    // A promise is written before the answer that makes it leaves: a restart must not promise the epoch again.
    write();
    log.info(`grants the lease of group ${group} to hub ${promised.candidate} (epoch ${promised.epoch})`);
  });
  const dropped: Record<Dropped, number> = { unsigned: 0, malformed: 0, stranger: 0, replayed: 0 };
  /** When each reason was last logged: the first of each at once, then a line in ten seconds at most. */
  const lastWarned = new Map<Dropped, number>();
  const endpoint = await VoteEndpoint.open({
    id,
    group,
    key: voteKey(options.siteKey),
    listen: options.listen,
    voters: Object.fromEntries([...members, id].map((member) => [member, undefined])),
    voter,
    start: Date.now(),
    lastTaken: taken,
    keepTaken: (sender, stamp) => {
      taken[sender] = stamp;
      dirty = true;
    },
    dropped: (why, from) => {
      dropped[why] += 1;
      // A flood of bad datagrams does not flood the log.
      const last = lastWarned.get(why);
      if (last !== undefined && performance.now() - last < 10_000) return;
      lastWarned.set(why, performance.now());
      log.warn(`a vote not taken (${why}${from ? `, from ${from}` : ''}); so far: ${JSON.stringify(dropped)}`);
    },
  });
  const keeping = setInterval(write, KEEP_TAKEN_EVERY_MS);
  log.info(`witness ${id} of group ${group} (hubs ${members.join(', ')}) listening on ${options.listen.host}:${endpoint.port}/udp`);
  return {
    port: endpoint.port,
    dropped,
    async stop() {
      clearInterval(keeping);
      write();
      await endpoint.close();
    },
  };
}
