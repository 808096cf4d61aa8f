import type { Answered, OwnedParameter, Parameter, SetResult } from '../../core/parameter.ts';
import { type RunningFlow, within } from './running-flow.ts';

export type Guarded = (address: string, write: () => SetResult) => SetResult;

/**
 * A parameter as a flow sees it: what it delivers runs as the flow's code, and its writes
 * pass the loop guard.
 */
export class FlowParameter<P extends Parameter = Parameter> implements Parameter {
  constructor(
    protected readonly parameter: P,
    private readonly flow: RunningFlow,
    protected readonly guarded: Guarded,
    private readonly origin: string,
  ) {}

  get address(): string {
    return this.parameter.address;
  }
  get connectionId(): string {
    return this.parameter.connectionId;
  }
  get id(): string {
    return this.parameter.id;
  }
  get type(): Parameter['type'] {
    return this.parameter.type;
  }
  get access(): Parameter['access'] {
    return this.parameter.access;
  }
  get persist(): boolean {
    return this.parameter.persist;
  }
  get answersLater(): boolean {
    return this.parameter.answersLater;
  }

  get mirrored(): boolean {
    return this.parameter.mirrored;
  }
  get meta(): Parameter['meta'] {
    return this.parameter.meta;
  }
  get value(): Parameter['value'] {
    return this.parameter.value;
  }
  get lastChange(): Parameter['lastChange'] {
    return this.parameter.lastChange;
  }
  get values$(): Parameter['values$'] {
    return within(this.flow, this.parameter.values$);
  }
  get changes$(): Parameter['changes$'] {
    return within(this.flow, this.parameter.changes$);
  }
  set(raw: unknown, origin = this.origin, answered?: Answered): SetResult {
    return this.guarded(this.address, () => this.parameter.set(raw, origin, answered));
  }
}

/** A parameter the flow defined: it may also report values. */
export class OwnedFlowParameter extends FlowParameter<OwnedParameter> implements OwnedParameter {
  report(raw: unknown): SetResult {
    return this.guarded(this.address, () => this.parameter.report(raw));
  }
  describe(meta: Parameter['meta']): void {
    this.parameter.describe(meta);
  }
}
