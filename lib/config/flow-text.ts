/**
 * The flow file's text as an editor changes it (R-ED2): parsed into a concrete syntax tree
 * (`@croct/json5-parser`), changed where an edit says, and written back with every comment,
 * key order, quote and `${…}` placeholder it did not touch as it was, byte for byte.
 *
 * Two things JSON5 allows that the parser does not read are written in a form it reads
 * before parsing, and put back as they were when the text is written: a `"` inside a
 * single-quoted string (`'<a x="1">'`), and a key spelt as a literal (`{ true: 1, null: 0 }`,
 * common in a `map` step). A new entry in a list whose entries each stand on one line is
 * written on one line too; anything larger takes the style the parser learns from the file.
 */
import {
  JsonArrayNode,
  JsonCompositeNode,
  JsonLexer,
  type JsonNode,
  JsonObjectNode,
  JsonParser,
  JsonTokenNode,
  JsonTokenType,
  type JsonValueNode,
} from '@croct/json5-parser';
import JSON5 from 'json5';
import type { FlowEdit } from '../core/flow-shapes.ts';
import { blockText, compactText } from './json5-text.ts';
import type { Issue } from '../core/issue.ts';

type Path = readonly (string | number)[];

/** A token the parser would not read, and what it was written as. */
interface Rewritten {
  /** Where it stands in the text the parser reads. */
  readonly at: number;
  /** How much longer the parser's form is than the file's. */
  readonly grew: number;
  readonly original: string;
}

const BETWEEN_TOKENS = new Set<string>([
  JsonTokenType.WHITESPACE,
  JsonTokenType.NEWLINE,
  JsonTokenType.LINE_COMMENT,
  JsonTokenType.BLOCK_COMMENT,
]);
/** A `"` not escaped, after any number of escaped backslashes. */
const BARE_DOUBLE_QUOTE = /((?:^|[^\\])(?:\\\\)*)"/g;

/** A flow file's text, parsed so that it can be changed and written back as it was where it was not changed. */
export class FlowDocument {
  private constructor(
    readonly root: JsonObjectNode,
    private readonly rewritten: readonly Rewritten[],
    private readonly originals: Map<JsonNode, string>,
    /** The text as parsed: where the nodes' locations point. */
    private readonly parsed: string,
    /** The quote most of the file's strings are written in: new ones are written in it too. */
    readonly quote: string,
  ) {}

  /** Whether an edit changed the tree, which is then laid out again when the text is written. */
  private changed = false;

  /** A value written by an edit (`text`, JSON5), as a node whose tokens are written back as given. */
  valueOf(text: string): JsonValueNode {
    const { readable, rewritten } = readableText(text);
    const node = JsonParser.parse(readable);
    keepOriginals(node, rewritten, this.originals);
    return node;
  }

  /** Whether `node` is written on one line, without comments, in the file as parsed. */
  onOneLine(node: JsonValueNode): boolean {
    const written = this.parsed.slice(node.location.start.index, node.location.end.index);
    return !written.includes('\n') && !/\/[/*]/.test(written);
  }

  /** Notes that an edit changed the tree. */
  markChanged(): void {
    this.changed = true;
  }

  /**
   * The indentation of the entries of `container` (as its first entry has it, or one step
   * deeper than the container's line), and one step of the file's indentation.
   */
  indentationIn(container: JsonArrayNode | JsonObjectNode): { readonly entries: string; readonly step: string } {
    const step = /\n([ \t]+)\S/.exec(this.parsed)?.[1] ?? '  ';
    const first = container instanceof JsonArrayNode ? container.elements[0] : container.properties[0];
    const lineOf = (index: number) => this.parsed.slice(this.parsed.lastIndexOf('\n', index - 1) + 1, index);
    if (first) {
      const before = lineOf(first.location.start.index);
      if (/^[ \t]*$/.test(before)) return { entries: before, step };
    }
    const own = /^[ \t]*/.exec(lineOf(container.location.start.index))?.[0] ?? '';
    return { entries: own + step, step };
  }

  /** The document of `text`, or undefined when it does not parse (a mistake in the text). */
  static parse(text: string): FlowDocument | undefined {
    let read: ReturnType<typeof readableText>;
    let root: JsonObjectNode;
    try {
      read = readableText(text);
      root = JsonParser.parse(read.readable, JsonObjectNode);
    } catch {
      return undefined;
    }
    const { tokens, rewritten, readable } = read;
    const originals = new Map<JsonNode, string>();
    keepOriginals(root, rewritten, originals);
    let single = 0;
    let double = 0;
    for (const token of tokens) if (token.type === JsonTokenType.STRING) token.value.startsWith("'") ? single++ : double++;
    return new FlowDocument(root, rewritten, originals, readable, single > double ? "'" : '"');
  }

  /** The text now: the file's own tokens as they were, and the changed parts in the file's style. */
  toString(): string {
    // Laid out again from the root, so what an edit adds takes the style the parser learns
    // from the whole file (a part laid out alone learns its style from itself, and rewrote
    // the quotes of the keys around a change); what was not changed keeps its tokens.
    if (this.changed) this.root.rebuild();
    this.changed = false;
    return tokensOf(this.root)
      .map((token) => this.originals.get(token) ?? token.toString())
      .join('');
  }

  /** The node at `path`, or undefined. */
  nodeAt(path: Path): JsonValueNode | undefined {
    let node: JsonValueNode = this.root;
    for (const step of path) {
      if (node instanceof JsonObjectNode && typeof step === 'string' && node.has(step)) node = node.get(step);
      else if (node instanceof JsonArrayNode && typeof step === 'number' && step >= 0 && step < node.elements.length) node = node.get(step);
      else return undefined;
    }
    return node;
  }

  /**
   * Where in the file's text the value at `path` stands (the nearest enclosing value when the
   * path goes further than the file), as offsets; for marks at a mistake.
   */
  place(path: Path): { readonly from: number; readonly to: number } {
    for (let length = path.length; length >= 0; length--) {
      const node = this.nodeAt(path.slice(0, length));
      if (node) return { from: this.fileOffset(node.location.start.index), to: this.fileOffset(node.location.end.index) };
    }
    return { from: 0, to: 0 };
  }

  /** An offset of the parsed text (a node's `location`) as an offset of the file's. */
  fileOffset(index: number): number {
    let shift = 0;
    for (const { at, grew } of this.rewritten) if (at < index) shift += grew;
    return index - shift;
  }
}

/** `text` as the parser reads it, and the tokens that had to be written otherwise for it. */
function readableText(text: string) {
  const tokens = JsonLexer.tokenize(text);
  const rewritten: Rewritten[] = [];
  let readable = '';
  tokens.forEach((token, index) => {
    const form = readableForm(token.type, token.value, () => {
      let next = index + 1;
      while (next < tokens.length && BETWEEN_TOKENS.has(tokens[next]!.type)) next++;
      return tokens[next]?.type === JsonTokenType.COLON;
    });
    if (form !== token.value) rewritten.push({ at: readable.length, grew: form.length - token.value.length, original: token.value });
    readable += form;
  });
  return { tokens, rewritten, readable };
}

/** Notes in `originals` how each rewritten token below `node` was written. */
function keepOriginals(node: JsonNode, rewritten: readonly Rewritten[], originals: Map<JsonNode, string>): void {
  if (rewritten.length === 0) return;
  const byPlace = new Map(rewritten.map((change) => [change.at, change.original]));
  for (const token of tokensOf(node)) {
    const original = byPlace.get(token.location.start.index);
    if (original !== undefined) originals.set(token, original);
  }
}

/** The token as the parser reads it. */
function readableForm(type: string, value: string, isKey: () => boolean): string {
  if (type === JsonTokenType.STRING && value.startsWith("'") && value.includes('"'))
    return `'${value.slice(1, -1).replace(BARE_DOUBLE_QUOTE, '$1\\"').replace(BARE_DOUBLE_QUOTE, '$1\\"')}'`;
  if ((type === JsonTokenType.BOOLEAN || type === JsonTokenType.NULL || type === JsonTokenType.NUMBER) && isKey())
    return JSON.stringify(value);
  return value;
}

/** The tokens below `node`, in the order of the text. */
function tokensOf(node: JsonNode, into: JsonNode[] = []): JsonNode[] {
  if (node instanceof JsonCompositeNode) for (const child of node.children) tokensOf(child, into);
  else into.push(node);
  return into;
}

/**
 * `text` with `edits` made in order, or the edits that cannot be made (a path into nothing,
 * a text that does not parse), each at its path.
 */
export function editFlowText(
  text: string,
  edits: readonly FlowEdit[],
): { readonly ok: true; readonly text: string; readonly document: unknown } | { readonly ok: false; readonly issues: readonly Issue[] } {
  if (edits.length === 0) return { ok: true, text, document: documentOf(text) };
  let document = FlowDocument.parse(text);
  if (!document)
    return {
      ok: false,
      issues: [{ path: [], message: 'the text has a mistake the editor cannot work around: correct it in the text first' }],
    };
  const { quote } = document;
  for (const [index, edit] of edits.entries()) {
    // Each edit on the text the last one wrote: what it added stands where it is written, so an
    // entry added into a list made by the edit before is indented by the list's own line.
    if (index > 0) document = FlowDocument.parse(document.toString()) ?? document;
    const refused = applyEdit(document, edit, quote);
    if (refused) return { ok: false, issues: [{ path: edit.path, message: `edit ${index + 1} (${edit.op}): ${refused}` }] };
  }
  return { ok: true, text: document.toString(), document: document.root.toJSON() };
}

/** Makes one edit; why it cannot be made, or undefined. */
function applyEdit(document: FlowDocument, edit: FlowEdit, quote: string): string | undefined {
  const key = edit.path.at(-1);
  if (key === undefined) return 'the path is empty: an edit changes something inside the file';
  // Inside a list or object written on one line, the edit is made in its value and the line
  // written anew: the parser's own insertions there lose the line's spacing.
  for (let length = 1; length < edit.path.length; length++) {
    const outer = document.nodeAt(edit.path.slice(0, length));
    if (!outer || !(outer instanceof JsonArrayNode || outer instanceof JsonObjectNode) || !document.onOneLine(outer)) continue;
    const value = edited(outer.toJSON(), edit.path.slice(length), edit);
    if (typeof value === 'string') return value;
    const compact = compactText(value.value, quote);
    if (compact === undefined || compact.length > ONE_LINE) break;
    return applyEdit(document, { op: 'set', path: edit.path.slice(0, length), value: value.value }, quote);
  }
  const parent = document.nodeAt(edit.path.slice(0, -1));
  if (edit.op === 'add') {
    const list = document.nodeAt(edit.path);
    if (!(list instanceof JsonArrayNode)) return 'there is no list at this path to add to';
    list.push(newEntry(document, list, edit.value, quote));
    document.markChanged();
    return undefined;
  }
  if (parent instanceof JsonObjectNode && typeof key === 'string') {
    document.markChanged();
    if (edit.op === 'remove') {
      const property = parent.properties.find((candidate) => candidate.key.toJSON() === key);
      if (!property) return 'there is nothing at this path to remove';
      dropCommentsAbove(parent, property);
      parent.delete(key);
    } else if (!parent.has(key)) parent.set(key, newEntry(document, parent, edit.value, quote));
    else {
      const was = parent.get(key);
      const now = updated(document, was, edit.value, quote);
      if (now !== was) parent.set(key, now);
    }
    return undefined;
  }
  if (parent instanceof JsonArrayNode && typeof key === 'number' && key >= 0 && key < parent.elements.length) {
    const was = parent.get(key);
    document.markChanged();
    if (edit.op === 'remove') {
      dropCommentsAbove(parent, was);
      parent.delete(key);
    } else {
      const now = updated(document, was, edit.value, quote);
      if (now !== was) parent.set(key, now);
    }
    return undefined;
  }
  return 'there is nothing at this path';
}

/**
 * `node` changed to `value`: an object or list changed in place where it differs, so the
 * comments inside stay; one written on a single line without comments written anew on one
 * line (the parser's style for what it adds there is its own); a primitive a new node.
 */
function updated(document: FlowDocument, node: JsonValueNode, value: unknown, quote: string): JsonValueNode {
  if (node instanceof JsonObjectNode || node instanceof JsonArrayNode) {
    const written = node.toString();
    const compact = written.includes('\n') || /\/[/*]/.test(written) ? undefined : compactText(value, quote);
    if (compact !== undefined && compact.length <= ONE_LINE)
      return JSON.stringify(node.toJSON()) === JSON.stringify(value) ? node : document.valueOf(compact);
    // An object over several lines changed key by key, so that an object or list on one line
    // inside it (a connection's `config`) is written anew on one line, not by the parser's insertion.
    if (node instanceof JsonObjectNode && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const wanted = value as Record<string, unknown>;
      for (const property of [...node.properties]) {
        const key = String(property.key.toJSON());
        if (Object.hasOwn(wanted, key)) continue;
        dropCommentsAbove(node, property);
        node.delete(key);
      }
      for (const [key, inner] of Object.entries(wanted)) {
        if (!node.has(key)) node.set(key, newEntry(document, node, inner, quote));
        else {
          const was = node.get(key);
          const now = updated(document, was, inner, quote);
          if (now !== was) node.set(key, now);
        }
      }
      return node;
    }
    return node.update(value as never);
  }
  // A value of its own: written in the file's quote (the parser's own choice may be the other).
  const compact = compactText(value, quote);
  if (compact === undefined || JSON.stringify(node.toJSON()) === JSON.stringify(value)) return node;
  return document.valueOf(compact);
}

/** `value` with `edit` made at `path` inside it, or why it cannot be made. */
function edited(value: unknown, path: readonly (string | number)[], edit: FlowEdit): { readonly value: unknown } | string {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  const inside = path.slice(0, -1).reduce<unknown>((node, step) => (node as Record<string | number, unknown> | undefined)?.[step], copy);
  const last = path.at(-1)!;
  if (edit.op === 'add') {
    const list = (inside as Record<string | number, unknown> | undefined)?.[last];
    if (!Array.isArray(list)) return 'there is no list at this path to add to';
    list.push(edit.value);
  } else if (Array.isArray(inside) && typeof last === 'number' && last < inside.length) {
    if (edit.op === 'remove') inside.splice(last, 1);
    else inside[last] = edit.value;
  } else if (inside && typeof inside === 'object' && !Array.isArray(inside) && typeof last === 'string') {
    const object = inside as Record<string, unknown>;
    if (edit.op === 'remove') {
      if (!(last in object)) return 'there is nothing at this path to remove';
      delete object[last];
    } else object[last] = edit.value;
  } else return 'there is nothing at this path';
  return { value: copy };
}

const isToken = (node: JsonNode | undefined, ...types: string[]) => node instanceof JsonTokenNode && types.includes(node.type);

/**
 * Removes the comment lines right above `entry` (no blank line between): they speak of it,
 * and go with it. A comment at the end of the line before, after another entry, stays.
 */
function dropCommentsAbove(container: JsonArrayNode | JsonObjectNode, entry: JsonNode): void {
  const { children } = container;
  const at = children.indexOf(entry);
  let newline = isToken(children[at - 1], JsonTokenType.WHITESPACE) ? at - 2 : at - 1;
  if (at < 0 || !isToken(children[newline], JsonTokenType.NEWLINE)) return;
  const end = newline;
  let start: number | undefined;
  while (isToken(children[newline - 1], JsonTokenType.LINE_COMMENT, JsonTokenType.BLOCK_COMMENT)) {
    const lineStart = isToken(children[newline - 2], JsonTokenType.WHITESPACE) ? newline - 2 : newline - 1;
    if (!isToken(children[lineStart - 1], JsonTokenType.NEWLINE)) break;
    start = lineStart;
    newline = lineStart - 1;
  }
  if (start !== undefined) children.splice(start, end - start + 1);
}

/** The longest entry written on one line. */
const ONE_LINE = 120;

/**
 * A new entry of `container`, written as the file writes its neighbours: on one line when
 * they each stand on one (the rules of a folder, a dummy's parameter lines) and it fits;
 * else a line a key, indented as the file is, with short lists and objects inside on one line.
 */
function newEntry(document: FlowDocument, container: JsonArrayNode | JsonObjectNode, value: unknown, quote: string): JsonValueNode {
  const neighbours = container instanceof JsonArrayNode ? container.elements : container.properties;
  const oneLine = neighbours.length > 0 && neighbours.every((entry) => !entry.toString().includes('\n'));
  const compact = compactText(value, quote);
  if (compact === undefined) return document.valueOf(JSON.stringify(value ?? null));
  if (oneLine && compact.length <= ONE_LINE) return document.valueOf(compact);
  const { entries, step } = document.indentationIn(container);
  return document.valueOf(blockText(value, entries, step, quote));
}

/** Where a text that does not parse goes wrong, as an offset (JSON5's line and column), or undefined. */
export function syntaxPlace(text: string): { readonly from: number; readonly to: number } | undefined {
  try {
    JSON5.parse(text);
    return undefined;
  } catch (error) {
    const { lineNumber, columnNumber } = error as { lineNumber?: number; columnNumber?: number };
    if (lineNumber === undefined) return undefined;
    const lines = text.split('\n');
    const from = lines.slice(0, lineNumber - 1).reduce((sum, line) => sum + line.length + 1, 0) + Math.max(0, (columnNumber ?? 1) - 1);
    return { from, to: Math.min(text.length, from + 1) };
  }
}

/** The document `text` holds, as JSON5 reads it; undefined when it does not parse. */
export function documentOf(text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch {
    return undefined;
  }
}
