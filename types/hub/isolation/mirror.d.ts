import type { ParameterSpec } from '../../core/parameter.ts';
import type { Value } from '../../core/value.ts';
import type { IsolationHooks } from '../../connections/runner.ts';
import type { DefinedSpec } from './messages.ts';
/** The most parameters one process may define. */
export declare const MOST_PARAMETERS = 200000;
export declare class Mirror {
    private readonly connectionId;
    private readonly context;
    /** The hub's spec of one of the process's parameters. */
    private readonly specOf;
    /** Its parameters in the hub, by id. */
    private readonly parameters;
    private tableDefined;
    /** Parameters the current process defined; the others go once it has started. */
    private definedNow;
    constructor(connectionId: string, context: IsolationHooks['context'], 
    /** The hub's spec of one of the process's parameters. */
    specOf: (parameterId: string, spec: DefinedSpec) => ParameterSpec);
    /** A new process starts: what it does not define again goes once it has started. */
    newProcess(): void;
    define(parameterId: string, spec: DefinedSpec): void;
    defineTable(rows: readonly (DefinedSpec & {
        readonly id: string;
    })[]): void;
    remove(parameterId: string): void;
    report(parameterId: string, value: Value, by: string | undefined): void;
    /** The values a new process starts from: those of its kept parameters, as a restart of the hub would give them. */
    kept(): (readonly [string, Value])[];
    /** The process has started: the parameters it no longer defines go. */
    removeUndefined(): void;
    private mayDefine;
}
