// The form for what the flow tab is editing (R-ED1, R-ST2, R-ST5, R-RS1): the catalogue to add
// a connection from, a connection's settings, a trigger, a forwarding rule or a rule that
// holds state. Each form's apply is a draft the flow tab makes (its `change`).
import { useMemo } from 'preact/hooks';
import { CatalogueView } from './catalogue.js';
import { connectionEdits, listedEdits, ruleEdits } from './flow-document.js';
import { ConnectionForm, ownSchemas, pipeSteps, RuleForm, typeSchemas } from './flow-forms.js';
import { catalogueId } from './format.js';
import { HeldRuleForm } from './held-rule-form.js';
import { html } from './html.js';
import { changedTriggerEdits, nodeAt, triggerEdits } from './trigger-rules.js';
import { TriggerForm } from './triggers.js';
/** @import { ParameterListing } from '../lib/core/api-shapes.ts' */
/** @import { CatalogueEntry, FlowEdit, PlacedIssue } from '../lib/core/flow-shapes.ts' */
/** @import { FlowDocument, RuleNode } from './flow-document.js' */
/** @import { Trigger, TriggerPlace } from './trigger-rules.js' */
/** @typedef {{ kind: 'connection', id: string, isNew: boolean, start?: Record<string, any> } | { kind: 'rule' | 'held', path: (string | number)[], list: (string | number)[], isNew: boolean } | { kind: 'catalogue' } | { kind: 'trigger', trigger?: Trigger, place?: TriggerPlace }} Editing */

/**
 * @param {{ editing: Editing, document: FlowDocument | undefined, schema: Record<string, any>, addresses: readonly ParameterListing[],
 *   change: (edits: readonly FlowEdit[], mine: (string | number)[], done: string) => Promise<readonly PlacedIssue[]>,
 *   open: (editing: Editing) => void, close: () => void }} props
 */
export function EditingForm({ editing, document, schema, addresses, change, open, close }) {
  const types = useMemo(() => typeSchemas(schema), [schema]);
  const own = useMemo(() => ownSchemas(schema), [schema]);
  const steps = useMemo(() => pipeSteps(schema), [schema]);
  const ids = Object.keys(document?.connections ?? {});
  if (editing.kind === 'catalogue')
    return html`<${CatalogueView}
      pick=${(/** @type {CatalogueEntry} */ entry) =>
        open({ kind: 'connection', id: catalogueId(entry, ids), isNew: true, start: { ...entry.connection } })}
      list=${(/** @type {CatalogueEntry} */ { package: name, boxed }) =>
        name &&
        change(
          listedEdits(document, name),
          ['plugins'],
          `package ${name} ${boxed ? 'installed beside the flow and ' : ''}added to plugins`,
        )}
      cancel=${close} />`;
  if (editing.kind === 'connection') {
    const value = editing.isNew
      ? (editing.start ?? { type: types.has('dummy') ? 'dummy' : ([...types.keys()][0] ?? '') })
      : (document?.connections?.[editing.id] ?? {});
    return html`<${ConnectionForm} key=${editing.id} id=${editing.id} value=${value} types=${types} own=${own} isNew=${editing.isNew} addresses=${addresses}
      taken=${ids}
      apply=${(/** @type {string} */ id, /** @type {Record<string, any>} */ settings) =>
        change(
          connectionEdits(document, editing.isNew ? undefined : editing.id, id, settings),
          ['connections', id],
          editing.isNew ? `connection ${id} added` : `connection ${id} changed`,
        )}
      cancel=${close} />`;
  }
  if (editing.kind === 'trigger') {
    const place = editing.place;
    return html`<${TriggerForm} key=${place ? JSON.stringify(place.rule) : 'new'} addresses=${addresses} initial=${editing.trigger}
      apply=${(/** @type {Trigger} */ trigger) =>
        place
          ? change(changedTriggerEdits(trigger, place, document ?? {}), ['rules'], `trigger "${trigger.name}" changed`)
          : change(triggerEdits(trigger, document ?? {}), ['rules'], `trigger "${trigger.name}" added`)}
      cancel=${close} />`;
  }
  const value = editing.isNew ? {} : /** @type {RuleNode} */ (nodeAt(document, editing.path) ?? {});
  const form = editing.kind === 'held' ? HeldRuleForm : RuleForm;
  return html`<${form} path=${editing.path} value=${value} steps=${steps} addresses=${addresses}
    apply=${(/** @type {RuleNode} */ rule) => change(ruleEdits(document, editing, rule), editing.path, editing.isNew ? 'rule added' : 'rule changed')}
    cancel=${close} />`;
}
