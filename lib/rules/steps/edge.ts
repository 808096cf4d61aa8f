import { Type } from '@sinclair/typebox';
import { filter, map, scan } from 'rxjs';
import { convert } from '../../core/value.ts';
import { defineStep, type Signal } from '../signal.ts';

/**
 * `{ edge: "rising" | "falling" }`: passes only false→true (or true→false) transitions of
 * the value as a boolean. The state before the first value is unknown, so a first true is
 * a rising edge and a first false a falling one. Non-booleans are ignored.
 */
export const edgeStep = defineStep<'rising' | 'falling'>({
  name: 'edge',
  summary: 'passes only false→true ("rising") or true→false ("falling") transitions',
  schema: Type.Unsafe<'rising' | 'falling'>({ type: 'string', enum: ['rising', 'falling'] }),
  operator: (direction) => (source) =>
    source.pipe(
      map((signal) => {
        const level = signal.value === null ? undefined : convert(signal.value, 'B');
        return { signal, level: level?.ok ? (level.value as boolean) : undefined };
      }),
      filter((seen): seen is { signal: Signal; level: boolean } => seen.level !== undefined),
      scan<{ signal: Signal; level: boolean }, { signal: Signal; level: boolean; edge: boolean }>(
        (previous, now) => ({ ...now, edge: previous.level !== now.level }),
        { signal: undefined as unknown as Signal, level: undefined as unknown as boolean, edge: false },
      ),
      filter(({ edge, level }) => edge && level === (direction === 'rising')),
      map(({ signal }) => signal),
    ),
});
