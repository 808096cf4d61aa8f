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
  /** Every change counted, so that a client that caught up can be sent only what it missed. */
  count = 0;
  /** Parameters removed from the graph so far: a topic's `matched` found before a removal may hold it. */
  removals = 0;

  constructor(
    private readonly graph: Graph,
    private readonly topics: Topics,
  ) {}

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

  /** Parameters removed: no longer kept, nor held for a tick. */
  removed(parameters: Iterable<Parameter>): void {
    this.removals++;
    for (const { address } of parameters) {
      const entry = this.entries.get(address);
      if (!entry) continue;
      for (const topic of entry.topics) topic.held.delete(entry);
      this.entries.delete(address);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
