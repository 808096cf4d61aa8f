import type { Answered, OwnedParameter, Parameter, SetResult } from '../../core/parameter.ts';
import { type RunningFlow } from './running-flow.ts';
export type Guarded = (address: string, write: () => SetResult) => SetResult;
/**
 * A parameter as a flow sees it: what it delivers runs as the flow's code, and its writes
 * pass the loop guard.
 */
export declare class FlowParameter<P extends Parameter = Parameter> implements Parameter {
    protected readonly parameter: P;
    private readonly flow;
    protected readonly guarded: Guarded;
    private readonly origin;
    constructor(parameter: P, flow: RunningFlow, guarded: Guarded, origin: string);
    get address(): string;
    get connectionId(): string;
    get id(): string;
    get type(): Parameter['type'];
    get access(): Parameter['access'];
    get persist(): boolean;
    get answersLater(): boolean;
    get remote(): boolean;
    get mirrored(): boolean;
    get value(): Parameter['value'];
    get lastChange(): Parameter['lastChange'];
    get values$(): Parameter['values$'];
    get changes$(): Parameter['changes$'];
    set(raw: unknown, origin?: string, answered?: Answered): SetResult;
}
/** A parameter the flow defined: it may also report values. */
export declare class OwnedFlowParameter extends FlowParameter<OwnedParameter> implements OwnedParameter {
    report(raw: unknown): SetResult;
}
