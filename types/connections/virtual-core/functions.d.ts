import { type Observable } from 'rxjs';
import { type GraphView, type Value } from '../../sdk/index.ts';
import type { Scheduler } from '../../sdk/index.ts';
/** The logic functions of R-V2. */
export declare const logicOps: readonly ["and", "or", "xor", "nand", "nor", "not", "flipflop", "latch", "delay-on", "delay-off", "pulse"];
export type LogicOp = (typeof logicOps)[number];
/** How many inputs each function takes: exactly `n`, or at least 1 when `undefined`. */
export declare const inputCounts: Readonly<Record<LogicOp, number | undefined>>;
/** The functions that take a time in `ms`. */
export declare const timedOps: readonly LogicOp[];
/** A value as a logic input: true, 1, on, yes… are true; unknown and unconvertible are false. */
export declare function asBoolean(value: Value | undefined): boolean;
/**
 * Any parameter of the hub as a logic level, present or not yet: its current level, then
 * every change. A trigger is a momentary input: each fire is true, then false at once.
 */
export declare function levelOf(graph: GraphView, address: string): Observable<boolean>;
/**
 * The output of one logic function over its input levels. Every stream emits its level at
 * subscription (computed from the inputs as they are then) and afterwards only changes.
 */
export declare function logicFunction(op: LogicOp, inputs: readonly Observable<boolean>[], ms: number, scheduler: Scheduler): Observable<boolean>;
