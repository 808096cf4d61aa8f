import type { OperatorFunction } from 'rxjs';
import { convert } from '../../core/value.ts';
import { type Signal, transform } from '../signal.ts';

/** Applies `f` to values that are numbers (R-C to float); other values are dropped. */
export function numeric(f: (n: number) => number): OperatorFunction<Signal, Signal> {
  return transform(() => (signal) => {
    if (signal.value === null) return undefined;
    const n = convert(signal.value, 'F');
    return n.ok ? { ...signal, value: f(n.value as number) } : undefined;
  });
}
