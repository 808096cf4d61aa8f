/**
 * One Ember+ matrix of a provider, as the ember-consumer shows it (R-E2): each target's
 * connected source(s) as a read-write parameter, and the signals' labels as read-only ones.
 *
 *   <matrix>/targets/<t>/source    I   oneToN and oneToOne: the source on target t, -1 for none
 *   <matrix>/targets/<t>/sources   S   nToN: the sources on target t, ascending, comma-separated
 *                                      ("1,4"; "" for none)
 *   <matrix>/targets/<t>/label     S   read-only, when the matrix has labels
 *   <matrix>/sources/<s>/label     S   read-only, when the matrix has labels
 *
 * A write asks the provider for exactly those sources on the target (the absolute operation)
 * and is answered by the provider's next word on that target: confirmed when it holds what was
 * asked, refused with what it holds when it refused (locked) or changed the connect. How many
 * targets a provider can make appear is bounded by the connection's `maxParameters` (R-G4):
 * a count the provider states is never used to allocate anything.
 */
import { type DeviceParameters, HubError, type OwnedParameter, type Value } from '../../sdk/index.ts';
import {
  ConnectionDisposition,
  type EmberConnection,
  type EmberElement,
  MatrixType,
  matrixConnectionMessage,
} from '../../protocols/ember-plus.ts';
import type { Model } from 'emberplus-connection';

export type EmberMatrix = Extract<EmberElement, { type: Model.ElementType.Matrix }>;

/**
 * Why a write made through a reading whose link closed is refused at once: its socket is
 * gone, and the reading of the new link has not met the element yet, so nothing would
 * answer it before `timeout`.
 */
export function readingAgain(): HubError {
  return new HubError('PB_DEVICE_UNAVAILABLE', "the provider's tree is being read again after a reconnect: write again in a moment");
}

/** A connect sent and not yet answered. */
interface PendingConnect {
  readonly sources: readonly number[];
  readonly confirm: (error?: unknown) => void;
}

/** At most this many connects wait for their answer on one target; older ones have timed out long since. */
const MAX_PENDING_PER_TARGET = 64;

export interface MatrixOptions {
  readonly parameters: DeviceParameters;
  readonly send: (message: Buffer) => void;
  /** Who changed a value, as the parameters show it (R-O2). */
  readonly origin: string;
  /** Each parameter made or met again, so that the reading keeps it. */
  readonly made: (id: string) => void;
}

export class MatrixReading {
  private many = false;
  /** Targets by number: those the provider listed, or 0…targetCount-1 for a linear matrix. */
  private readonly targets = new Set<number>();
  private sources: ReadonlySet<number> | undefined;
  private sourceCount: number | undefined;
  private targetsKnown = false;
  private readonly pending = new Map<number, PendingConnect[]>();
  /** Label values heard before the matrix said which targets and sources it has. */
  private readonly labels = new Map<string, string>();
  private ended = false;

  constructor(
    /** The matrix's numbered path. */
    private readonly path: string,
    /** The hub id the matrix's parameters are under: its identifier path. */
    private readonly id: string,
    private readonly options: MatrixOptions,
  ) {}

  /** The label node the matrix names (its first labels entry), or undefined. */
  labelsPath(contents: EmberMatrix): string | undefined {
    return contents.labels?.[0]?.basePath;
  }

  /** The matrix's contents as a message carries them: its signals, its connections, or both. */
  receive(contents: EmberMatrix): void {
    if (contents.matrixType !== undefined) this.many = contents.matrixType === MatrixType.NToN;
    if (contents.sources !== undefined) this.sources = new Set(contents.sources);
    if (contents.sourceCount !== undefined) this.sourceCount = contents.sourceCount;
    if (!this.targetsKnown && (contents.targets !== undefined || contents.targetCount !== undefined)) {
      this.targetsKnown = true;
      const listed = contents.targets ?? [];
      const count = contents.targets === undefined ? (contents.targetCount ?? 0) : listed.length;
      // A provider may state any count: targets are made one by one, and the first one past
      // maxParameters ends it (R-G4).
      for (let i = 0; i < count; i++) {
        const target = contents.targets === undefined ? i : (listed[i] as number);
        if (this.define(target) === undefined) break;
        this.targets.add(target);
      }
      for (const [key, label] of this.labels) this.label(key, label);
    }
    if (contents.connections === undefined) return;
    const connections = Object.values(contents.connections);
    if (contents.targets !== undefined || contents.targetCount !== undefined)
      // A whole matrix: targets it does not list as connected have no source.
      for (const target of this.targets)
        if (!connections.some((connection) => connection.target === target)) this.connected(target, [], undefined);
    for (const connection of connections) this.connected(connection.target, connection.sources ?? [], connection.disposition);
  }

  /** A label parameter of the matrix's label node: `targets` (1) or `sources` (2), numbered by signal. */
  label(key: string, value: string): void {
    this.labels.set(key, value);
    const [group, number] = key.split('.').map(Number) as [number, number];
    const kind = group === 1 ? 'targets' : group === 2 ? 'sources' : undefined;
    if (kind === undefined || !this.targetsKnown) return;
    if (kind === 'targets' ? !this.targets.has(number) : !this.isSource(number)) return;
    const id = `${this.id}/${kind}/${number}/label`;
    const parameter = this.options.parameters.define(id, { type: 'S', access: 'read-only' }, (_value, confirm) =>
      confirm(new HubError('PB_READ_ONLY', 'a label is read-only')),
    );
    if (parameter === undefined) return;
    this.options.made(id);
    parameter.report(value, this.options.origin);
  }

  /** The link closed: connects waiting for an answer are refused at once (R-G1). */
  end(): void {
    this.ended = true;
    for (const connects of this.pending.values())
      for (const connect of connects) connect.confirm(new Error('the link closed before the provider answered'));
    this.pending.clear();
  }

  private define(target: number): OwnedParameter | undefined {
    const id = this.sourcesId(target);
    const parameter = this.options.parameters.define(id, { type: this.many ? 'S' : 'I', access: 'read-write' }, (value, confirm) =>
      this.connect(target, value, confirm),
    );
    if (parameter !== undefined) this.options.made(id);
    return parameter;
  }

  private sourcesId(target: number): string {
    return `${this.id}/targets/${target}/${this.many ? 'sources' : 'source'}`;
  }

  private isSource(source: number): boolean {
    if (this.sources !== undefined) return this.sources.has(source);
    return this.sourceCount === undefined || (Number.isInteger(source) && source >= 0 && source < this.sourceCount);
  }

  /** The provider's word on `target`: shown, and the oldest connect waiting on it answered. */
  private connected(target: number, sources: readonly number[], disposition: EmberConnection['disposition']): void {
    if (!this.targets.has(target)) return;
    const held = this.many ? [...new Set(sources)].sort((a, b) => a - b) : sources.slice(0, 1);
    this.options.parameters.get(this.sourcesId(target))?.report(this.valueOf(held), this.options.origin);
    if ((disposition as string | undefined) === ConnectionDisposition.Pending) return;
    const connect = this.pending.get(target)?.shift();
    if (connect === undefined) return;
    if (same(connect.sources, held)) return connect.confirm();
    const locked = (disposition as string | undefined) === ConnectionDisposition.Locked ? ' (the target is locked)' : '';
    connect.confirm(new HubError('PB_BAD_ANSWER', `the provider holds ${describe(held)} on target ${target}${locked}`));
  }

  private valueOf(sources: readonly number[]): Value {
    return this.many ? sources.join(',') : (sources[0] ?? -1);
  }

  /** A hub write: asks the provider for exactly these sources on the target. */
  private connect(target: number, value: Value, confirm: (error?: unknown) => void): void {
    if (this.ended) return confirm(readingAgain());
    const sources = this.many ? parseSources(String(value)) : Number(value) === -1 ? [] : [Number(value)];
    const wrong = sources === undefined ? undefined : sources.find((source) => !this.isSource(source));
    if (sources === undefined || wrong !== undefined) {
      const what = sources === undefined ? `"${String(value)}" is not a list of source numbers ("1,4")` : `${wrong} is not a source`;
      const range = this.sources === undefined && this.sourceCount !== undefined ? ` (0–${this.sourceCount - 1})` : '';
      return confirm(new HubError('PB_CONVERSION', `${what} of the matrix ${this.id}${range}`));
    }
    const connects = this.pending.get(target) ?? [];
    if (connects.length >= MAX_PENDING_PER_TARGET) connects.shift();
    connects.push({ sources: [...new Set(sources)].sort((a, b) => a - b), confirm });
    this.pending.set(target, connects);
    this.options.send(matrixConnectionMessage(this.path, target, sources));
  }
}

/** "1, 4" → [1, 4]; "" → []; undefined when it is not a list of whole numbers. */
function parseSources(text: string): number[] | undefined {
  if (text.trim() === '') return [];
  const parts = text.split(',').map((part) => part.trim());
  if (!parts.every((part) => /^\d{1,9}$/.test(part))) return undefined;
  return parts.map(Number);
}

function same(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

function describe(sources: readonly number[]): string {
  return sources.length === 0 ? 'no source' : sources.length === 1 ? `source ${sources[0]}` : `sources ${sources.join(',')}`;
}
