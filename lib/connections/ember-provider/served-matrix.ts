/**
 * A matrix an ember-provider serves (issue 46): declared in the flow file, held in hub
 * parameters so that rules, flows and devices follow and switch it, and shown to Ember+
 * consumers as a linear matrix whose connects are hub writes. The parameters are those an
 * ember-consumer shows of a matrix, under `<connection>/<id>`:
 *
 *   <id>/targets/<t>/source    I   oneToN and oneToOne: the source on target t, -1 for none
 *   <id>/targets/<t>/sources   S   nToN: the sources on target t, ascending, comma-separated
 *
 * Targets and sources are numbered from 0 (Ember+'s linear addressing). A oneToOne source
 * connected to one target leaves the target it was on.
 */
import { Type } from '@sinclair/typebox';
import { type ConnectionContext, fail, ok, type OwnedParameter, type Result, withDefault, convert, type Value } from '../../sdk/index.ts';
import { type EmberConnection, type EmberElement, MatrixType, matrixContents } from '../../protocols/ember-plus.ts';

/** At most this many targets, and as many sources, in one declared matrix: 4,096 is past the largest routers' levels. */
export const MAX_SIGNALS = 4096;

export const matrixDeclaration = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      description: 'Where its parameters are under the connection (`video`, `router/audio`), and where it is in the Ember+ tree.',
    }),
    targets: Type.Integer({ minimum: 1, maximum: MAX_SIGNALS, description: 'How many targets (outputs), numbered from 0.' }),
    sources: Type.Integer({ minimum: 1, maximum: MAX_SIGNALS, description: 'How many sources (inputs), numbered from 0.' }),
    type: withDefault(
      Type.Union([Type.Literal('oneToN'), Type.Literal('oneToOne'), Type.Literal('nToN')], {
        description: 'oneToN: a target holds one source; oneToOne: and a source is on one target; nToN: a target holds several.',
      }),
      'oneToN',
    ),
  },
  { additionalProperties: false },
);

export interface MatrixDeclaration {
  readonly id: string;
  readonly targets: number;
  readonly sources: number;
  readonly type: 'oneToN' | 'oneToOne' | 'nToN';
}

const TYPES = { oneToN: MatrixType.OneToN, oneToOne: MatrixType.OneToOne, nToN: MatrixType.NToN } as const;

export class ServedMatrix {
  /** Each target's parameter, by target number. */
  readonly targets: readonly OwnedParameter[];
  private readonly many: boolean;

  constructor(
    context: ConnectionContext,
    readonly declared: MatrixDeclaration,
  ) {
    this.many = declared.type === 'nToN';
    this.targets = Array.from({ length: declared.targets }, (_, target) =>
      context.define(`${declared.id}/targets/${target}/${this.many ? 'sources' : 'source'}`, {
        type: this.many ? 'S' : 'I',
        access: 'read-write',
        initial: this.many ? '' : -1,
        persist: true,
        accept: (raw) => this.accept(raw),
        onWrite: (value, origin) => this.taken(target, value, origin),
      }),
    );
  }

  /** The sources target `target` holds now. */
  sourcesOf(target: number): number[] {
    const value = this.targets[target]?.value;
    if (this.many) return typeof value === 'string' && value !== '' ? value.split(',').map(Number) : [];
    return typeof value === 'number' && value >= 0 ? [value] : [];
  }

  /** What a consumer's connection request asks target `target` to hold, as the hub writes it; undefined for no such target. */
  asked(request: EmberConnection): Value | undefined {
    const { target } = request;
    if (this.targets[target] === undefined) return undefined;
    const sources = request.sources ?? [];
    const held = this.sourcesOf(target);
    const operation = request.operation as string | undefined;
    let next = sources;
    if (operation === 'CONNECT') next = this.many ? [...held, ...sources] : sources.slice(-1);
    else if (operation === 'DISCONNECT') next = held.filter((source) => !sources.includes(source));
    return this.valueOf(next);
  }

  /** The matrix as an element: with the connections of the targets given, or (a node's listing) none. */
  contents(identifier: string, targets?: readonly number[]): EmberElement {
    const { type, targets: targetCount, sources: sourceCount } = this.declared;
    const connections = targets && Object.fromEntries(targets.map((target) => [target, { sources: this.sourcesOf(target) }]));
    return matrixContents({ identifier, matrixType: TYPES[type], targetCount, sourceCount, ...(connections ? { connections } : {}) });
  }

  /** Every target number. */
  allTargets(): number[] {
    return this.targets.map((_, target) => target);
  }

  private valueOf(sources: readonly number[]): Value {
    if (!this.many) return sources.at(-1) ?? -1;
    return [...new Set(sources)].sort((a, b) => a - b).join(',');
  }

  /** A write's value: a source of this matrix (or -1), or for nToN a list of them, normalized. */
  private accept(raw: unknown): Result<Value> {
    const { sources, id } = this.declared;
    const range = `0–${sources - 1}`;
    if (!this.many) {
      const converted = convert(raw, 'I');
      if (!converted.ok) return converted;
      const source = converted.value as number;
      return source >= -1 && source < sources
        ? converted
        : fail('PB_CONVERSION', `${source} is not a source of the matrix ${id} (${range}, or -1 for none)`);
    }
    if (typeof raw !== 'string' && typeof raw !== 'number') return convert(raw, 'S');
    const text = String(raw).trim();
    const parts = text === '' ? [] : text.split(',').map((part) => part.trim());
    const numbers = parts.map((part) => (/^\d{1,9}$/.test(part) ? Number(part) : Number.NaN));
    if (numbers.some((source) => !(source < sources)))
      return fail('PB_CONVERSION', `"${text}" is not a list of sources of the matrix ${id} (${range}, comma-separated)`);
    return ok(this.valueOf(numbers));
  }

  /** oneToOne: the source just connected leaves every other target. */
  private taken(target: number, value: Value, origin: string | undefined): void {
    if (this.declared.type !== 'oneToOne' || value === -1) return;
    this.targets.forEach((other, index) => {
      if (index !== target && other.value === value) other.set(-1, origin);
    });
  }
}
