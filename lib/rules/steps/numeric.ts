import { filter, map, type OperatorFunction } from 'rxjs';
import { convert } from '../../core/value.ts';
import type { Signal } from '../signal.ts';

/** Applies `f` to values that are numbers (R-C to float); other values are dropped. */
export function numeric(f: (n: number) => number): OperatorFunction<Signal, Signal> {
  return (source) =>
    source.pipe(
      map((signal) => ({ signal, n: signal.value === null ? undefined : convert(signal.value, 'F') })),
      filter(({ n }) => n?.ok === true),
      map(({ signal, n }) => ({ ...signal, value: f((n as { value: number }).value) })),
    );
}
