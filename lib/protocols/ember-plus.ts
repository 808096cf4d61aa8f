/**
 * Ember+ messages, shared by `ember-provider` and `ember-consumer` (R-E1, R-E2): Glow
 * messages written as S101 frames, and decoded into the flat list of elements they carry,
 * each with its numbered path. The BER coding and the element model are
 * emberplus-connection's.
 */
import { berDecode, berEncode, Model, Types } from 'emberplus-connection';
import { framesOf } from './s101.ts';

export const { ElementType, ParameterType, ParameterAccess, MatrixType } = Model;

/** How a provider says a connect went (Glow's dispositions; the library's index does not export its enum). */
export const ConnectionDisposition = { Tally: 'TALLY', Modified: 'MODIFIED', Pending: 'PENDING', Locked: 'LOCKED' } as const;
export type EmberConnection = Model.Connections[number];
export type EmberElement = Model.EmberElement;
export type EmberValue = Types.EmberValue;
type Command = Extract<EmberElement, { type: Model.ElementType.Command }>;

/** The Glow command numbers (Ember+ 2.x). */
export const CommandNumber = { Subscribe: 30, Unsubscribe: 31, GetDirectory: 32, Invoke: 33 } as const;

/** The frames of a message of elements. */
export function elementsMessage(elements: readonly Types.RootElement[]): Buffer {
  return framesOf(berEncode(elements as Types.RootElement[], Types.RootType.Elements));
}

/** The frames of an answer to an invocation. */
export function invocationResultMessage(id: number, success: boolean): Buffer {
  return framesOf(berEncode({ id, success }, Types.RootType.InvocationResult));
}

/*
 * The library's classes declare their optional fields as `T | undefined`, which strict
 * optional property types tell apart from the interfaces they implement: the casts below are
 * where the two meet, and nowhere else.
 */

/** An element at `path` (numbers joined by `.`), with its children listed when given. */
export function qualified(path: string, contents: EmberElement, children?: ReadonlyMap<number, EmberElement>): Types.RootElement {
  const numbered = children
    ? Object.fromEntries([...children].map(([number, child]) => [number, new Model.NumberedTreeNodeImpl(number, child)]))
    : undefined;
  return new Model.QualifiedElementImpl(path, contents, numbered as never) as unknown as Types.RootElement;
}

/** A root element numbered `number`, without children: how a provider lists its root. */
export function numbered(number: number, contents: EmberElement): Types.RootElement {
  return new Model.NumberedTreeNodeImpl(number, contents) as unknown as Types.RootElement;
}

/** A node's contents. */
export function nodeContents(identifier?: string, isOnline?: boolean): EmberElement {
  return new Model.EmberNodeImpl(identifier, undefined, undefined, isOnline) as unknown as EmberElement;
}

/** A function's contents: a function without arguments, as a trigger is one. */
export function functionContents(identifier: string): EmberElement {
  return new Model.EmberFunctionImpl(identifier) as unknown as EmberElement;
}

/** A parameter's contents, with the fields given. */
export function parameterContents(
  parameterType: Model.ParameterType,
  fields: {
    identifier?: string;
    value?: EmberValue;
    access?: Model.ParameterAccess;
    isOnline?: boolean;
    description?: string;
    minimum?: number;
    maximum?: number;
    enumMap?: ReadonlyMap<string, number>;
  } = {},
): EmberElement {
  const { identifier, value, access, isOnline, description, minimum, maximum, enumMap } = fields;
  return new Model.ParameterImpl(
    parameterType,
    identifier,
    description,
    value,
    maximum,
    minimum,
    access,
    undefined,
    undefined,
    undefined,
    isOnline,
    undefined,
    undefined,
    undefined,
    undefined,
    enumMap as Map<string, number> | undefined,
  ) as unknown as EmberElement;
}

/**
 * A consumer's request that `target` of the matrix at `path` have exactly `sources` connected
 * (the absolute operation, Ember+'s default: every matrix type takes it, and an empty list
 * disconnects).
 */
export function matrixConnectionMessage(path: string, target: number, sources: readonly number[]): Buffer {
  const connection = { target, sources: [...sources], operation: 'ABSOLUTE' } as unknown as EmberConnection;
  const contents = new Model.MatrixImpl(undefined as never, undefined, undefined, { [target]: connection });
  return elementsMessage([new Model.QualifiedElementImpl(path, contents as unknown as EmberElement) as unknown as Types.RootElement]);
}

/** A linear matrix's contents, with the connections given (a node's listing gives none). */
export function matrixContents(fields: {
  identifier: string;
  matrixType: Model.MatrixType;
  targetCount: number;
  sourceCount: number;
  connections?: Record<number, { readonly sources: readonly number[] }>;
}): EmberElement {
  const { identifier, matrixType, targetCount, sourceCount, connections } = fields;
  const tally =
    connections &&
    Object.fromEntries(
      Object.entries(connections).map(([target, { sources }]) => [
        target,
        { target: Number(target), sources: [...sources], operation: 'ABSOLUTE', disposition: 'TALLY' } as unknown as EmberConnection,
      ]),
    );
  return new Model.MatrixImpl(
    identifier,
    undefined,
    undefined,
    tally,
    undefined,
    matrixType,
    Model.MatrixAddressingMode.Linear,
    targetCount,
    sourceCount,
  ) as unknown as EmberElement;
}

/** A command on the element at `path`, or on the root when `path` is empty. */
export function commandMessage(path: string, number: number, extra: Partial<Command> = {}): Buffer {
  const command = { type: ElementType.Command, number, ...extra } as Command;
  if (path === '') return elementsMessage([numbered(0, command)]);
  const target = new Model.QualifiedElementImpl(path, nodeContents() as never, [new Model.NumberedTreeNodeImpl(0, command)] as never);
  return elementsMessage([target as unknown as Types.RootElement]);
}

/** One element a message carries: its contents at its path, or a command on the element at its path. */
export type Met =
  | { readonly kind: 'element'; readonly path: string; readonly contents: Exclude<EmberElement, Command> }
  | { readonly kind: 'command'; readonly path: string; readonly command: Command }
  | { readonly kind: 'invocation-result'; readonly id: number; readonly success: boolean };

/**
 * How deep a path may go: Ember+ trees of real devices are a dozen levels deep. A deeper
 * path is no device's, and the message that holds it is dropped.
 */
export const MAX_PATH_DEPTH = 64;

/** A decoded Glow message: the elements it carries, or why it was dropped. */
export type Decoded = { readonly met: Met[] } | { readonly dropped: string };

/**
 * The elements a Glow message carries, parents before children, each with its full path; a
 * provider's answers and a consumer's requests read alike. Runs in the decoding thread (see
 * `ember-decoding.ts`): emberplus-connection's decoder has no bound on the time a message takes.
 */
export function decodeMessage(ber: Buffer): Decoded {
  let root: Types.Root;
  try {
    root = berDecode(ber).value;
  } catch {
    return { dropped: 'a message that does not decode' };
  }
  if (root === null || typeof root !== 'object') return { dropped: 'a message that does not decode' };
  if ('id' in root && typeof root.id === 'number')
    return { met: [{ kind: 'invocation-result', id: root.id, success: root.success !== false }] };
  const met: Met[] = [];
  type Listed = Model.TreeElement<EmberElement> & { readonly path?: string; readonly number?: number };
  for (const element of Object.values(root as unknown as Record<number, Listed>)) {
    if (element === null || typeof element !== 'object' || !('contents' in element)) continue;
    if (typeof element.path === 'string') visit(element, element.path, met);
    else if (typeof element.number === 'number')
      visit(element, element.contents.type === ElementType.Command ? '' : String(element.number), met);
  }
  if (met.some((item) => 'path' in item && depthOf(item.path) > MAX_PATH_DEPTH))
    return { dropped: `a message with a path deeper than ${MAX_PATH_DEPTH} levels` };
  return { met };
}

function depthOf(path: string): number {
  let depth = path === '' ? 0 : 1;
  for (let i = path.indexOf('.'); i >= 0; i = path.indexOf('.', i + 1)) depth++;
  return depth;
}

function visit(element: Model.TreeElement<EmberElement>, path: string, met: Met[]): void {
  const { contents } = element;
  if (contents.type === ElementType.Command) return void met.push({ kind: 'command', path, command: contents as Command });
  const children = Object.values(element.children ?? {});
  const command = children.find((child) => child.contents.type === ElementType.Command);
  if (command) return void met.push({ kind: 'command', path, command: command.contents as Command });
  met.push({ kind: 'element', path, contents: contents as Exclude<EmberElement, Command> });
  // One level past the bound is enough for the message to be dropped: no need to go on.
  if (depthOf(path) > MAX_PATH_DEPTH) return;
  for (const child of children) visit(child, path === '' ? String(child.number) : `${path}.${child.number}`, met);
}

/** The path of the element that holds the one at `path`; empty for the root's elements. */
export function parentPath(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
}
