// The flow's connections as a table (R-ED1): each with its type and the running hub's status,
// to edit, turn off and on, or remove (with the rules that name it, said first). Each change
// is a draft the flow tab makes (its `change`).
import { removalEdits, ruleText, rulesNaming, toggledEdit } from './flow-document.js';
import { html } from './html.js';
/** @import { ConnectionInfo } from '../lib/core/api-shapes.ts' */
/** @import { FlowEdit, PlacedIssue } from '../lib/core/flow-shapes.ts' */
/** @import { FlowDocument } from './flow-document.js' */

/**
 * @param {{ document: FlowDocument | undefined, live: ReadonlyMap<string, ConnectionInfo>, readOnly: boolean, unsaved: boolean,
 *   edit: (id: string) => void, change: (edits: readonly FlowEdit[], mine: (string | number)[], done: string) => Promise<readonly PlacedIssue[]> }} props
 */
export function FlowConnections({ document, live, readOnly, unsaved, edit, change }) {
  /** @param {string} id */
  const remove = (id) => {
    const naming = rulesNaming(document?.rules ?? [], ['rules'], id);
    const said = naming.map(({ rule }) => `  ${ruleText(rule)}`).join('\n');
    const goes = naming.length === 1 ? 'The rule that names it goes' : `The ${naming.length} rules that name it go`;
    if (!window.confirm(`Remove connection ${id} from the flow?${naming.length ? `\n${goes} with it:\n${said}` : ''}`)) return;
    change(
      removalEdits(document, id),
      ['connections', id],
      `connection ${id} removed${naming.length ? `, with the ${naming.length === 1 ? 'rule' : `${naming.length} rules`} that named it` : ''}`,
    );
  };
  return html`${unsaved && html`<p class="help">The rows are the flow with your changes, not saved yet; each status is the running hub's.</p>`}
    <table class="flow-connections" data-testid="flow-connections">
      <thead><tr><th>id</th><th>type</th><th>status</th><th></th></tr></thead>
      <tbody>${Object.entries(document?.connections ?? {}).map(([id, settings]) => {
        const disabled = settings.enabled === false;
        const status = live.get(id)?.status ?? 'not saved yet';
        return html`<tr class=${disabled ? 'disabled' : ''}>
          <td>${id}</td><td>${settings.type}</td><td><span class=${`badge ${disabled ? 'disabled' : status.replaceAll(' ', '-')}`}>${disabled ? 'disabled' : status}</span></td>
          <td class="row-actions">
            <button disabled=${readOnly} onClick=${() => edit(id)}>edit</button>
            <button disabled=${readOnly} onClick=${() =>
              change(
                [toggledEdit(settings, ['connections', id])],
                ['connections', id],
                `connection ${id} ${disabled ? 'enabled' : 'disabled'}`,
              )}>${disabled ? 'enable' : 'disable'}</button>
            <button disabled=${readOnly} onClick=${() => remove(id)}>remove</button>
          </td>
        </tr>`;
      })}</tbody>
    </table>`;
}
