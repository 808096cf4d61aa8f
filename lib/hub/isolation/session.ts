/**
 * The connection's side of the wall in its own process (R-PK4): its context, a graph of its
 * own parameters whose every definition and change goes to the hub, and what the hub asks of
 * it (child.ts is the process; outbox.ts what it sends).
 */
import { Writable } from 'node:stream';
import { HubError } from '../../core/errors.ts';
import { Graph } from '../../core/graph.ts';
import type { Fence } from '../../core/lease.ts';
import { createLogger } from '../../core/log.ts';
import { Moment } from '../../core/moment.ts';
import type { OwnedParameter, ParameterSpec } from '../../core/parameter.ts';
import { realTime } from '../../core/scheduler.ts';
import type { Json, Value } from '../../core/value.ts';
import type { ConnectionContext } from '../../sdk/context.ts';
import type { PayloadOf } from '../../sdk/process/channel.ts';
import type { FenceState, HubToChild, StartPayload } from './messages.ts';
import type { HubEnd, Outbox } from './outbox.ts';

/** The connection's side of the wall: its context, its own graph, and what the hub asks of it. */
export class Session {
  readonly context: ConnectionContext;
  private readonly graph = new Graph();
  private readonly stored: Map<string, Value>;
  private readonly records: Map<string, Json>;
  /** The hub runs (its `running` message came): see `ConnectionContext.whenRunning`. */
  private readonly running = new Moment();
  private fence: FenceState;

  constructor(
    private readonly start: StartPayload,
    private readonly hub: HubEnd,
    outbox: Outbox,
  ) {
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
      whenRunning: (work) => this.running.when(work),
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
    this.hub.tell('define', {
      id: parameterId,
      spec: { type: spec.type, access: spec.access, persist: spec.persist === true, value: defined.value.value, meta: defined.value.meta },
    });
    return defined.value;
  }

  /** The hub runs: what waited for it runs now (`whenRunning`). */
  runs(): void {
    this.running.arrive();
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
