/**
 * A connection in a process of its own (R-PK4): the entry point the hub forks. It loads the
 * type, runs one instance of it against a graph of its own parameters, and tells the hub
 * every definition and change; the hub's writes come back here. It ends when the hub asks,
 * and by itself when the hub is gone (its IPC channel closes), so no process outlives its hub.
 */
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { withSamples } from '../../config/package-type.ts';
import { HubError, reasonOf } from '../../core/errors.ts';
import { Graph } from '../../core/graph.ts';
import type { Fence } from '../../core/lease.ts';
import { createLogger } from '../../core/log.ts';
import type { OwnedParameter, ParameterSpec } from '../../core/parameter.ts';
import { realTime } from '../../core/scheduler.ts';
import type { Json, Value } from '../../core/value.ts';
import type { ConnectionContext } from '../../sdk/context.ts';
import { fillDefaults, type Parsed } from '../../sdk/settings.ts';
import type { DefinedConnectionType, TypedInstance } from '../../sdk/type.ts';
import { Channel, ownCodec, type PayloadOf } from '../../sdk/process/channel.ts';
import type { Change, ChildToHub, FenceState, HubToChild, StartPayload, WireError } from './messages.ts';

/** `values` messages the hub may have untaken; past them changes wait, conflated. */
const MOST_UNTAKEN = 2;
/** The most changes one message carries. */
const BATCH = 1000;
/** Fires of triggers that may wait; past it later fires are dropped, and the log says so. */
const MOST_WAITING_FIRES = 100_000;

/**
 * What goes to the hub, in order and in bounded memory. The changes of a turn go as one
 * message (a message a change cost the hub more than the change), and the hub says when it
 * has taken each: a device may report faster than the hub can take (in its own process it
 * would be read no faster than that). While two messages of changes are untaken, each
 * parameter's changes wait as its latest value (R-W's rule for a slow client: every final
 * value, in order per parameter), a trigger's fires wait each, and any other message (an
 * answer, a status) first sends everything that waits, so that it overtakes nothing.
 */
class Outbox {
  private untaken = 0;
  /** This turn's changes, as they came. */
  private batch: Change[] = [];
  private flushing = false;
  /** While the hub is behind: by parameter id, or by fire for a trigger; in the order they first came. */
  private readonly waiting = new Map<string, Change>();
  private fires = 0;
  private dropped = 0;

  value(change: Change, trigger: boolean): void {
    if (this.untaken < MOST_UNTAKEN && this.waiting.size === 0) {
      this.batch.push(change);
      if (this.batch.length >= BATCH) this.sendBatch();
      else if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => {
          this.flushing = false;
          this.sendBatch();
        });
      }
      return;
    }
    const [id] = change;
    if (!trigger) {
      this.waiting.delete(id);
      this.waiting.set(id, change);
      return;
    }
    if (this.fires >= MOST_WAITING_FIRES) {
      this.dropped += 1;
      return;
    }
    this.fires += 1;
    this.waiting.set(`${id}\u0000${this.fires}`, change);
  }

  /** The hub took a message of changes: what waits may go. */
  taken(): void {
    this.untaken = Math.max(0, this.untaken - 1);
    if (this.untaken < MOST_UNTAKEN) {
      this.sendBatch();
      this.sendWaiting();
    }
  }

  /** Sends what waits: this turn's changes, then those that waited while the hub was behind. */
  flush(): void {
    this.sendBatch();
    this.sendWaiting();
  }

  private sendBatch(): void {
    if (this.batch.length === 0) return;
    const changes = this.batch;
    this.batch = [];
    this.sendValues(changes);
  }

  private sendWaiting(): void {
    // Taken out before they go: sending flushes (the channel's `send`), which must find nothing.
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    this.fires = 0;
    if (waiting.length > 0) this.sendValues(waiting);
    if (this.dropped > 0) {
      const dropped = this.dropped;
      this.dropped = 0;
      hub.tell('log', {
        line: JSON.stringify({ level: 40, msg: `${dropped} trigger fires dropped: the hub took them slower than they came` }),
      });
    }
  }

  /** Changes, answered once the hub has taken them. */
  private sendValues(changes: readonly Change[]): void {
    this.untaken += 1;
    hub.call('values', { changes }).then(
      () => this.taken(),
      () => {},
    );
  }
}

const outbox = new Outbox();

/** Ends the process once the hub has been told why (or after a second, if it cannot be). */
function crash(reason: string, error: unknown): void {
  // The real clock: the child's own last resort, with no hub (nor its scheduler) in this process.
  setTimeout(() => process.exit(1), 1000).unref();
  outbox.flush();
  // Sent on Node's own channel, whose callback says when it is out: the channel's form, by hand.
  const told = ownCodec.encode({
    kind: 'call',
    name: 'crash',
    id: undefined,
    payload: { reason, stack: error instanceof Error ? error.stack : undefined },
  });
  process.send?.(told, undefined, undefined, () => process.exit(1));
}
process.on('uncaughtException', (error) => crash(`it threw: ${reasonOf(error)}`, error));
process.on('unhandledRejection', (error) => crash(`a promise it made was rejected and nobody handled it: ${reasonOf(error)}`, error));
/** An error as it crosses to the hub: the hub's own, or PB_START_FAILED with its reason. */
const asWired = (error: unknown): HubError => (error instanceof HubError ? error : new HubError('PB_START_FAILED', reasonOf(error)));
const wire = (error: unknown): WireError => {
  const failure = asWired(error);
  return { code: failure.code, message: failure.message, ...(failure.declared === undefined ? {} : { declared: failure.declared }) };
};

// The hub is gone (stopped, killed, crashed): so is this process.
process.on('disconnect', () => process.exit(0));

let instance: TypedInstance<unknown> | undefined;
let session: Session | undefined;
let running: { readonly definition: DefinedConnectionType<never, unknown>; readonly start: StartPayload } | undefined;

/** The hub's end of the wire: what it asks, handled here; what this process tells it goes through the outbox, in order. */
const hub: Channel<ChildToHub, HubToChild> = new Channel<ChildToHub, HubToChild>({
  // Whatever goes — a message, an answer — goes after the changes that wait, so it overtakes none.
  send: (message) => {
    outbox.flush();
    process.send?.(message);
  },
  scheduler: realTime,
  called: 'the hub',
  handlers: {
    start: (payload) => void start(payload),
    ping: () => safeDetails() ?? null,
    stop: ({ reason }) => void stop(reason),
    update: ({ settings }) => update(settings),
    write: (payload) => {
      if (!session) throw new HubError('PB_DEVICE_UNAVAILABLE', 'its connection has not started');
      return session.write(payload);
    },
    running: () => session?.runs(),
    fence: (fence) => session?.fenced(fence),
  },
});
process.on('message', (message) => hub.received(message));

/** Its details as JSON, which is all the hub takes, with its metrics' samples, which the hub cannot make (package-type.ts). */
function safeDetails(): Readonly<Record<string, unknown>> | undefined {
  try {
    const details = instance?.details?.();
    const sampled = running ? withSamples(running.definition, details) : details;
    return sampled === undefined ? undefined : (JSON.parse(JSON.stringify(sampled)) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

/** Settings parsed by the type, as the hub parsed them before it sent them. */
function parsedBy(
  definition: DefinedConnectionType<never, unknown>,
  { id, baseDir }: StartPayload,
  settings: Readonly<Record<string, unknown>>,
): unknown {
  const parsed = definition.parse(fillDefaults(definition.settings, settings) as Parsed<typeof definition.settings>, { id, baseDir });
  if (parsed.ok) return parsed.value;
  const first = parsed.issues[0];
  throw new HubError('PB_START_FAILED', `its settings were refused in its own process: ${first ? first.message : 'no reason given'}`);
}

async function start(message: StartPayload): Promise<void> {
  try {
    const definition = await definitionOf(message);
    const settings = parsedBy(definition, message, message.settings);
    running = { definition, start: message };
    session = new Session(message);
    instance = definition.create(session.context, settings);
    await instance.start();
    hub.tell('started', null);
  } catch (error) {
    hub.tell('failed', wire(error));
  }
}

/** New settings for a running instance: taken in place when its type can (`update`), else the hub restarts it. */
async function update(settings: Readonly<Record<string, unknown>>): Promise<boolean> {
  try {
    return running && instance?.update ? await instance.update(parsedBy(running.definition, running.start, settings)) : false;
  } catch (error) {
    throw asWired(error);
  }
}

async function stop(reason: 'stop' | 'restart'): Promise<void> {
  try {
    await instance?.stop(reason);
  } catch (error) {
    hub.tell('log', { line: JSON.stringify({ level: 50, msg: `stop failed: ${reasonOf(error)}` }) });
  }
  instance = undefined;
  hub.tell('stopped', null);
  process.disconnect?.();
}

async function definitionOf({ module, type }: StartPayload): Promise<DefinedConnectionType<never, unknown>> {
  // The list of built-in types loads every one of them and their native modules: only a
  // built-in type run in a process of its own needs it.
  const definition =
    module === undefined
      ? (await import('../../config/connection-types.ts')).builtInDefinition(type)
      : ((await import(pathToFileURL(module).href)) as { default?: DefinedConnectionType<never, unknown> }).default;
  if (!definition || definition.type !== type)
    throw new HubError('PB_PLUGIN_LOAD', `the module ${module ?? '(built in)'} does not export the type "${type}"`);
  return definition as DefinedConnectionType<never, unknown>;
}

/** The connection's side of the wall: its context, its own graph, and what the hub asks of it. */
class Session {
  readonly context: ConnectionContext;
  private readonly graph = new Graph();
  private readonly stored: Map<string, Value>;
  private readonly records: Map<string, Json>;
  /** Whether the hub runs (its `running` message came): see `ConnectionContext.whenRunning`. */
  private running = false;
  private untilRunning: (() => void)[] = [];
  private fence: FenceState;

  constructor(private readonly start: StartPayload) {
    const { id, baseDir, filesFolder, values, records, debug } = start;
    this.stored = new Map(values);
    this.records = new Map(records);
    this.fence = start.fence;
    this.graph.registerConnection(id);
    // Every change of its parameters goes to the hub, with who made it (R-PK5).
    this.graph.hooks.onDelivery((parameter, value) => {
      const by = parameter.lastChange?.by;
      outbox.value([parameter.id, value, by === 'connection' ? undefined : by], parameter.type === 'T');
    });
    // What a parameter says anew of itself (R-PK6) too; sent at once, as its definition was.
    this.graph.hooks.onDescribed((parameter) => hub.tell('describe', { id: parameter.id, meta: parameter.meta }));
    const lines = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) hub.tell('log', { line });
        done();
      },
    });
    const session = this;
    const fence: Fence = {
      holds: () => session.fence.holds,
      get epoch() {
        return session.fence.epoch;
      },
      refusal: () => new HubError('PB_NOT_ACTIVE', session.fence.refusal),
    };
    // The parts in trouble, so that a part that works (a key text on every change) sends nothing.
    const troubled = new Set<string>();
    this.context = {
      id,
      baseDir,
      ...(filesFolder === undefined ? {} : { filesFolder }),
      scheduler: realTime,
      log: createLogger({ level: debug ? 'debug' : 'info', format: 'json', destination: lines }),
      fence,
      graph: unavailableGraph(),
      define: (parameterId, spec) => this.define(parameterId, spec),
      defineTable: (table) => {
        const defined = this.graph.defineTable(id, table, (row) => this.seeded(row.id, row));
        if (!defined.ok) throw defined.error;
        hub.tell('table', {
          rows: table.rows.map((row) => ({
            id: row.id,
            type: row.type,
            access: row.access,
            persist: row.persist === true,
            value: this.stored.get(row.id) ?? row.initial,
            meta: row.meta,
          })),
        });
      },
      remove: (parameterId) => {
        this.graph.remove(`${id}/${parameterId}`);
        hub.tell('remove', { id: parameterId });
      },
      records: {
        get: (key) => this.records.get(key),
        set: (key, value) => {
          if (value === undefined) this.records.delete(key);
          else this.records.set(key, value);
          hub.tell('record', { key, value });
        },
      },
      whenRunning: (work) => {
        if (this.running) work();
        else this.untilRunning.push(work);
      },
      settled: (done) => {
        hub.call('settle', null).then(done, () => {});
      },
      problem: (part, problem) => {
        if (problem === undefined && !troubled.delete(part)) return;
        if (problem) troubled.add(part);
        hub.tell('problem', problem ? { part, code: problem.code, message: problem.message } : { part });
      },
      setStatus: (status: 'ok' | 'connecting' | 'disabled' | 'degraded' | 'failed', reason = '', code?: HubError['code']) =>
        hub.tell('status', { status, reason, code }),
    };
  }

  /** A parameter as the type defines it, from the hub's last value when there is one. */
  private seeded(parameterId: string, spec: ParameterSpec): ParameterSpec {
    const last = this.stored.get(parameterId);
    return last === undefined || spec.type === 'T' ? spec : { ...spec, initial: last, initialBy: 'restore' };
  }

  private define(parameterId: string, spec: ParameterSpec): OwnedParameter {
    const defined = this.graph.define(this.start.id, parameterId, this.seeded(parameterId, spec));
    if (!defined.ok) throw defined.error;
    hub.tell('define', {
      id: parameterId,
      spec: { type: spec.type, access: spec.access, persist: spec.persist === true, value: defined.value.value, meta: defined.value.meta },
    });
    return defined.value;
  }

  /** The hub runs: what waited for it runs now (`whenRunning`). */
  runs(): void {
    this.running = true;
    for (const work of this.untilRunning.splice(0)) work();
  }

  /** Whether the hub may drive devices now, as it last said. */
  fenced(fence: FenceState): void {
    this.fence = fence;
  }

  /** A write the hub took for one of its parameters: as a write of it here, answered when it is. */
  write({ id, value, origin }: PayloadOf<HubToChild, 'write'>): boolean | Promise<boolean> {
    const parameter = this.graph.get(`${this.start.id}/${id}`);
    if (!parameter) throw new HubError('PB_UNKNOWN_PARAMETER', `no parameter ${this.start.id}/${id}`);
    // A parameter whose writes go on (to a device) answers later, with the device's answer.
    if (!parameter.answersLater) {
      const result = parameter.set(value, origin);
      if (!result.ok) throw result.error;
      return result.value;
    }
    return new Promise((resolve, reject) => {
      const result = parameter.set(value, origin, (answer) => (answer.ok ? resolve(answer.value) : reject(answer.error)));
      if (!result.ok) reject(result.error);
    });
  }
}

/** What a type in a process of its own gets for `graph`: the hub's parameters are not in this process. */
function unavailableGraph(): ConnectionContext['graph'] {
  return new Proxy({} as ConnectionContext['graph'], {
    get() {
      throw new HubError(
        'PB_START_FAILED',
        'this type reads other connections\' parameters (context.graph), which a process of its own cannot: run it with isolate: "none"',
      );
    },
  });
}
