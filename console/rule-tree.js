// The flow's rules as a tree (R-ED1, R-RS1): folders with the rules below them, each rule in
// one line to edit, turn off or remove; a rule, a rule that holds state or a folder added at
// any level. Each change is a draft the flow tab makes (its `change`).
import { useState } from 'preact/hooks';
import { ruleText, toggledEdit } from './flow-document.js';
import { html } from './html.js';
/** @import { FlowEdit, PlacedIssue } from '../lib/core/flow-shapes.ts' */
/** @import { RuleNode } from './flow-document.js' */
/** @typedef {{ kind: 'rule' | 'held', path: (string | number)[], list: (string | number)[], isNew: boolean }} RuleEditing */

/**
 * A folder's name typed in place (not in a browser's prompt): Enter or **ok** takes it, Escape or **cancel** leaves it.
 * @param {{ label: string, initial: string, done: (name: string) => void }} props
 */
function FolderName({ label, initial, done }) {
  const [name, setName] = useState(initial);
  return html`<span class="folder-naming">
    <input aria-label=${label} value=${name} autofocus spellcheck=${false}
      onInput=${(/** @type {Event} */ e) => setName(/** @type {HTMLInputElement} */ (e.currentTarget).value)}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          done(name.trim());
        } else if (e.key === 'Escape') done(initial);
      }}
      onClick=${(/** @type {Event} */ e) => e.preventDefault()} />
    <button type="button" onClick=${(/** @type {Event} */ e) => {
      e.preventDefault();
      done(name.trim());
    }}>ok</button>
    <button type="button" onClick=${(/** @type {Event} */ e) => {
      e.preventDefault();
      done(initial);
    }}>cancel</button>
  </span>`;
}

/**
 * The rule tree: folders (with the rules below them) and rules, each to edit, disable or
 * remove; a rule or a folder added at any level.
 * @param {{ nodes: RuleNode[], path: (string | number)[], readOnly: boolean, edit: (editing: RuleEditing) => void,
 *   change: (edits: readonly FlowEdit[], mine: (string | number)[], done: string) => Promise<readonly PlacedIssue[]> }} props
 */
export function RuleList({ nodes, path, readOnly, edit, change }) {
  const toggle = (/** @type {RuleNode} */ node, /** @type {(string | number)[]} */ at, /** @type {string} */ what) =>
    change([toggledEdit(node, at)], at, `${what} ${node.enabled === false ? 'enabled' : 'disabled'}`);
  /** The folder whose name is being typed: a new one (-1) or the one at that index. */
  const [naming, setNaming] = useState(/** @type {number | undefined} */ (undefined));
  const rename = (/** @type {RuleNode} */ node, /** @type {(string | number)[]} */ at, /** @type {string} */ name) => {
    setNaming(undefined);
    if (name && name !== node.folder)
      change([{ op: 'set', path: [...at, 'folder'], value: name }], at, `folder ${node.folder} renamed ${name}`);
  };
  const addFolder = (/** @type {string} */ name) => {
    setNaming(undefined);
    if (name) change([{ op: 'add', path, value: { folder: name, rules: [] } }], path, `folder ${name} added`);
  };
  return html`<ul class="rule-tree">
    ${nodes.map((node, index) => {
      const at = [...path, index];
      const off = node.enabled === false ? ' disabled' : '';
      if (node.folder !== undefined)
        return html`<li class=${`folder${off}`}><details open>
          <summary>${
            naming === index
              ? html`<${FolderName} label="the folder's new name" initial=${node.folder} done=${(/** @type {string} */ name) => rename(node, at, name)} />`
              : html`<span class="folder-name">${node.folder}</span>`
          }${off && html` <span class="badge disabled">disabled</span>`}
            <span class="row-actions">
              <button disabled=${readOnly} onClick=${() => setNaming(index)}>rename</button>
              <button disabled=${readOnly} onClick=${() => toggle(node, at, `folder ${node.folder}`)}>${off ? 'enable' : 'disable'}</button>
              <button disabled=${readOnly} onClick=${() =>
                window.confirm(`Remove folder ${node.folder} and every rule in it?`) &&
                change([{ op: 'remove', path: at }], at, `folder ${node.folder} removed`)}>remove</button>
            </span>
          </summary>
          <${RuleList} nodes=${node.rules ?? []} path=${[...at, 'rules']} readOnly=${readOnly} edit=${edit} change=${change} />
        </details></li>`;
      return html`<li class=${`rule${off}`}>
        <span class="rule-text">${ruleText(node)}</span>${node.description && html` <span class="muted">${node.description}</span>`}
        ${off && html` <span class="badge disabled">disabled</span>`}
        <span class="row-actions">
          <button disabled=${readOnly} onClick=${() => edit({ kind: 'rule', path: at, list: path, isNew: false })}>edit</button>
          <button disabled=${readOnly} onClick=${() => toggle(node, at, 'rule')}>${off ? 'enable' : 'disable'}</button>
          <button disabled=${readOnly} onClick=${() => change([{ op: 'remove', path: at }], at, 'rule removed')}>remove</button>
        </span>
      </li>`;
    })}
    <li class="add">
      <button disabled=${readOnly} onClick=${() => edit({ kind: 'held', path: [...path, nodes.length], list: path, isNew: true })}>add a rule that holds state${path.length > 1 ? ' here' : ''}</button>
      <button disabled=${readOnly} onClick=${() => edit({ kind: 'rule', path: [...path, nodes.length], list: path, isNew: true })}>add a forwarding rule${path.length > 1 ? ' here' : ''}</button>
      ${
        naming === -1
          ? html`<${FolderName} label="the new folder's name" initial="" done=${addFolder} />`
          : html`<button disabled=${readOnly} onClick=${() => setNaming(-1)}>add a folder${path.length > 1 ? ' here' : ''}</button>`
      }
    </li>
  </ul>`;
}
