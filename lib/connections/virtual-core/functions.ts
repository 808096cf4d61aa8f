import {
  combineLatest,
  concatMap,
  distinctUntilChanged,
  filter,
  map,
  merge,
  type Observable,
  of,
  pairwise,
  scan,
  startWith,
  switchMap,
  timer,
} from 'rxjs';
import { type GraphView, convert, type Value } from '../../sdk/index.ts';
import type { Scheduler } from '../../sdk/index.ts';

/** The logic functions of R-V2. */
export const logicOps = ['and', 'or', 'xor', 'nand', 'nor', 'not', 'flipflop', 'latch', 'delay-on', 'delay-off', 'pulse'] as const;
export type LogicOp = (typeof logicOps)[number];

/** How many inputs each function takes: exactly `n`, or at least 1 when `undefined`. */
export const inputCounts: Readonly<Record<LogicOp, number | undefined>> = {
  and: undefined,
  or: undefined,
  xor: undefined,
  nand: undefined,
  nor: undefined,
  flipflop: undefined,
  not: 1,
  latch: 2,
  'delay-on': 1,
  'delay-off': 1,
  pulse: 1,
};

/** The functions that take a time in `ms`. */
export const timedOps: readonly LogicOp[] = ['delay-on', 'delay-off', 'pulse'];

/** A value as a logic input: true, 1, on, yes… are true; unknown and unconvertible are false. */
export function asBoolean(value: Value | undefined): boolean {
  if (value === undefined) return false;
  const converted = convert(value, 'B');
  return converted.ok && converted.value === true;
}

/**
 * Any parameter of the hub as a logic level, present or not yet: its current level, then
 * every change. A trigger is a momentary input: each fire is true, then false at once.
 */
export function levelOf(graph: GraphView, address: string): Observable<boolean> {
  return graph
    .watch(address)
    .pipe(concatMap((value) => (value !== undefined && graph.get(address)?.type === 'T' ? of(true, false) : of(asBoolean(value)))));
}

const rising = (level$: Observable<boolean>) =>
  level$.pipe(
    pairwise(),
    filter(([before, now]) => !before && now),
  );

/** true for `ms`, then false; the start of a timed output. */
const holdTrue = (ms: number, scheduler: Scheduler) =>
  timer(ms, scheduler).pipe(
    map(() => false),
    startWith(true),
  );

/**
 * The output of one logic function over its input levels. Every stream emits its level at
 * subscription (computed from the inputs as they are then) and afterwards only changes.
 */
export function logicFunction(op: LogicOp, inputs: readonly Observable<boolean>[], ms: number, scheduler: Scheduler): Observable<boolean> {
  const all = () => combineLatest(inputs);
  const [first = of(false), second = of(false)] = inputs;
  let output: Observable<boolean>;
  switch (op) {
    case 'and':
      output = all().pipe(map((levels) => levels.every(Boolean)));
      break;
    case 'or':
      output = all().pipe(map((levels) => levels.some(Boolean)));
      break;
    case 'xor':
      output = all().pipe(map((levels) => levels.filter(Boolean).length % 2 === 1));
      break;
    case 'nand':
      output = all().pipe(map((levels) => !levels.every(Boolean)));
      break;
    case 'nor':
      output = all().pipe(map((levels) => !levels.some(Boolean)));
      break;
    case 'not':
      output = first.pipe(map((level) => !level));
      break;
    case 'flipflop':
      output = merge(...inputs.map(rising)).pipe(
        scan((state) => !state, false),
        startWith(false),
      );
      break;
    case 'latch':
      // Set and reset are levels; reset wins while both are true.
      output = combineLatest([first, second]).pipe(scan((state, [set, reset]) => (reset ? false : set ? true : state), false));
      break;
    case 'delay-on':
      output = first.pipe(
        distinctUntilChanged(),
        switchMap((level) =>
          level
            ? timer(ms, scheduler).pipe(
                map(() => true),
                startWith(false),
              )
            : of(false),
        ),
      );
      break;
    case 'delay-off':
      output = first.pipe(
        distinctUntilChanged(),
        switchMap((level, index) => (level ? of(true) : index === 0 ? of(false) : holdTrue(ms, scheduler))),
      );
      break;
    case 'pulse':
      output = rising(first).pipe(
        switchMap(() => holdTrue(ms, scheduler)),
        startWith(false),
      );
      break;
  }
  return output.pipe(distinctUntilChanged());
}
