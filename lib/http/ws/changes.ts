/**
 * The parameters that changed while the hub ran, as the fan-out keeps them (`Entry`): each
 * one's message prefix made once, its current message, the topics that send it, and the
 * hub's change count at its last change — what lets a snapshot or a client that caught up
 * be sent only what it does not have. Counts every change and every removal.
 */
import type { Graph } from '../../core/graph.ts';
import type { Parameter } from '../../core/parameter.ts';
import { prefixOf } from './messages.ts';
import type { Entry, Topic } from './state.ts';
import type { Topics } from './topics.ts';

const NO_TOPICS: readonly Topic[] = [];

export class Changes {
  private readonly entries = new Map<string, Entry>();
  private changes = 0;
  private removed = 0;

  constructor(
    private readonly graph: Graph,
    private readonly topics: Topics,
  ) {}

  /** Every change counted, so that a client that caught up can be sent only what it missed: each change's `seq`. */
  get count(): number {
    return this.changes;
  }

  /** Parameters removed from the graph so far: a topic's `matched` found before a removal may hold it. */
  get removals(): number {
    return this.removed;
  }

  /**
   * The entry's parameter changed: counted, and `message` kept as its current one unless
   * it is undefined (a trigger keeps none). Its `seq`, the new count.
   */
  changed(entry: Entry, message: string | undefined): number {
    entry.changedAt = ++this.changes;
    if (message !== undefined) entry.message = message;
    return entry.changedAt;
  }

  /** Counts a change no entry keeps (a table's row read as it is, none made): its `seq`. */
  nextSeq(): number {
    return ++this.changes;
  }

  /** The parameter's entry, made at its first change; undefined for one no longer in the graph. */
  entryOf(parameter: Parameter): Entry | undefined {
    const address = parameter.address;
    let entry = this.entries.get(address);
    if (entry === undefined || entry.parameter !== parameter) {
      if (this.graph.get(address) !== parameter) return undefined;
      const prefix = this.topics.exposes(address) ? prefixOf(address) : '';
      entry = { parameter, prefix, message: undefined, topics: NO_TOPICS, topicsVersion: -1, changedAt: 0 };
      this.entries.set(address, entry);
    }
    return entry;
  }

  /** The entry at `address`, when its parameter changed. */
  at(address: string): Entry | undefined {
    return this.entries.get(address);
  }

  /** The topics that send the entry's parameter, found again when topics came or went since the last look. */
  topicsOf(entry: Entry): readonly Topic[] {
    if (entry.topicsVersion !== this.topics.version) {
      entry.topicsVersion = this.topics.version;
      const address = entry.parameter.address;
      entry.topics = [...this.topics.values()].filter((topic) => topic.matches(address));
    }
    return entry.topics;
  }

  /** The parameter's value is unknown again: a client that joins now gets none for it in its snapshot. */
  forget(address: string): void {
    const entry = this.entries.get(address);
    if (entry) entry.message = undefined;
  }

  /** Parameters removed: no longer kept. The entries let go, for what holds them elsewhere (a tick) to let go too. */
  remove(parameters: Iterable<Parameter>): Entry[] {
    this.removed++;
    const gone: Entry[] = [];
    for (const { address } of parameters) {
      const entry = this.entries.get(address);
      if (!entry) continue;
      gone.push(entry);
      this.entries.delete(address);
    }
    return gone;
  }

  clear(): void {
    this.entries.clear();
  }
}
