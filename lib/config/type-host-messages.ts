/**
 * What the hub and the thread that loads a package's types (type-host-worker.ts) say to each
 * other. What comes back is the package's: the hub checks each answer against its schema
 * here before it uses any of it.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { declaredStatuses } from '../core/errors.ts';
import { valueTypes } from '../core/value.ts';

/** What the hub asks: a type described (answered when ready), or a connection's settings checked (answered at once). */
export type HostRequest = { readonly t: 'describe'; readonly n: number; readonly module: string; readonly type: string } | CheckRequest;

export type CheckRequest =
  | { readonly t: 'prepare'; readonly n: number; readonly type: string; readonly settings: unknown; readonly connection: Where }
  | {
      readonly t: 'declared';
      readonly n: number;
      readonly type: string;
      readonly settings: unknown;
      readonly connection: Where;
      readonly id: string;
    };

interface Where {
  readonly id: string;
  readonly baseDir: string;
}

const text = Type.String({ maxLength: 100_000 });
const path = Type.Array(Type.Union([Type.String({ maxLength: 10_000 }), Type.Number()]), { maxItems: 1000 });
const issues = Type.Array(Type.Object({ path, message: text }), { maxItems: 100_000 });
const valueType = Type.Union(valueTypes.map((kind) => Type.Literal(kind)));

const Description = Type.Object({
  type: Type.String({ maxLength: 64 }),
  summary: text,
  settings: Type.Unknown(),
  metrics: Type.Array(
    Type.Object({
      name: Type.String({ maxLength: 200 }),
      help: text,
      kind: Type.Union([Type.Literal('gauge'), Type.Literal('counter')]),
      labelNames: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 32 }),
    }),
    { maxItems: 1000 },
  ),
  declares: Type.Boolean(),
  parameters: Type.Array(
    Type.Object({
      id: Type.String({ minLength: 1, maxLength: 400 }),
      type: valueType,
      access: Type.Union([Type.Literal('read-only'), Type.Literal('write-only'), Type.Literal('read-write')]),
      description: Type.String({ maxLength: 2000 }),
      unit: Type.Optional(Type.String({ maxLength: 32 })),
    }),
    { maxItems: 1000 },
  ),
  errors: Type.Record(
    Type.String({ maxLength: 64 }),
    Type.Object({
      status: Type.Union(declaredStatuses.map((status) => Type.Literal(status))),
      text: Type.String({ minLength: 1, maxLength: 2000 }),
    }),
    { maxProperties: 1000 },
  ),
});
export type TypeDescription = Static<typeof Description>;

const Described = Type.Union([
  Type.Object({ t: Type.Literal('described'), n: Type.Number(), ok: Type.Literal(true), description: Description }),
  Type.Object({ t: Type.Literal('described'), n: Type.Number(), ok: Type.Literal(false), reason: text }),
]);
export type DescribedAnswer = Static<typeof Described>;

const CheckedAnswer = Type.Union([
  Type.Object({
    ok: Type.Literal(true),
    links: Type.Array(Type.Object({ output: text, inputs: Type.Array(text, { maxItems: 100_000 }), path }), { maxItems: 100_000 }),
    claims: Type.Array(Type.Object({ what: text, on: text, path }), { maxItems: 10_000 }),
    writes: Type.Optional(Type.Array(Type.Object({ address: text, path }), { maxItems: 10_000 })),
    pathsAsWritten: Type.Array(text, { maxItems: 10_000 }),
    discovers: Type.Object({ parameters: Type.Boolean(), connections: Type.Boolean() }),
    diagnostics: issues,
    warnings: issues,
    settings: Type.Optional(
      Type.Record(Type.String({ maxLength: 256 }), Type.Object({}, { additionalProperties: true }), { maxProperties: 1000 }),
    ),
  }),
  Type.Object({
    ok: Type.Literal(true),
    declared: Type.Union([Type.Undefined(), Type.Object({ type: valueType, persist: Type.Boolean() })]),
  }),
  Type.Object({ ok: Type.Literal(false), issues }),
  Type.Object({ ok: Type.Literal(false), failure: text }),
]);
export type Checked = Static<typeof CheckedAnswer>;

/** A `described` answer, or undefined for anything else. */
export const describedOf = (message: unknown): DescribedAnswer | undefined => (Value.Check(Described, message) ? message : undefined);

/** A checked answer of request `n`, or why it is none. */
export function checkedOf(message: unknown, n: number): Checked | string {
  const { n: answered, answer } = (typeof message === 'object' && message !== null ? message : {}) as { n?: unknown; answer?: unknown };
  if (answered !== n) return `it answered request ${String(answered)} when asked ${n}`;
  return Value.Check(CheckedAnswer, answer) ? answer : 'its answer is not of the shape the hub expects';
}
