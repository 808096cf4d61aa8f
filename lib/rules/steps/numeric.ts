import { convert } from '../../core/value.ts';
import type { SignalFunction } from '../signal.ts';

/** Applies `f` to values that are numbers (R-C to float); other values are dropped. */
export function numeric(f: (n: number) => number): SignalFunction {
  return (signal) => {
    if (signal.value === null) return undefined;
    const n = convert(signal.value, 'F');
    return n.ok ? { ...signal, value: f(n.value as number) } : undefined;
  };
}
