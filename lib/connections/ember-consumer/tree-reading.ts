/**
 * The ember-consumer's reading of one provider's tree over one link (R-E2): asks for the root
 * and for every node in the selected paths (a GetDirectory, which also subscribes to the
 * node's children), makes a hub parameter of each Ember+ parameter it meets, follows their
 * values, and settles writes when the provider answers them. A new reading starts at every
 * connect; once every node asked for has answered, parameters the provider no longer has go.
 */
import {
  MOST_CHOICES,
  MOST_LABEL,
  type DeviceParameters,
  type Logger,
  type OwnedParameter,
  type ParameterMeta,
  parameterIdOf,
  type Value,
  type ValueType,
} from '../../sdk/index.ts';
import {
  CommandNumber,
  commandMessage,
  ElementType,
  type EmberElement,
  type EmberValue,
  elementsMessage,
  type Met,
  ParameterAccess,
  ParameterType,
  parameterContents,
  parentPath,
  qualified,
} from '../../protocols/ember-plus.ts';
import type { Model } from 'emberplus-connection';
import { type EmberMatrix, MatrixReading, readingAgain } from './matrix-reading.ts';

type EmberParameter = Extract<EmberElement, { type: Model.ElementType.Parameter }>;

/** What the reading knows of an element of the provider's tree. */
interface Known {
  /** Identifiers from the root to this element (its number where it has none). */
  readonly names: readonly string[];
  parameterType?: Model.ParameterType;
  access?: Model.ParameterAccess;
  /** The hub parameter's id, once made. */
  id?: string | undefined;
}

/** A write sent and not yet answered with its value. */
interface PendingWrite {
  readonly value: EmberValue;
  readonly confirm: (error?: unknown) => void;
}

/** At most this many writes wait for their answer on one parameter; older ones have timed out long since. */
const MAX_PENDING_PER_PARAMETER = 64;

const TYPES: Partial<Record<Model.ParameterType, ValueType>> = {
  [ParameterType.Boolean]: 'B',
  [ParameterType.Integer]: 'I',
  [ParameterType.Enum]: 'I',
  [ParameterType.Real]: 'F',
  [ParameterType.String]: 'S',
};

const ACCESS = {
  [ParameterAccess.Read]: 'read-only',
  [ParameterAccess.Write]: 'write-only',
  [ParameterAccess.ReadWrite]: 'read-write',
} as const;

export interface ReadingOptions {
  readonly parameters: DeviceParameters;
  readonly log: Logger;
  /** Selected subtrees as segment lists (`router/levels` → ["router", "levels"]); empty: the whole tree. */
  readonly paths: readonly (readonly string[])[];
  /** Element kinds already warned about: one warning each for the connection's life. */
  readonly warned: Set<string>;
  /** Enum names by parameter id, for the connection's details. */
  readonly enums: Map<string, Record<string, string>>;
  /** Who changed a value, as the parameters show it (R-O2). */
  readonly origin: string;
}

export class TreeReading {
  private readonly known = new Map<string, Known>();
  private readonly asked = new Set<string>();
  private readonly unanswered = new Set<string>();
  private readonly seen = new Set<string>();
  private readonly pending = new Map<string, PendingWrite[]>();
  private readonly matrices = new Map<string, MatrixReading>();
  /** Label nodes' numbered paths (`<basePath>.1` targets, `.2` sources), with the matrix they name. */
  private readonly labelNodes = new Map<string, MatrixReading>();
  private complete = false;
  private ended = false;

  constructor(
    private readonly send: (message: Buffer) => void,
    private readonly options: ReadingOptions,
  ) {}

  /** Asks for the root: the reading starts. */
  begin(): void {
    this.ask('');
  }

  /** The link closed: writes waiting for an answer are refused at once (R-G1). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const writes of this.pending.values())
      for (const write of writes) write.confirm(new Error('the link closed before the provider answered'));
    this.pending.clear();
    for (const matrix of this.matrices.values()) matrix.end();
  }

  /** The elements of one message from the provider. */
  receive(met: readonly Met[]): void {
    // Providers answer in order: the first message answers the root, even when the tree is empty.
    this.unanswered.delete('');
    for (const item of met) {
      if (item.kind !== 'element') continue;
      this.unanswered.delete(item.path);
      if (item.contents.type === ElementType.Node) this.node(item.path, item.contents);
      else if (item.contents.type === ElementType.Parameter) {
        this.label(item.path, item.contents);
        this.parameter(item.path, item.contents);
      } else if (item.contents.type === ElementType.Matrix) this.matrix(item.path, item.contents);
      else this.skip(item.path, item.contents.type, 'identifier' in item.contents ? item.contents.identifier : undefined);
    }
    if (!this.complete && this.unanswered.size === 0 && this.asked.size > 0) this.finish();
  }

  /** A GetDirectory; `awaited`: the reading is complete only once it is answered. */
  private ask(path: string, awaited = true): void {
    if (this.asked.has(path)) return;
    this.asked.add(path);
    if (awaited) this.unanswered.add(path);
    this.send(commandMessage(path, CommandNumber.GetDirectory));
  }

  /**
   * A matrix: its parameters under its identifier path. Asking for the matrix itself brings its
   * targets, sources and connections (a node's directory lists a matrix without them) and
   * subscribes to its connections; asking for its label node brings its labels, wherever
   * the provider keeps them.
   */
  private matrix(path: string, contents: EmberMatrix): void {
    const names = this.namesOf(path, contents.identifier);
    if (names === undefined || !this.selects(names)) return;
    let matrix = this.matrices.get(path);
    if (matrix === undefined) {
      const id = parameterIdOf(names);
      if (id === undefined) return;
      const here = new MatrixReading(path, id, {
        parameters: this.options.parameters,
        send: this.send,
        origin: this.options.origin,
        made: (made) => this.seen.add(made),
      });
      matrix = here;
      this.matrices.set(path, here);
      this.known.set(path, { names });
      this.ask(path);
    }
    const labels = matrix.labelsPath(contents);
    if (labels !== undefined && /^\d+(\.\d+)*$/.test(labels)) {
      for (const group of ['1', '2']) {
        // Not awaited: a provider that names a label node it does not have leaves no reading unfinished.
        this.labelNodes.set(`${labels}.${group}`, matrix);
        this.ask(`${labels}.${group}`, false);
      }
    }
    matrix.receive(contents);
  }

  /** A string parameter in a matrix's label node is the label of a target or a source. */
  private label(path: string, contents: EmberParameter): void {
    const node = parentPath(path);
    const matrix = this.labelNodes.get(node);
    if (matrix === undefined || typeof contents.value !== 'string') return;
    matrix.label(`${node.slice(node.lastIndexOf('.') + 1)}.${path.slice(path.lastIndexOf('.') + 1)}`, contents.value);
  }

  private namesOf(path: string, identifier: string | undefined): string[] | undefined {
    const parent = parentPath(path);
    const above = parent === '' ? [] : this.known.get(parent)?.names;
    if (above === undefined) return undefined;
    const number = path.slice(path.lastIndexOf('.') + 1);
    return [...above, identifier ?? this.known.get(path)?.names.at(-1) ?? number];
  }

  private node(path: string, contents: Extract<EmberElement, { type: Model.ElementType.Node }>): void {
    const names = this.namesOf(path, contents.identifier);
    if (names === undefined) return;
    if (!this.known.has(path)) this.known.set(path, { names });
    if (contents.isOnline !== false && this.leadsToSelection(names)) this.ask(path);
  }

  private parameter(path: string, contents: EmberParameter): void {
    let known = this.known.get(path);
    if (known === undefined) {
      const names = this.namesOf(path, contents.identifier);
      if (names === undefined) return;
      known = { names };
      this.known.set(path, known);
    }
    if (contents.parameterType !== undefined && contents.parameterType !== ParameterType.Null) known.parameterType = contents.parameterType;
    if (contents.access !== undefined) known.access = contents.access;
    const { parameters } = this.options;
    if (contents.isOnline === false) {
      if (known.id !== undefined) parameters.remove(known.id);
      known.id = undefined;
      return;
    }
    let parameter: OwnedParameter | undefined = known.id === undefined ? undefined : parameters.get(known.id);
    if (parameter === undefined) {
      parameter = this.make(path, known, contents);
      if (parameter === undefined) return;
    }
    this.seen.add(known.id as string);
    if (contents.value === undefined || contents.value === null || contents.value instanceof Uint8Array) return;
    parameter.report(contents.value, this.options.origin);
    this.settle(path, contents.value);
  }

  private make(path: string, known: Known, contents: EmberParameter): OwnedParameter | undefined {
    if (!this.selects(known.names)) return undefined;
    const kind = known.parameterType;
    const type = kind === undefined ? undefined : TYPES[kind];
    if (type === undefined) return void this.skip(path, `${String(kind ?? 'untyped').toLowerCase()} parameter`, known.names.at(-1));
    const id = parameterIdOf(known.names);
    if (id === undefined) return undefined;
    const access = known.access ?? ParameterAccess.Read;
    if (access === ParameterAccess.None) return undefined;
    const parameterType = kind as Model.ParameterType;
    const names = enumNames(contents);
    const parameter = this.options.parameters.define(
      id,
      { type, access: ACCESS[access], meta: metaOf(contents, names) },
      (value, confirm) => this.write(path, parameterType, value, confirm),
    );
    if (parameter === undefined) return undefined;
    known.id = id;
    if (names) this.options.enums.set(id, names);
    return parameter;
  }

  /** A hub write: a setValue of the parameter, confirmed when the provider answers with the value written. */
  private write(path: string, parameterType: Model.ParameterType, value: Value, confirm: (error?: unknown) => void): void {
    if (this.ended) return confirm(readingAgain());
    const emberValue: EmberValue = parameterType === ParameterType.String ? String(value) : (value as EmberValue);
    const writes = this.pending.get(path) ?? [];
    if (writes.length >= MAX_PENDING_PER_PARAMETER) writes.shift();
    writes.push({ value: emberValue, confirm });
    this.pending.set(path, writes);
    // Only the value travels: an element with children (even none) is not a setValue to every provider.
    this.send(elementsMessage([qualified(path, parameterContents(parameterType, { value: emberValue }))]));
  }

  private settle(path: string, value: EmberValue): void {
    const writes = this.pending.get(path);
    if (writes === undefined) return;
    const left = writes.filter((write) => {
      if (write.value !== value) return true;
      write.confirm();
      return false;
    });
    if (left.length === 0) this.pending.delete(path);
    else this.pending.set(path, left);
  }

  /** Every node asked for has answered: what was not met again is gone from the provider. */
  private finish(): void {
    this.complete = true;
    const { parameters } = this.options;
    for (const id of [...parameters.ids()]) if (!this.seen.has(id)) parameters.remove(id);
    this.options.log.info(`tree read: ${parameters.size} parameters`);
  }

  private skip(path: string, kind: string, identifier?: string): void {
    const what = kind.toLowerCase();
    if (this.options.warned.has(what)) return;
    this.options.warned.add(what);
    const names = this.namesOf(path, identifier)?.join('/') ?? path;
    this.options.log.warn(`${names}: skipped, a ${what} is not supported (further ones are skipped without a word)`);
  }

  /** Whether the element at `names` is inside a selected subtree. */
  private selects(names: readonly string[]): boolean {
    const { paths } = this.options;
    if (paths.length === 0) return true;
    const id = (parameterIdOf(names) ?? '').split('/');
    return paths.some((path) => path.every((segment, i) => id[i] === segment));
  }

  /** Whether a node at `names` is inside a selected subtree, or on the way to one. */
  private leadsToSelection(names: readonly string[]): boolean {
    const { paths } = this.options;
    if (paths.length === 0) return true;
    const id = (parameterIdOf(names) ?? '').split('/');
    return paths.some((path) => id.every((segment, i) => i >= path.length || path[i] === segment));
  }
}

/**
 * What the provider says of a parameter, as the hub's parameter says it (R-PK6): its
 * description as the label (Ember+'s identifier is for machines, its description for
 * people), its minimum and maximum, an enum's names as choices.
 */
function metaOf(contents: EmberParameter, names: Record<string, string> | undefined): ParameterMeta {
  const finite = (bound: unknown) => (typeof bound === 'number' && Number.isFinite(bound) ? bound : undefined);
  const minimum = finite(contents.minimum);
  const maximum = finite(contents.maximum);
  const label = typeof contents.description === 'string' ? contents.description.slice(0, MOST_LABEL) : '';
  const choices =
    names &&
    Object.entries(names)
      .slice(0, MOST_CHOICES)
      .map(([value, name]) => ({ value: Number(value), label: String(name).slice(0, MOST_LABEL) }));
  return {
    ...(label === '' ? {} : { label }),
    ...(minimum === undefined ? {} : { minimum }),
    ...(maximum === undefined ? {} : { maximum }),
    ...(choices === undefined || choices.length === 0 ? {} : { choices }),
  };
}

/** An enum's names by value, from its enumeration (one name a line) or its map. */
function enumNames(contents: EmberParameter): Record<string, string> | undefined {
  if (contents.enumMap && contents.enumMap.size > 0) {
    return Object.fromEntries([...contents.enumMap].map(([name, value]) => [String(value), name]));
  }
  if (contents.enumeration !== undefined) {
    return Object.fromEntries(contents.enumeration.split('\n').map((name, value) => [String(value), name]));
  }
  return undefined;
}
