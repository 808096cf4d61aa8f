/**
 * What an ember-provider answers a consumer's requests with: GetDirectory and Subscribe
 * follow a path, Unsubscribe lets it go, a setValue, an Invoke or a matrix's connect is a hub
 * write (R-C conversion, origin `ember <peer>`) that the writer always hears the outcome of —
 * each within the bounds on how much one consumer may ask.
 */
import type { Parameter, Value } from '../../sdk/index.ts';
import {
  CommandNumber,
  type EmberConnection,
  type EmberElement,
  type EmberValue,
  ElementType,
  elementsMessage,
  invocationResultMessage,
  type Met,
  numbered,
  parentPath,
  qualified,
} from '../../protocols/ember-plus.ts';
import type { ConsumerSession } from './consumer-session.ts';
import type { Consumers } from './consumers.ts';
import { connectionsMessage, valueMessage } from './element-messages.ts';
import type { Entry, ExposedTree } from './exposed-tree.ts';

/**
 * Paths one consumer may follow at most: a tree's nodes and parameters it watches. Past it,
 * it is cut off: a million Subscribes must not cost a million entries.
 */
const SUBSCRIPTIONS_AT_MOST = 10_000;
/**
 * Requests (commands and elements) one consumer may send in a second: a desk sends tens, a
 * tree read some thousands. Past it, it is cut off rather than hold the hub.
 */
export const REQUESTS_PER_SECOND = 20_000;

export interface RequestContext {
  readonly tree: ExposedTree;
  readonly consumers: Consumers;
  /** The hub's clock, in milliseconds: what a consumer's requests in a second are counted by. */
  readonly now: () => number;
  /** What a consumer may change. */
  readonly mayWrite: (parameter: Parameter) => boolean;
  /** Logs that a consumer was refused a change of `parameter`. */
  readonly refuse: (session: ConsumerSession, parameter: Parameter) => void;
  /** The element at `entry` as consumers see it. */
  readonly contentsOf: (entry: Entry) => EmberElement;
}

/** Answers what a consumer's messages hold, the commands and elements met in them, in order. */
export function requestHandler(context: RequestContext): (session: ConsumerSession, met: readonly Met[]) => void {
  const requests = new ConsumerRequests(context);
  return (session, met) => requests.answer(session, met);
}

class ConsumerRequests {
  constructor(private readonly context: RequestContext) {}

  answer(session: ConsumerSession, met: readonly Met[]): void {
    if (session.isClosed) return;
    if (!session.asks(met.length, this.context.now(), REQUESTS_PER_SECOND))
      return this.context.consumers.cutOffFor(session, `more than ${REQUESTS_PER_SECOND} requests in a second`);
    for (const item of met) {
      if (session.isClosed) return;
      if (item.kind === 'command') {
        const { command, path } = item;
        if (command.number === CommandNumber.GetDirectory) this.directory(session, path);
        else if (command.number === CommandNumber.Subscribe) this.subscribe(session, path);
        else if (command.number === CommandNumber.Unsubscribe) this.context.consumers.unsubscribe(session, path);
        else if (command.number === CommandNumber.Invoke)
          this.invoke(session, path, (command as { invocation?: { id?: number } }).invocation?.id ?? 0);
      } else if (item.kind === 'element' && item.contents.type === ElementType.Parameter) {
        // Some consumers send the element they read, children (none) and all: it is a setValue all the same.
        this.write(session, item.path, item.contents.value);
      } else if (item.kind === 'element' && item.contents.type === ElementType.Matrix && item.contents.connections) {
        this.connect(session, item.path, Object.values(item.contents.connections));
      }
    }
  }

  /** Follows the element at `path` for the consumer: nothing is kept for a path that names nothing. */
  private subscribe(session: ConsumerSession, path: string): void {
    const { tree, consumers } = this.context;
    if (tree.at(path) === undefined || session.subscriptions.has(path)) return;
    if (session.subscriptions.size >= SUBSCRIPTIONS_AT_MOST)
      return consumers.cutOffFor(session, `it follows ${SUBSCRIPTIONS_AT_MOST} paths, the most one may`);
    consumers.follow(session, path);
  }

  private directory(session: ConsumerSession, path: string): void {
    const { tree, contentsOf } = this.context;
    const entry = tree.at(path);
    if (entry === undefined) return;
    this.subscribe(session, path);
    if (entry.kind === 'leaf') return session.send(elementsMessage([qualified(path, contentsOf(entry))]));
    // Empty children: emberplus-connection's consumer waits for children in a directory's answer.
    if (entry.kind === 'matrix') return session.send(connectionsMessage(entry, entry.matrix.allTargets(), new Map()));
    const online = [...entry.children.values()].filter((child) => child.kind !== 'leaf' || child.online);
    if (path === '') return session.send(elementsMessage(online.map((child) => numbered(child.number, contentsOf(child)))));
    const children = new Map(online.map((child) => [child.number, contentsOf(child)]));
    session.send(elementsMessage([qualified(path, contentsOf(entry), children)]));
  }

  private write(session: ConsumerSession, path: string, value: EmberValue | undefined): void {
    const entry = this.context.tree.at(path);
    if (entry?.kind !== 'leaf' || !entry.online || entry.parameter.type === 'T') return;
    // Octets (a Uint8Array once decoded) have no parameter type to go to.
    if (value === undefined || value === null || value instanceof Uint8Array) return;
    const { parameter } = entry;
    this.writeAnswered(session, parameter, value, this.hears(session, path), () => session.send(valueMessage(entry, parameter.value)));
  }

  /** A consumer's connect: a hub write of each target it names; the writer always hears what the targets hold after. */
  private connect(session: ConsumerSession, path: string, requests: readonly EmberConnection[]): void {
    const entry = this.context.tree.at(path);
    if (entry?.kind !== 'matrix') return;
    const heardIt = this.hears(session, path);
    for (const request of requests) {
      const value = entry.matrix.asked(request);
      const parameter = entry.matrix.targets[request.target];
      if (value === undefined || parameter === undefined) continue;
      this.writeAnswered(session, parameter, value, heardIt, () => session.send(connectionsMessage(entry, [request.target])));
    }
  }

  /**
   * A consumer's change of `parameter`, as a hub write: the writer always hears the hub's
   * value after it (`answer`) — the new one, or the one that stayed — unless what it
   * follows tells it already (`heardIt`).
   */
  private writeAnswered(session: ConsumerSession, parameter: Parameter, value: Value, heardIt: boolean, answer: () => void): void {
    if (!this.context.mayWrite(parameter)) {
      this.context.refuse(session, parameter);
      return answer();
    }
    if (parameter.answersLater) {
      if (!parameter.set(value, session.origin, answer).ok) answer();
      return;
    }
    const result = parameter.set(value, session.origin);
    if (!result.ok || !result.value || !heardIt) answer();
  }

  private invoke(session: ConsumerSession, path: string, id: number): void {
    const { tree, mayWrite, refuse } = this.context;
    const entry = tree.at(path);
    const allowed = entry?.kind === 'leaf' && mayWrite(entry.parameter);
    if (entry?.kind === 'leaf' && !allowed) refuse(session, entry.parameter);
    const fired = allowed && entry.online && entry.parameter.type === 'T' && entry.parameter.set(null, session.origin).ok;
    session.send(invocationResultMessage(id, fired === true));
  }

  /** Whether the consumer follows `path` or its parent, and so hears a change there anyway. */
  private hears(session: ConsumerSession, path: string): boolean {
    return session.subscriptions.has(parentPath(path)) || session.subscriptions.has(path);
  }
}
