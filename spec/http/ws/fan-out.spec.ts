import test, { type ExecutionContext } from 'ava';
import type { Result } from '../../../lib/core/errors.ts';
import { Graph } from '../../../lib/core/graph.ts';
import { TextIndex } from '../../../lib/core/text-index.ts';
import type { OwnedParameter } from '../../../lib/core/parameter.ts';
import type { Value, ValueType } from '../../../lib/core/value.ts';
import { WsFanOut } from '../../../lib/http/ws/fan-out.ts';
import { newWsClient, type WsClient, type WsSocket } from '../../../lib/http/ws/state.ts';
import { VirtualClock } from '../../helpers/virtual-time.ts';

/**
 * A client socket as uWS keeps one: while the client reads, what is sent reaches it at
 * once; while it does not, messages queue in the send buffer, and beyond the drop cap
 * uWS drops them. uWS reports a drain only when the spec says so (`hub.drained`).
 */
class FakeSocket implements WsSocket {
  /** Every message the client has read, in order, as `address=value`. */
  readonly seen: string[] = [];
  /** Every message the client has read, as sent: a batch client's are arrays. */
  readonly messages: string[] = [];
  readonly topics = new Set<string>();
  /** The time of each write to the socket: a corked run of sends is one write. */
  readonly writtenAt: number[] = [];
  dropped = 0;
  closed: [number, string] | undefined;
  private readonly queue: string[] = [];
  private queuedBytes = 0;
  private reading = true;
  private readonly data: WsClient;
  private corked = false;

  constructor(
    filters: readonly RegExp[],
    private readonly dropLimit: number,
    maxHz = 0,
    private readonly now: () => number = () => 0,
    { origins = false, batch = false, resume = false }: { origins?: boolean; batch?: boolean; resume?: boolean } = {},
  ) {
    this.data = newWsClient(filters, undefined, 'ws', { maxHz, origins, batch, ...(resume ? { resume: {} } : {}) });
  }

  send(message: string | Buffer): void {
    if (!this.corked) this.writtenAt.push(this.now());
    this.deliver(String(message));
  }

  /** A message reaches the socket's buffer (from `send`, or from a publish to one of its topics). */
  deliver(message: string): void {
    if (this.queuedBytes > this.dropLimit) {
      this.dropped++;
    } else if (this.reading) {
      this.take(message);
    } else {
      this.queue.push(message);
      this.queuedBytes += message.length;
    }
  }

  cork(work: () => void): void {
    this.writtenAt.push(this.now());
    this.corked = true;
    try {
      work();
    } finally {
      this.corked = false;
    }
  }

  subscribe(topic: string): void {
    this.topics.add(topic);
  }

  unsubscribe(topic: string): void {
    this.topics.delete(topic);
  }

  getBufferedAmount(): number {
    return this.queuedBytes;
  }

  end(code: number, reason: string): void {
    this.closed = [code, reason];
  }

  getUserData(): WsClient {
    return this.data;
  }

  /** The client stops reading: what is sent to it piles up in its send buffer. */
  stall(): void {
    this.reading = false;
  }

  /** The client reads `count` buffered messages (all by default) and, when none are left, reads on. */
  read(count = Number.POSITIVE_INFINITY): void {
    for (const message of this.queue.splice(0, count)) {
      this.queuedBytes -= message.length;
      this.take(message);
    }
    this.reading = this.queue.length === 0;
  }

  /** The last value read per address: what a dashboard shows. */
  state(): Record<string, string> {
    return Object.fromEntries(this.seen.map((line) => line.split('=') as [string, string]));
  }

  private take(message: string): void {
    this.messages.push(message);
    const parsed = JSON.parse(message) as { p?: string; v: string } | { p?: string; v: string }[];
    // A value's address and value; a resume client's greeting and marks are not values.
    for (const { p, v } of Array.isArray(parsed) ? parsed : [parsed]) if (p !== undefined) this.seen.push(`${p}=${v}`);
  }
}

interface Options {
  readonly wsFilters?: readonly RegExp[];
  readonly lagLimit?: number;
  readonly dropLimit?: number;
  /** Where end-of-turn work goes: by default it runs when the virtual clock's turn ends (`endTurn`). */
  readonly afterTurn?: (work: () => void) => void;
}

const SCAN_MS = 50;

/** A WsFanOut on a fresh graph and a virtual clock, with fake sockets behind a fake `publish`. */
function setup(t: ExecutionContext, { wsFilters = [], lagLimit = 2000, dropLimit = 1_000_000, afterTurn }: Options = {}) {
  const clock = new VirtualClock();
  const graph = new Graph();
  graph.registerConnection('studio');
  const sockets = new Set<FakeSocket>();
  /** The topic of every publish, in order, and the virtual time of each. */
  const published: string[] = [];
  const publishedAt: number[] = [];
  const hub = new WsFanOut(
    graph,
    wsFilters,
    (topic, message) => {
      published.push(topic);
      publishedAt.push(clock.now);
      for (const socket of sockets) if (socket.topics.has(topic)) socket.deliver(message);
    },
    { lagLimit, scanIntervalMs: SCAN_MS, dropLimit, scheduler: clock.scheduler, afterTurn: afterTurn ?? endOfTurnOn(clock) },
  );
  hub.start();
  t.teardown(() => hub.stop());
  return {
    clock,
    /** The turn ends: what changed in it goes out (as uWS is handed it once its handlers returned). */
    endTurn: () => clock.advanceBy(0),
    graph,
    hub,
    published,
    publishedAt,
    define(id: string, type: ValueType = 'S', initial?: Value): OwnedParameter {
      return unwrap(graph.define('studio', id, { type, access: 'read-write', ...(initial === undefined ? {} : { initial }) }));
    },
    /** A client that joins now; a stalled one does not read from the start, its snapshot included. */
    connect({
      filters = [],
      stalled = false,
      maxHz = 0,
      origins = false,
      batch = false,
      resume = false,
    }: {
      filters?: RegExp[];
      stalled?: boolean;
      maxHz?: number;
      origins?: boolean;
      batch?: boolean;
      resume?: boolean;
    } = {}): FakeSocket {
      const socket = new FakeSocket(filters, dropLimit, maxHz, () => clock.now, { origins, batch, resume });
      if (stalled) socket.stall();
      sockets.add(socket);
      hub.join(socket);
      return socket;
    },
    /** The client goes, as uWS reports with `close`. */
    leave(socket: FakeSocket): void {
      sockets.delete(socket);
      hub.leave(socket);
    },
    /** What a client should end with: the current value of every known state parameter. */
    current(): Record<string, string> {
      return Object.fromEntries(graph.all().flatMap((p) => (p.value === undefined ? [] : [[p.address, String(p.value)]])));
    },
  };
}

/** The hub's end-of-turn work, run on the virtual clock when the turn ends (`advanceBy`). */
const endOfTurnOn = (clock: VirtualClock) => (work: () => void) => void clock.scheduler.schedule(work);

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

const padding = 'x'.repeat(200);

/** Ten parameters whose changes are about 230 bytes each: one burst is about 2.3 KB. */
function bank(define: (id: string, type?: ValueType, initial?: Value) => OwnedParameter) {
  const parameters = Array.from({ length: 10 }, (_, i) => define(`p${i}`, 'S', 'start'));
  return {
    parameters,
    burst(tag: string): void {
      for (const [i, parameter] of parameters.entries()) parameter.set(`${tag}${i} ${padding}`);
    },
  };
}

test('a client gets every known value as a snapshot, then each change as it happens', (t) => {
  const { define, connect, endTurn } = setup(t);
  const count = define('count', 'I', 3);
  const title = define('title', 'S', 'Morning');
  const note = define('note');
  count.set(4);
  const client = connect();
  t.deepEqual(client.seen, ['studio/count=4', 'studio/title=Morning'], 'the latest values only; nothing unknown');
  count.set(5);
  title.set('News');
  count.set(5);
  note.set('first value');
  endTurn();
  t.deepEqual(client.seen.slice(2), ['studio/count=5', 'studio/title=News', 'studio/note=first value']);
});

test('a client that asks for origins gets who changed each value and when, in its snapshot and its stream; the others get {p, v} alone (R-O2)', (t) => {
  const { define, connect, endTurn } = setup(t);
  const title = define('title', 'S', 'Morning');
  const level = define('level', 'F');
  title.set('News', 'ws 10.0.0.7');
  const plain = connect();
  const told = connect({ origins: true });
  const slow = connect({ origins: true, maxHz: 10 });
  const parsed = (socket: FakeSocket) => socket.messages.map((m) => JSON.parse(m) as Record<string, string>);
  const [first] = parsed(told);
  t.like(first, { p: 'studio/title', v: 'News', by: 'ws 10.0.0.7' });
  t.true(new Date(first?.['at'] ?? '').getTime() > 0, 'when, as an ISO date-time');
  level.set(0.5, 'rule fader');
  title.set('Late', 'code-flow clock');
  endTurn();
  t.deepEqual(
    parsed(told).map(({ p, v, by }) => `${p}=${v} by ${by}`),
    ['studio/title=News by ws 10.0.0.7', 'studio/level=0.5 by rule fader', 'studio/title=Late by code-flow clock'],
  );
  t.deepEqual(plain.messages, ['{"p":"studio/title","v":"News"}', '{"p":"studio/level","v":"0.5"}', '{"p":"studio/title","v":"Late"}']);
  t.deepEqual(
    parsed(slow).map(({ p, by }) => `${p} by ${by}`),
    ['studio/title by ws 10.0.0.7', 'studio/level by rule fader', 'studio/title by code-flow clock'],
    'a rate-limited client too',
  );
});

test('clients that join between changes lose none and see none twice', (t) => {
  const { define, connect } = setup(t);
  const counter = define('counter', 'I', 0);
  const clients: [number, FakeSocket][] = [];
  for (let n = 1; n <= 100; n++) {
    counter.set(n);
    if (n % 10 === 0) clients.push([n, connect()]);
  }
  for (const [joinedAt, client] of clients) {
    const expected = Array.from({ length: 101 - joinedAt }, (_, i) => `studio/counter=${joinedAt + i}`);
    t.deepEqual(client.seen, expected, `joined at ${joinedAt}`);
  }
});

test('triggers are never in a snapshot; their fires stream like changes', (t) => {
  const { define, connect, endTurn } = setup(t);
  const cue = define('cue', 'T');
  define('level', 'F', 0.5);
  cue.set(null);
  const client = connect();
  t.deepEqual(client.seen, ['studio/level=0.5']);
  cue.set(null);
  cue.set(null);
  endTurn();
  t.deepEqual(client.seen.slice(1), ['studio/cue=true', 'studio/cue=true']);
  t.deepEqual(connect().seen, ['studio/level=0.5'], 'a later client is not sent past fires');
});

test('a change made by a listener of another parameter reaches clients after the change that caused it, whoever listened first', (t) => {
  const graph = new Graph();
  graph.registerConnection('studio');
  const define = (id: string) => unwrap(graph.define('studio', id, { type: 'I', access: 'read-write', initial: 0 }));
  const [fader, meter] = [define('fader'), define('meter')];
  // A rule-like listener that was there before the WebSocket layer started.
  const rule = fader.changes$.subscribe((value) => meter.set(Number(value) * 2));
  const socket = new FakeSocket([], 1_000_000);
  const clock = new VirtualClock();
  const hub = new WsFanOut(graph, [], (_, message) => socket.topics.size > 0 && socket.send(message), {
    lagLimit: 2000,
    scanIntervalMs: SCAN_MS,
    dropLimit: 1_000_000,
    scheduler: clock.scheduler,
    afterTurn: endOfTurnOn(clock),
  });
  hub.start();
  t.teardown(() => {
    rule.unsubscribe();
    hub.stop();
  });
  hub.join(socket);
  fader.set(5);
  clock.advanceBy(0);
  t.deepEqual(socket.seen.slice(-2), ['studio/fader=5', 'studio/meter=10']);
});

test('a client whose send buffer passes the lag limit is taken off the stream at the next check', (t) => {
  const { define, connect, clock, hub, endTurn } = setup(t, { lagLimit: 2000 });
  const { burst } = bank(define);
  const slow = connect();
  const fast = connect();
  slow.stall();
  burst('a');
  burst('b');
  endTurn();
  t.true(slow.getBufferedAmount() > 2000);
  t.is(hub.stats().lagging, 0, 'buffers are checked on a schedule, not on every change');
  clock.advanceBy(SCAN_MS);
  t.is(hub.stats().lagging, 1);
  const buffered = slow.getBufferedAmount();
  burst('c');
  burst('d');
  endTurn();
  t.is(slow.getBufferedAmount(), buffered, 'nothing more is queued for it');
  t.is(fast.seen.length, 10 + 40, 'the others get every change');
});

test('a snapshot too large for one slice is sent over several turns, followed by every change and fire made meanwhile, in order; then the client streams', async (t) => {
  const { define, connect, current, endTurn } = setup(t);
  const go = define('go', 'T');
  const parameters = Array.from({ length: 100_000 }, (_, i) => define(`bank/${i % 100}/p${i}`, 'I', i));
  const turns = async (socket: FakeSocket) => {
    for (let turn = 0; socket.topics.size === 0 && turn < 10_000; turn++) await new Promise((resolve) => setImmediate(resolve));
  };
  // The first client of a filter set too: its filters are tested as its snapshot goes.
  const first = connect();
  t.true(first.seen.length < parameters.length, 'the first join returned before the whole snapshot was sent');
  await turns(first);
  t.is(first.seen.length, parameters.length);
  const client = connect();
  t.true(client.seen.length < parameters.length, 'join returned before the whole snapshot was sent: other work gets turns');
  t.false(client.topics.size > 0, 'and the client is not on the stream yet');
  for (const value of [-1, -2, -3]) parameters[0]?.set(value); // already sent: each change follows
  go.set(null);
  parameters.at(-1)?.set(-9); // not sent yet: comes once, as its change
  await turns(client);
  const { 'studio/go': fired, ...values } = client.state();
  t.deepEqual(values, current(), 'it ends with every latest value');
  t.is(fired, 'true', 'and the fire arrived');
  t.is(
    client.seen.length,
    parameters.length + 4,
    'each value once, then the five changes and the fire, minus the one not sent before its change',
  );
  t.deepEqual(client.seen.slice(-5), [
    'studio/bank/0/p0=-1',
    'studio/bank/0/p0=-2',
    'studio/bank/0/p0=-3',
    'studio/go=true',
    'studio/bank/99/p99999=-9',
  ]);
  parameters[5]?.set(5555);
  endTurn();
  t.is(client.seen.at(-1), 'studio/bank/5/p5=5555', 'then changes stream');
});

test('a batch snapshot in slices is arrays of every value as written, any text and size, then the changes made meanwhile, in order (R-W1)', async (t) => {
  const { define, connect, current, endTurn } = setup(t);
  const texts = ['say "hi"', 'back\\slash', 'Zürich', '🎚 fader', 'tab\there', 'nul\u0000', '</script>', 'x'.repeat(300_000)];
  const parameters = Array.from({ length: 50_000 }, (_, i) => define(`bank/${i % 100}/p${i}`, 'S', i % 997 === 0 ? texts[i % 8] : `v${i}`));
  const changed = parameters[1];
  changed?.set('changed "before" the client');
  endTurn();
  const sent = parameters.map((parameter) => `${parameter.address}=${parameter.value}`);
  const client = connect({ batch: true });
  t.false(client.topics.size > 0, 'join returned before the whole snapshot was sent');
  parameters[0]?.set('after "0"'); // already sent: the change follows
  parameters.at(-1)?.set('after 🎚'); // not sent yet: comes once, as its change
  for (let turn = 0; client.topics.size === 0 && turn < 10_000; turn++) await new Promise((resolve) => setImmediate(resolve));
  t.true(client.messages.length > 2, `${client.messages.length} arrays`);
  t.true(
    client.messages.every((message) => message.startsWith('[{') && message.endsWith('}]')),
    'each message a JSON array of values',
  );
  t.deepEqual(
    client.seen,
    [...sent.slice(0, -1), 'studio/bank/0/p0=after "0"', 'studio/bank/99/p49999=after 🎚'],
    'each value once, in order, each text as it was; then the changes made meanwhile',
  );
  t.deepEqual(client.state(), current());
  parameters[5]?.set('then "5"');
  endTurn();
  t.is(client.seen.at(-1), 'studio/bank/5/p5=then "5"', 'then changes stream');
});

test('clients sharing filters have each parameter tested against them once, not once per client', async (t) => {
  const { define, connect } = setup(t);
  for (let i = 0; i < 10_000; i++) define(`bank/p${i}`, 'I', i);
  let tests = 0;
  class Counting extends RegExp {
    override test(text: string): boolean {
      tests++;
      return super.test(text);
    }
  }
  const clients = Array.from({ length: 100 }, () => connect({ filters: [new Counting('^studio/bank/p1\\d\\d$')] }));
  for (let turn = 0; clients.some((c) => c.topics.size === 0) && turn < 1000; turn++) await new Promise((resolve) => setImmediate(resolve));
  t.true(
    clients.every((c) => c.seen.length === 100),
    'every client has the 100 values its filter passes',
  );
  t.true(tests <= 10_000 + 100, `${tests} tests of the filter for 100 clients of 10,000 parameters`);
});

test('a large snapshot still in flight does not count as lagging', (t) => {
  const { define, connect, clock, hub } = setup(t, { lagLimit: 2000 });
  const { parameters, burst } = bank(define);
  burst('big');
  const client = connect({ stalled: true });
  t.true(client.getBufferedAmount() > 2000, 'the snapshot alone is over the limit');
  parameters[0]?.set('one change');
  clock.advanceBy(SCAN_MS);
  t.is(hub.stats().lagging, 0);
  burst('a');
  clock.advanceBy(SCAN_MS);
  t.is(hub.stats().lagging, 1, 'the limit counts from the end of the snapshot');
});

test('once drained, a lagging client is sent only what changed while it was off the stream, then changes again', (t) => {
  const { define, connect, clock, hub, current, endTurn } = setup(t, { lagLimit: 2000 });
  const { parameters, burst } = bank(define);
  const slow = connect();
  slow.stall();
  burst('a');
  burst('b');
  clock.advanceBy(SCAN_MS);
  t.is(hub.stats().lagging, 1);
  parameters[0]?.set('while off 1');
  parameters[0]?.set('while off 2');
  parameters[1]?.set('while off');

  slow.read(15);
  hub.drained(slow);
  t.is(hub.stats().lagging, 1, 'a buffer still over a quarter of the limit is not drained');
  slow.read();
  hub.drained(slow);
  t.is(hub.stats().lagging, 0);
  const afterSnapshot = slow.seen.slice(10);
  t.is(afterSnapshot.length, 20 + 2);
  t.deepEqual(afterSnapshot.slice(20), ['studio/p0=while off 2', 'studio/p1=while off'], 'the latest value of each, and nothing unchanged');
  parameters[2]?.set('live');
  endTurn();
  t.is(slow.seen.at(-1), 'studio/p2=live');
  t.deepEqual(slow.state(), current());
});

test('a ?resume client that lags is sent, once drained, exactly what it missed, trigger fires included, each with its seq (R-W3)', (t) => {
  const { define, connect, clock, hub, current, endTurn } = setup(t, { lagLimit: 2000 });
  const { parameters, burst } = bank(define);
  const cue = define('cue', 'T');
  const slow = connect({ resume: true });
  t.like(JSON.parse(slow.messages[0] as string), { seq: 0 });
  t.deepEqual(JSON.parse(slow.messages.at(-1) as string), { seq: 0 }, 'the snapshot ends with where it stands');
  slow.stall();
  burst('a');
  burst('b');
  clock.advanceBy(SCAN_MS);
  t.is(hub.stats().lagging, 1);
  parameters[0]?.set('while off 1');
  cue.set(true);
  parameters[0]?.set('while off 2');
  slow.read();
  hub.drained(slow);
  t.is(hub.stats().lagging, 0);
  t.deepEqual(slow.seen.slice(-3), ['studio/p0=while off 1', 'studio/cue=true', 'studio/p0=while off 2']);
  t.is(slow.seen.length, 10 + 20 + 3, 'nothing twice');
  const seqs = slow.messages.slice(12).map((m) => (JSON.parse(m) as { seq: number }).seq);
  t.deepEqual(
    seqs,
    Array.from({ length: 23 }, (_, i) => i + 1),
  );
  parameters[2]?.set('live');
  endTurn();
  t.is(slow.seen.at(-1), 'studio/p2=live');
  t.deepEqual(slow.state(), { ...current(), 'studio/cue': 'true' });
});

test('a lagging client that drains while nothing changes is resumed by the periodic check', (t) => {
  const { define, connect, clock, hub, current } = setup(t, { lagLimit: 2000 });
  const { parameters, burst } = bank(define);
  const slow = connect();
  slow.stall();
  burst('a');
  burst('b');
  clock.advanceBy(SCAN_MS);
  parameters[3]?.set('while off');
  clock.advanceBy(SCAN_MS * 4);
  t.is(hub.stats().lagging, 1, 'checked again and again while it stays full');
  slow.read();
  clock.advanceBy(SCAN_MS);
  t.is(hub.stats().lagging, 0);
  t.is(slow.seen.at(-1), 'studio/p3=while off');
  t.deepEqual(slow.state(), current());
});

test('a client found beyond the drop cap may have lost messages and gets a full snapshot on resume', (t) => {
  const { define, connect, clock, hub, current, endTurn } = setup(t, { lagLimit: 2000, dropLimit: 3000 });
  const steady = define('steady', 'S', 'unchanged');
  const { burst } = bank(define);
  const slow = connect();
  slow.stall();
  for (const tag of ['a', 'b', 'c', 'd']) burst(tag);
  endTurn();
  t.true(slow.dropped > 0, 'uWS dropped some of its messages');
  clock.advanceBy(SCAN_MS);
  t.is(hub.stats().lagging, 1);
  const readBefore = slow.seen.length;
  slow.read();
  hub.drained(slow);
  t.true(slow.seen.slice(readBefore).includes(`${steady.address}=unchanged`), 'even what never changed is sent again');
  t.deepEqual(slow.state(), current());
  burst('e');
  endTurn();
  t.deepEqual(slow.state(), current(), 'and it is back on the stream');
});

test('a parameter added while clients are connected streams to those whose filters match; a removed one is gone', (t) => {
  const { define, connect, graph, endTurn } = setup(t, { wsFilters: [/^studio\/(mic|late)\//] });
  const everything = connect();
  const mics = connect({ filters: [/\/mic\//] });
  const late = define('late/x', 'S', 'hello');
  define('mic/3', 'B', true);
  const outside = define('other', 'S', 'not streamed');
  endTurn();
  t.deepEqual(everything.seen, ['studio/late/x=hello', 'studio/mic/3=true']);
  t.deepEqual(mics.seen, ['studio/mic/3=true']);
  late.set('again');
  outside.set('still not streamed');
  endTurn();
  t.deepEqual(everything.seen.slice(2), ['studio/late/x=again']);

  graph.remove(late.address);
  late.set('after removal');
  endTurn();
  t.deepEqual(everything.seen.slice(3), [], 'a removed parameter streams nothing');
  t.deepEqual(connect().seen, ['studio/mic/3=true'], 'and is in no later snapshot');
});

test('a table defined while clients are connected streams its values to those whose filters match; removed, it is gone', (t) => {
  const { connect, graph, endTurn } = setup(t);
  const everything = connect();
  const bank = connect({ filters: [/^vars\/bank\//] });
  const rows = [
    { id: 'bank/a', type: 'I', access: 'read-write', initial: 1 },
    { id: 'bank/b', type: 'S', access: 'read-write' },
    { id: 'other', type: 'B', access: 'read-write', initial: true },
  ] as const;
  graph.defineTable('vars', { rows, ids: new TextIndex(rows.map((row) => row.id)) });
  endTurn();
  t.deepEqual(everything.seen, ['vars/bank/a=1', 'vars/other=true'], 'values known; an unknown one waits for its first change');
  t.deepEqual(bank.seen, ['vars/bank/a=1']);
  graph.write('vars/bank/b', 'later');
  endTurn();
  t.deepEqual(bank.seen.slice(1), ['vars/bank/b=later']);

  const kept = graph.get('vars/bank/a');
  graph.removeParameters('vars');
  kept?.set(5);
  endTurn();
  t.deepEqual(bank.seen.slice(2), [], 'a removed table streams nothing');
  t.deepEqual(connect().seen, [], 'and is in no later snapshot');
  t.deepEqual(connect({ filters: [/^vars\/bank\//] }).seen, [], 'not even to filters whose parameters were found before');
});

test('snapshots read a table without making its parameters, whatever filters they pass', async (t) => {
  const { connect, graph } = setup(t);
  const ids = Array.from({ length: 20_000 }, (_, i) => `bank/${i}`);
  graph.defineTable('vars', { rows: ids.map((id, i) => ({ id, type: 'I', access: 'read-write', initial: i })), ids: new TextIndex(ids) });
  const clients = [connect(), connect({ filters: [/./] }), connect({ filters: [/bank\/1\d$/] }), connect({ filters: [/./] })];
  for (let turn = 0; clients.some((c) => c.topics.size === 0) && turn < 10_000; turn++)
    await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(
    clients.map((c) => c.seen.length),
    [20_000, 20_000, 10, 20_000],
  );
  t.is(clients[2]?.seen[0], 'vars/bank/10=10');
  const made: string[] = [];
  graph.tables$.subscribe((change) => made.push(...[...change.parameters()].map((p) => p.address)));
  graph.removeParameters('vars');
  t.deepEqual(made, [], 'no parameter object was made for a snapshot or a filter');
});

test('a table defined while clients are connected sends its values without making its rows (issue 44 item 5)', (t) => {
  const { connect, graph, endTurn } = setup(t);
  const clients = [connect(), connect({ filters: [/bank\/1\d$/] }), connect({ maxHz: 10 }), connect({ resume: true })];
  endTurn();
  const ids = Array.from({ length: 20_000 }, (_, i) => `bank/${i}`);
  graph.defineTable('vars', { rows: ids.map((id, i) => ({ id, type: 'I', access: 'read-write', initial: i })), ids: new TextIndex(ids) });
  endTurn();
  t.deepEqual(
    clients.map((c) => c.seen.length),
    [20_000, 10, 20_000, 20_000],
  );
  t.is(clients[1]?.seen[0], 'vars/bank/10=10');
  // A row that changes later is made then, and streams as any.
  graph.write('vars/bank/3', 33);
  endTurn();
  t.is(clients[0]?.seen.at(-1), 'vars/bank/3=33');
  const made: string[] = [];
  graph.tables$.subscribe((change) => made.push(...[...change.parameters()].map((p) => p.address)));
  graph.removeParameters('vars');
  t.deepEqual(made, ['vars/bank/3'], 'the written row alone was made');
});

test('a row found for a filter and changed later is in later snapshots with its new value', (t) => {
  const { connect, graph } = setup(t);
  const ids = ['bank/a', 'bank/b', 'other'];
  graph.defineTable('vars', { rows: ids.map((id, i) => ({ id, type: 'I', access: 'read-write', initial: i })), ids: new TextIndex(ids) });
  t.deepEqual(connect({ filters: [/bank/] }).seen, ['vars/bank/a=0', 'vars/bank/b=1']);
  graph.write('vars/bank/b', 7);
  t.deepEqual(connect({ filters: [/bank/] }).seen, ['vars/bank/a=0', 'vars/bank/b=7']);
  graph.remove('vars/bank/a');
  t.deepEqual(connect({ filters: [/bank/] }).seen, ['vars/bank/b=7']);
});

test('clients with the same filters share one publish per change; a filter set goes with its last client', (t) => {
  const { define, connect, leave, published, endTurn } = setup(t);
  const count = define('count', 'I', 1);
  connect();
  connect();
  const counters = [connect({ filters: [/count/] }), connect({ filters: [/count/] })];
  connect({ filters: [/mic/] });
  published.length = 0;
  count.set(2);
  endTurn();
  t.is(published.length, 2, 'one publish for each filter set that matches, however many clients share it');
  for (const client of counters) leave(client);
  published.length = 0;
  count.set(3);
  endTurn();
  t.is(published.length, 1);
});

test('a turn of many changes (a batch of writes) reaches each client in one write of its own, in order; a few go through one publish each', (t) => {
  const { define, connect, published, endTurn } = setup(t);
  const parameters = Array.from({ length: 100 }, (_, i) => define(`p${i}`, 'I', 0));
  const clients = [connect(), connect(), connect()];
  for (const client of clients) client.writtenAt.length = 0;
  published.length = 0;
  // Changes come from inside uWS's handler of the writing client, where uWS holds its one
  // cork buffer: publishing there wrote each message to each client with a send of its own.
  for (const [i, parameter] of parameters.entries()) parameter.set(i + 1);
  t.is(published.length, 0, 'nothing goes out before the turn ends');
  endTurn();
  t.is(published.length, 0, 'not a publish per change');
  for (const client of clients) {
    t.is(client.writtenAt.length, 1, 'one corked write a client');
    t.deepEqual(
      client.seen.slice(100),
      parameters.map((p, i) => `${p.address}=${i + 1}`),
    );
  }
  parameters[0]?.set(-1);
  parameters[1]?.set(-2);
  endTurn();
  t.is(published.length, 2, 'a few changes: one publish each, for every client at once');
  t.deepEqual(clients[0]?.seen.slice(-2), ['studio/p0=-1', 'studio/p1=-2']);
});

test("a turn's changes reach many clients of one filter set a slice at a time, the next after the loop has read its I/O: what came meanwhile waits for one slice, not for every client; each client gets every change once, in order", (t) => {
  // The event loop by hand: each turn ends by running the work that was due at its end.
  let due: (() => void)[] = [];
  const turnEnds = () => {
    const now = due;
    due = [];
    for (const work of now) work();
  };
  const { define, connect } = setup(t, { afterTurn: (work) => void due.push(work) });
  const level = define('level', 'I', 0);
  const clients = Array.from({ length: 200 }, () => connect());
  turnEnds();
  const changes = (client: FakeSocket) => client.seen.filter((line) => line !== 'studio/level=0');
  const reached = () => clients.filter((client) => changes(client).length > 0).length;
  level.set(1);
  turnEnds();
  t.is(reached(), 64, 'the first slice when the turn ends');
  level.set(2);
  turnEnds();
  t.is(reached(), 128, 'the next after the loop read the next turn’s I/O');
  for (let turn = 0; turn < 10; turn++) turnEnds();
  for (const client of clients) t.deepEqual(changes(client), ['studio/level=1', 'studio/level=2']);
  t.is(due.length, 0, 'nothing left to do once every slice has its changes');

  // A client that joins while slices wait: the others are sent what waits first, and it has
  // the latest in its snapshot, once.
  level.set(3);
  turnEnds();
  const newcomer = connect();
  t.true(clients.every((client) => changes(client).at(-1) === 'studio/level=3'));
  t.deepEqual(newcomer.seen, ['studio/level=3']);
  level.set(4);
  for (let turn = 0; turn < 10; turn++) turnEnds();
  t.deepEqual(newcomer.seen, ['studio/level=3', 'studio/level=4']);
});

test('maxHz=10 with 100 parameters changing 100 times a second: the client is written at most 10 times a second, each parameter arrives at most 10 times, with its last value (R-W2)', (t) => {
  const { define, connect, clock, published, publishedAt, current } = setup(t);
  const parameters = Array.from({ length: 100 }, (_, i) => define(`p${i}`, 'I', 0));
  const limited = connect({ maxHz: 10 });
  const snapshot = limited.seen.length;
  published.length = 0;
  publishedAt.length = 0;
  limited.writtenAt.length = 0;
  // 10,000 changes a second, round robin, for one second of virtual time.
  for (let ms = 0; ms < 1000; ms++) {
    for (let k = 0; k < 10; k++) parameters[(ms * 10 + k) % 100]!.set(ms * 10 + k);
    clock.advanceBy(1);
  }
  clock.advanceBy(200);
  // Every write to the client's socket, published or its own, happens in one of these instants.
  const instants = new Set([...publishedAt, ...limited.writtenAt]);
  t.true(instants.size <= 11, `${instants.size} instants with sends in 1.2 s`);
  // A tick of 100 messages is one write of the client's own, not 100 publishes (which uWS
  // would write 32 at a time); the first tick, right after the quiet, has 10.
  t.true(
    published.length + limited.writtenAt.length <= 40,
    `${published.length} publishes and ${limited.writtenAt.length} writes of its own in 1.2 s`,
  );
  const arrivals = new Map<string, number>();
  for (const line of limited.seen.slice(snapshot)) {
    const address = line.split('=')[0]!;
    arrivals.set(address, (arrivals.get(address) ?? 0) + 1);
  }
  t.true(Math.max(...arrivals.values()) <= 11, 'each parameter at most about 10 times in 1.2 s');
  t.deepEqual(limited.state(), current(), 'every parameter at its last value');
});

test('clients of one filter set asking 20 different rates share the few topics of the rate ladder; 7 Hz is sent at 5 Hz (R-W2)', (t) => {
  const { define, connect, clock, published } = setup(t);
  const level = define('level', 'I', 0);
  // 3, 6, 9 … 60 a second: on the ladder 1, 2, 5, 10, 20, 50, that is 2, 5, 10, 20 and 50.
  const clients = Array.from({ length: 20 }, (_, i) => connect({ filters: [/level/], maxHz: 3 * (i + 1) }));
  published.length = 0;
  level.set(1);
  clock.advanceBy(1000);
  t.is(new Set(published).size, 5, 'one topic per rate of the ladder, not one per rate asked');
  t.true(clients.every((client) => client.state()['studio/level'] === '1'));

  const seven = connect({ filters: [/^studio\/level$/], maxHz: 7 });
  const before = seven.seen.length;
  // A change every 10 ms for two seconds.
  for (let ms = 1; ms <= 2000; ms++) {
    if (ms % 10 === 0) level.set(ms);
    clock.advanceBy(1);
  }
  clock.advanceBy(500);
  const arrived = seven.seen.length - before;
  t.true(arrived >= 9 && arrived <= 11, `${arrived} values in 2 s at 7 Hz asked: 5 a second`);
  t.is(seven.state()['studio/level'], '2000', 'the last value arrives');
});

test('stopping closes every client with 1001', (t) => {
  const { connect, hub } = setup(t);
  const clients = [connect(), connect({ filters: [/x/] })];
  hub.stop();
  t.deepEqual(
    clients.map((c) => c.closed),
    [
      [1001, 'hub stopping'],
      [1001, 'hub stopping'],
    ],
  );
});
