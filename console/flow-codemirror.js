// The flow file's text in CodeMirror 6: JSON5 highlighted, the keys and allowed values the
// flow-file schema (/flow/schema) has at the cursor offered as completions, and the hub's own
// checks as marks (POST /flow/draft, a pause after typing stops), each at the value it is
// about. Imported by flow-source.js only when the text view opens: CodeMirror is a megabyte
// the rest of the console does without.
import { autocompletion } from '@codemirror/autocomplete';
import { syntaxTree } from '@codemirror/language';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { basicSetup, EditorView } from 'codemirror';
import { json5 } from 'codemirror-json5';
import { pathText } from './format.js';

/** @import { CompletionContext, CompletionResult, Completion } from '@codemirror/autocomplete' */
/** @import { SyntaxNode } from '@lezer/common' */
/** @typedef {Record<string, any>} Schema */
/** @import { PlacedIssue } from '../lib/core/flow-shapes.ts' */

/** How long typing must pause before the tab hears of the text (its diff, its save button). */
const CHANGE_DELAY_MS = 150;
/** How long typing must pause before the hub checks the text. */
const CHECK_DELAY_MS = 700;

/**
 * An editor of `text` in `parent`.
 * @param {{ parent: HTMLElement, text: string, readOnly: boolean, schema: () => Schema,
 *   onChange: (text: string) => void, check: (text: string) => Promise<readonly PlacedIssue[]> }} options
 */
export function createEditor({ parent, text, readOnly, schema, onChange, check }) {
  // In a shadow root of its own: there CodeMirror's styles go in a constructed style sheet,
  // which the console's Content-Security-Policy (style-src 'self') lets through, where a
  // <style> element in the page would be refused.
  const root = parent.shadowRoot ?? parent.attachShadow({ mode: 'open' });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let pending;
  return new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc: text,
      extensions: [
        basicSetup,
        json5(),
        EditorView.theme({ '&': { height: '100%', fontSize: '0.85rem' }, '.cm-scroller': { overflow: 'auto' } }),
        EditorState.readOnly.of(readOnly),
        EditorView.contentAttributes.of({ 'aria-label': 'the flow file', 'data-testid': 'flow-text' }),
        // The tab hears of the text once typing pauses, and when the editor loses the focus
        // (to a save button): re-rendered from inside CodeMirror's key handling, the tab left
        // Chromium handling one keydown again and again.
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          clearTimeout(pending);
          pending = setTimeout(() => onChange(update.view.state.doc.toString()), CHANGE_DELAY_MS);
        }),
        EditorView.domEventHandlers({
          blur: (_event, view) => {
            if (pending === undefined) return;
            clearTimeout(pending);
            pending = undefined;
            onChange(view.state.doc.toString());
          },
        }),
        linter(
          async (view) => {
            const length = view.state.doc.length;
            return (await check(view.state.doc.toString())).map((issue) => ({
              from: Math.min(issue.from ?? 0, length),
              to: Math.min(issue.to ?? issue.from ?? 0, length),
              severity: /** @type {const} */ ('error'),
              message: `${pathText(issue.path)}: ${issue.message}`,
            }));
          },
          { delay: CHECK_DELAY_MS },
        ),
        lintGutter(),
        autocompletion({ override: [(context) => complete(context, schema())] }),
      ],
    }),
  });
}

/** Puts the cursor on `from`–`to` and shows it. @param {EditorView} view @param {number} from @param {number} to */
export function select(view, from, to) {
  const length = view.state.doc.length;
  view.dispatch({ selection: { anchor: Math.min(from, length), head: Math.min(to, length) }, scrollIntoView: true });
  view.focus();
}

/** A key's or a string's text without its quotes. @param {string} text */
const unquoted = (text) => (/^['"]/.test(text) ? text.slice(1, -1) : text);

/**
 * What may stand at the cursor: the keys an object there may have (those it has not yet),
 * or the values a key there allows (its allowed values, `true`/`false`, the connection types).
 * @param {CompletionContext} context @param {Schema} schema @returns {CompletionResult | null}
 */
export function complete(context, schema) {
  const word = context.matchBefore(/['"]?[\w$-]*/);
  if (!word || (word.from === word.to && !context.explicit)) return null;
  const before = context.state.sliceDoc(0, word.from).trimEnd();
  const last = before.at(-1);
  const tree = syntaxTree(context.state);
  const inner = tree.resolveInner(word.from, -1);
  const container = enclosing(inner, word.from);
  if (!container) return null;
  const path = pathTo(container, context.state);
  const schemas = at(schema, schema, path, (node) => keysOf(node, context.state), container);
  if (last === ':') {
    // A value: the key before the colon says which.
    const key = /(['"]?)([\w$-]+)\1\s*:$/.exec(before)?.[2];
    if (!key || container.name !== 'Object') return null;
    const options = valuesOf(schemas.flatMap((s) => alternatives(schema, propertyOf(s, key))));
    return options.length === 0 ? null : { from: word.from, options, validFor: /^['"]?[\w$-]*$/ };
  }
  // A key: first on its line, or after `{` or `,`.
  const line = context.state.doc.lineAt(word.from);
  const firstOnLine = context.state.sliceDoc(line.from, word.from).trim() === '';
  if (container.name !== 'Object' || !(firstOnLine || last === '{' || last === ',')) return null;
  const present = new Set(keysOf(container, context.state).keys());
  /** @type {Completion[]} */
  const options = [];
  for (const s of schemas)
    for (const [key, property] of Object.entries(s.properties ?? {}))
      if (!present.has(key) && !options.some((option) => option.label === key))
        options.push({
          label: key,
          type: 'property',
          detail: kindText(schema, property),
          ...(property.description ? { info: property.description } : {}),
          apply: `${key}: `,
        });
  return options.length === 0 ? null : { from: word.from, options, validFor: /^['"]?[\w$-]*$/ };
}

/** The Object or Array the position stands in (directly), climbing from `node`. @param {SyntaxNode | null} node @param {number} pos */
function enclosing(node, pos) {
  for (let at = node; at; at = at.parent) if ((at.name === 'Object' || at.name === 'Array') && at.from < pos) return at;
  return null;
}

/** The keys of an Object node, each with its value's text (unquoted). @param {SyntaxNode} node @param {EditorState} state */
function keysOf(node, state) {
  /** @type {Map<string, string>} */
  const keys = new Map();
  for (let property = node.firstChild; property; property = property.nextSibling) {
    if (property.name !== 'Property') continue;
    const name = property.getChild('PropertyName');
    if (!name) continue;
    const value = property.getChild('PropertyColon')?.nextSibling;
    keys.set(unquoted(state.sliceDoc(name.from, name.to)), value ? unquoted(state.sliceDoc(value.from, value.to)) : '');
  }
  return keys;
}

/**
 * The path from the document's root to `node`, as keys and list positions.
 * @param {SyntaxNode} node @param {EditorState} state @returns {{ step: string | number, object: SyntaxNode | null }[]}
 */
function pathTo(node, state) {
  /** @type {{ step: string | number, object: SyntaxNode | null }[]} */
  const path = [];
  let child = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.name === 'Property') {
      const name = parent.getChild('PropertyName');
      if (name) path.unshift({ step: unquoted(state.sliceDoc(name.from, name.to)), object: parent.parent });
    } else if (parent.name === 'Array') {
      let index = 0;
      for (let sibling = parent.firstChild; sibling && sibling.from < child.from; sibling = sibling.nextSibling)
        if (!['[', ']', '⚠', 'LineComment', 'BlockComment'].includes(sibling.name)) index++;
      path.unshift({ step: index, object: null });
    }
  }
  return path;
}

/**
 * The object schemas that may stand at `path` below `schema`: references followed, unions
 * and conditions opened (a condition on keys the object has, as a connection's `type`, decides).
 * @param {Schema} root @param {Schema} schema @param {{ step: string | number, object: SyntaxNode | null }[]} path
 * @param {(node: SyntaxNode) => Map<string, string>} keys @param {SyntaxNode} here
 * @returns {Schema[]}
 */
function at(root, schema, path, keys, here) {
  let current = alternatives(root, schema, keys(pathObject(here)));
  for (const [index, { step }] of path.entries()) {
    const next = path[index + 1]?.object ?? here;
    const known = next.name === 'Object' ? keys(next) : new Map();
    current = current.flatMap((s) => alternatives(root, typeof step === 'number' ? s.items : propertyOf(s, step), known));
  }
  return current.filter((s) => s.properties);
}

/** The document's root object, for the first step. @param {SyntaxNode} node */
function pathObject(node) {
  let top = node;
  while (top.parent && top.parent.name !== 'File') top = top.parent;
  return top;
}

/** The schema of key `key` of object schema `s`. @param {Schema} s @param {string} key @returns {Schema | undefined} */
function propertyOf(s, key) {
  return (
    s.properties?.[key] ??
    Object.values(s.patternProperties ?? {})[0] ??
    (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined)
  );
}

/**
 * `schema` as the alternatives it allows, references followed; a condition (`if`) is taken
 * by what the object has: its `type`'s value, its keys.
 * @param {Schema} root @param {Schema | undefined} schema @param {Map<string, string>} [known] @returns {Schema[]}
 */
function alternatives(root, schema, known = new Map()) {
  if (!schema || typeof schema !== 'object') return [];
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((/** @type {any} */ node, step) => node?.[step], root);
    return alternatives(root, target, known);
  }
  const own = schema.properties || schema.items || schema.enum || schema.const !== undefined || schema.type ? [schema] : [];
  const unions = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((s) => alternatives(root, s, known));
  const conditions = [...(schema.allOf ?? []), ...(schema.if ? [schema] : [])].flatMap((s) => {
    if (!s.if) return alternatives(root, s, known);
    return alternatives(root, conditionHolds(s.if, known) ? s.then : s.else, known);
  });
  return [...own, ...unions, ...conditions];
}

/** Whether an `if` holds for an object with `known` keys and values. @param {Schema} condition @param {Map<string, string>} known */
function conditionHolds(condition, known) {
  const required = /** @type {string[]} */ (condition.required ?? []);
  const type = condition.properties?.type?.const;
  if (type !== undefined) return known.get('type') === type;
  return required.every((key) => known.has(key));
}

/** The values a key allows, as completions. @param {Schema[]} schemas @returns {Completion[]} */
function valuesOf(schemas) {
  /** @type {Completion[]} */
  const options = [];
  const add = (/** @type {unknown} */ value, /** @type {string | undefined} */ info) => {
    const label = typeof value === 'string' ? `'${value.replaceAll("'", "\\'")}'` : JSON.stringify(value);
    if (!options.some((option) => option.label === label)) options.push({ label, type: 'constant', ...(info ? { info } : {}) });
  };
  for (const s of schemas) {
    for (const value of s.enum ?? []) add(value, s.description);
    if (s.const !== undefined) add(s.const, s.description);
    if (s.type === 'boolean') for (const value of [true, false]) add(value, s.description);
  }
  return options;
}

/** What a setting takes, in a word: `integer 0–65535`, `list`, `one of 3`. @param {Schema} root @param {Schema} property */
function kindText(root, property) {
  const [first] = alternatives(root, property);
  if (!first) return '';
  if (first.enum) return `one of ${first.enum.length}`;
  const range = first.minimum !== undefined && first.maximum !== undefined ? ` ${first.minimum}–${first.maximum}` : '';
  return `${first.type === 'array' ? 'list' : (first.type ?? '')}${range}`;
}
