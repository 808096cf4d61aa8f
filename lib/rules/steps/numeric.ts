import { convert } from '../../core/value.ts';
import type { SignalFunction } from '../signal.ts';

/** Applies `f` to values that are numbers (R-C to float); other values are dropped. */
export function numeric(f: (n: number) => number): SignalFunction {
  return (signal) => {
    const { value } = signal;
    // Numbers are what comes most often, and need no conversion (parameters hold finite ones).
    if (typeof value === 'number') return { ...signal, value: f(value) };
    if (value === null) return undefined;
    const n = convert(value, 'F');
    return n.ok ? { ...signal, value: f(n.value as number) } : undefined;
  };
}
