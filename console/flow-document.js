// What the console reads of the flow document, and the edits its forms make in it: a rule's
// one line, the addresses it reads and writes, the rules that name a connection (they go with
// it when it is removed), a connection or a rule added, changed, renamed, turned off and on,
// and a package listed in `plugins`. Nothing here draws, so a plain spec runs it.
/** @import { FlowEdit } from '../lib/core/flow-shapes.ts' */
/** @typedef {{ folder?: string, rules?: RuleNode[], source?: string, destinations?: string[], pipe?: Record<string, unknown>[], from?: string | Record<string, string>, to?: string | string[], expr?: string, description?: string, enabled?: boolean }} RuleNode */
/** @typedef {{ connections?: Record<string, Record<string, any>>, rules?: RuleNode[], plugins?: string[] }} FlowDocument */
/** @typedef {(string | number)[]} Path */

/** The addresses a rule reads. @param {RuleNode} rule */
export const readsOf = (rule) =>
  rule.from === undefined ? [rule.source ?? ''] : typeof rule.from === 'string' ? [rule.from] : Object.values(rule.from);
/** The addresses a rule writes. @param {RuleNode} rule */
export const writesOf = (rule) =>
  rule.from === undefined ? (rule.destinations ?? []) : typeof rule.to === 'string' ? [rule.to] : (rule.to ?? []);

/** A rule's one-line summary: source → destinations, and its steps; a rule that holds state: its sources → where, and its expression. @param {RuleNode} rule */
export const ruleText = (rule) =>
  rule.from !== undefined
    ? `${readsOf(rule).join(', ')} → ${writesOf(rule).join(', ')}${rule.expr ? ` · ${rule.expr}` : ''}`
    : `${rule.source ?? '?'} → ${(rule.destinations ?? []).join(', ')}${rule.pipe?.length ? ` · ${rule.pipe.map((step) => Object.keys(step)[0]).join(', ')}` : ''}`;

/**
 * The rules (at any depth of folders) whose source or a destination is a parameter of connection `id`, with their paths, in order.
 * @param {readonly RuleNode[]} nodes @param {Path} path @param {string} id
 * @returns {{ rule: RuleNode, path: Path }[]}
 */
export function rulesNaming(nodes, path, id) {
  const names = (/** @type {string | undefined} */ address) => address?.startsWith(`${id}/`) === true;
  return nodes.flatMap((node, index) =>
    node.rules
      ? rulesNaming(node.rules, [...path, index, 'rules'], id)
      : readsOf(node).some(names) || writesOf(node).some(names)
        ? [{ rule: node, path: [...path, index] }]
        : [],
  );
}

/**
 * Connection `id` removed from the flow, with the rules that name it (a rule naming a
 * connection the file does not have is a mistake of the file): the last rule first, so that
 * the paths of the others stay as they are.
 * @param {FlowDocument | undefined} document @param {string} id @returns {FlowEdit[]}
 */
export const removalEdits = (document, id) => [
  ...rulesNaming(document?.rules ?? [], ['rules'], id)
    .reverse()
    .map(({ path }) => /** @type {FlowEdit} */ ({ op: 'remove', path })),
  { op: 'remove', path: ['connections', id] },
];

/** A connection, rule or folder at `at` turned on when it is off, and off when it is on. @param {{ enabled?: boolean }} node @param {Path} at @returns {FlowEdit} */
export const toggledEdit = (node, at) =>
  node.enabled === false ? { op: 'remove', path: [...at, 'enabled'] } : { op: 'set', path: [...at, 'enabled'], value: false };

/** The edits that make sure the list or map at `key` is there before something is put in it. @param {FlowDocument | undefined} document @param {'connections' | 'rules'} key @returns {FlowEdit[]} */
const ensured = (document, key) => (document?.[key] === undefined ? [{ op: 'set', path: [key], value: key === 'rules' ? [] : {} }] : []);

/**
 * Connection `id` with `settings`: added, or in place of `was` (renamed when the id changed).
 * @param {FlowDocument | undefined} document @param {string | undefined} was @param {string} id @param {Record<string, unknown>} settings
 * @returns {FlowEdit[]}
 */
export const connectionEdits = (document, was, id, settings) => [
  ...ensured(document, 'connections'),
  ...(was !== undefined && was !== id ? [/** @type {FlowEdit} */ ({ op: 'remove', path: ['connections', was] })] : []),
  { op: 'set', path: ['connections', id], value: settings },
];

/**
 * A rule at `path`: added to the list at `list` (the top list made when the flow has none), or changed in place.
 * @param {FlowDocument | undefined} document @param {{ path: Path, list: Path, isNew: boolean }} at @param {RuleNode} rule
 * @returns {FlowEdit[]}
 */
export const ruleEdits = (document, at, rule) =>
  at.isNew
    ? [...(at.list.length === 1 ? ensured(document, 'rules') : []), { op: 'add', path: at.list, value: rule }]
    : [{ op: 'set', path: at.path, value: rule }];

/** Package `name` listed in the flow's `plugins`. @param {FlowDocument | undefined} document @param {string} name @returns {FlowEdit[]} */
export const listedEdits = (document, name) =>
  document?.plugins === undefined ? [{ op: 'set', path: ['plugins'], value: [name] }] : [{ op: 'add', path: ['plugins'], value: name }];
