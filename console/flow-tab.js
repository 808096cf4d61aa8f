// The flow tab (R-ED1–R-ED3): the flow file as the hub serves it (its secrets hidden), changed
// through forms — connections added, edited, disabled and removed; rules in their folders —
// or as text. Every change is made in the file's own text by the hub (POST /flow/draft), so
// comments and order stay; nothing is saved until the operator has seen what a save will
// change as a diff. A save goes on top of the text that was read (If-Match), so a change
// made meanwhile is never overwritten: the tab then shows how the file differs from this
// edit and keeps the edit. The hub's mistakes are shown at their fields and listed at their
// paths; the kept versions can each be brought back. Shown only to logins the hub lets read
// the flow (full access, or an admin token).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { draftOf, readFlow, readFlowSchema, saveFlow } from './api.js';
import { DiffView } from './diff-view.js';
import { FlowConnections } from './flow-connections.js';
import { EditingForm } from './flow-editing.js';
import { lineDiff } from './flow-diff.js';
import { drafted, draftedNotice, mistakes, refusedNotice, saveOutcome, unsavedText } from './flow-edits.js';
import { typeSchemas } from './flow-forms.js';
import { FlowSource } from './flow-source.js';
import { FlowVersions } from './flow-versions.js';
import { messageOf, pathText } from './format.js';
import { html } from './html.js';
import { RuleList } from './rule-tree.js';
import { nodeAt, triggerAt } from './trigger-rules.js';
/** @import { ConnectionInfo, ParameterListing } from '../lib/core/api-shapes.ts' */
/** @import { CatalogueEntry, Draft, FlowEdit, PlacedIssue } from '../lib/core/flow-shapes.ts' */
/** @import { FlowDocument, RuleNode } from './flow-document.js' */

// The flow tab's own shapes: what is being edited, the file as read.
/** @import { Editing } from './flow-editing.js' */
/** @typedef {Awaited<ReturnType<typeof readFlow>>} FlowFile */
/** @typedef {(text: string, error: boolean) => void} Notify */

/** What the flow tab shows on a hub without credentials: why there is no editor, and what to do. */
export function EditorLocked() {
  return html`<section class="editor-locked" data-testid="editor-locked">
    <h2>The flow editor is off</h2>
    <p>This hub has no credentials: anyone who reaches it may read and write its parameters, so
    nobody may change its flow from a browser. Give its rest-api a <code>token</code> in the flow
    file on the machine, restart or reload, and sign in with <code>?access_token=…</code> (see
    "Securing a site" in the operating guide).</p>
  </section>`;
}

/**
 * @param {{ notify: Notify, connections?: readonly ConnectionInfo[], addresses?: readonly ParameterListing[], opening?: Editing }} props
 */
export function FlowTab({ notify, connections = [], addresses = [], opening }) {
  const [file, setFile] = useState(/** @type {FlowFile | undefined} */ (undefined));
  const [text, setText] = useState('');
  const [document, setDocument] = useState(/** @type {FlowDocument | undefined} */ (undefined));
  const [schema, setSchema] = useState(/** @type {Record<string, any>} */ ({}));
  const [view, setView] = useState(/** @type {'connections' | 'rules' | 'text'} */ ('connections'));
  const [editing, setEditing] = useState(/** @type {Editing | undefined} */ (undefined));
  const [reviewing, setReviewing] = useState(false);
  const [issues, setIssues] = useState(/** @type {readonly PlacedIssue[]} */ ([]));
  /** The file as it is now, when a save found it changed since it was read: this edit is kept, and shown against it. */
  const [changed, setChanged] = useState(/** @type {FlowFile | undefined} */ (undefined));
  const [busy, setBusy] = useState(false);
  /**
   * The forms' edits since the file was read, to make again on the file as another save left
   * it; undefined once the text was typed by hand (typing is not an edit the hub can make again).
   */
  const [made, setMade] = useState(/** @type {readonly FlowEdit[] | undefined} */ ([]));
  /** What the save changed, kept with its version: what the forms did, in their words, which the editor may change. */
  const [note, setNote] = useState('');
  /** Where the text view shows the cursor: a mistake's place, chosen in the list. */
  const [place, setPlace] = useState(/** @type {{ from: number, to: number } | undefined} */ (undefined));
  const types = useMemo(() => typeSchemas(schema), [schema]);

  /** Takes a draft the hub made as the text being edited. @param {Draft} draft */
  const take = (draft) => {
    setText(draft.text);
    setDocument(/** @type {FlowDocument | undefined} */ (draft.document));
    setIssues(draft.issues);
  };

  /** @param {Editing} [then] what is edited once the file is read */
  const load = async (then) => {
    const read = await readFlow();
    setFile(read);
    setChanged(undefined);
    setReviewing(false);
    // Closed at once; what is opened is opened once the document is read (a form starts from it).
    if (then === undefined) setEditing(undefined);
    setNote('');
    setMade([]);
    const draft = await draftOf(read.text, []);
    take(draft);
    const missing =
      then?.kind === 'connection' && !then.isNew && !(/** @type {FlowDocument | undefined} */ (draft.document)?.connections?.[then.id]);
    if (missing) notify(`${then.id} is not in the flow file (a code flow or another hub runs it): nothing to edit here`, true);
    else if (then !== undefined) setEditing(then);
    // A save may have made a connection's own forms known (a module that ran once): the schema is read again with the file.
    readFlowSchema().then(setSchema, () => {});
  };
  useEffect(() => {
    readFlowSchema().then(setSchema, () => {});
    load(opening).catch((/** @type {Error} */ error) => notify(`the flow could not be read: ${error.message}`, true));
  }, []);

  if (!file) return html`<p class="empty">reading the flow file…</p>`;
  const edited = text !== file.text;
  const readOnly = Boolean(file.readOnly);

  /**
   * Has the hub make `edits` in the text. The mistakes below `mine` refuse them (the form
   * stays open and shows them at their fields); others are the file's own and are listed.
   * @param {readonly FlowEdit[]} edits @param {(string | number)[]} mine @param {string} done
   * @returns {Promise<readonly PlacedIssue[]>}
   */
  const change = async (edits, mine, done) => {
    try {
      const made = await drafted(text, edits, mine);
      if ('refused' in made) {
        const refused = refusedNotice(made.refused, 'changed');
        notify(refused.text, refused.error);
        return made.refused;
      }
      setEditing(undefined);
      if ('same' in made) {
        notify('nothing to change: the flow already says that', false);
        return [];
      }
      take(made.draft);
      setMade((before) => before && [...before, ...edits]);
      setNote((before) => (before === '' ? done : `${before}; ${done}`).slice(0, 200));
      setReviewing(true);
      const said = draftedNotice(done, made.warned);
      notify(said.text, said.error);
      return [];
    } catch (error) {
      notify(`not changed: ${messageOf(error)}`, true);
      return [];
    }
  };

  /** Sends the edit on top of `etag`; what the hub said is shown. @param {string} etag */
  const save = async (etag) => {
    setBusy(true);
    try {
      const outcome = saveOutcome(await saveFlow(text, etag, note));
      if ('saved' in outcome) {
        // Said once the tab shows the file as saved: what is opened after the notice stays open.
        await load();
        notify(`saved and applied: version ${outcome.saved}`, false);
      } else if ('changed' in outcome) {
        setChanged(await readFlow());
        setReviewing(true);
        notify(
          `the flow file changed since you opened it: nothing was saved. Your edit is kept; the changes below are between the file now and your edit${made?.length ? ', and the forms can make yours again on the file as it is' : ''}`,
          true,
        );
      } else if ('mistakes' in outcome) {
        // Placed in the text, for the marks and the forms' fields.
        take(await draftOf(text, []));
        notify(`not saved: ${mistakes(outcome.mistakes)}, listed below (${outcome.code})`, true);
      } else {
        setIssues([]);
        notify(unsavedText(outcome), true);
      }
    } catch (error) {
      // A save that changes the hub's own web server (its tokens, its port) restarts it, and
      // the answer may be lost on the way: the file tells whether the save was taken.
      const now = await readFlow().catch(() => undefined);
      if (now && now.etag !== etag) {
        notify('the answer was lost (the hub restarted its web server to apply the save): the file below is the flow as it is now', true);
        await load();
      } else notify(`not saved: ${/** @type {Error} */ (error).message}`, true);
    } finally {
      setBusy(false);
    }
  };

  /**
   * The forms' edits made again on the file as another save left it: the edit is then shown
   * against that file, to review and save. Nothing changes when one of them cannot be made there.
   */
  const rebase = async () => {
    if (!changed || !made) return;
    const draft = await draftOf(changed.text, made);
    if (draft.text === changed.text) {
      const why = draft.issues.map((issue) => issue.message).join('; ');
      return notify(`your changes do not go on the file as it is now${why ? `: ${why}` : ''}; save yours over it, or take the file`, true);
    }
    setFile(changed);
    setChanged(undefined);
    take(draft);
    setReviewing(true);
    notify('your changes are made on the file as it is now: review them below, and save', false);
  };

  /** Shows the text with the mistake's place selected. @param {PlacedIssue} issue */
  const showInText = (issue) => {
    setEditing(undefined);
    setView('text');
    if (issue.from !== undefined) setPlace({ from: issue.from, to: issue.to ?? issue.from });
  };

  /** A rule the trigger form made opens in the trigger form, with what it says; any other in the rule form. @param {Editing} edit */
  const editRule = (edit) => {
    const found = edit.kind === 'rule' && !edit.isNew ? triggerAt(document, edit.path) : undefined;
    // A rule that holds state the trigger form did not make opens in its own form.
    if (
      !found &&
      edit.kind === 'rule' &&
      !edit.isNew &&
      /** @type {RuleNode | undefined} */ (nodeAt(document, edit.path))?.from !== undefined
    )
      return setEditing({ ...edit, kind: 'held' });
    setEditing(found ? { kind: 'trigger', ...found } : edit);
  };

  const live = new Map(connections.map((c) => [c.id, c]));
  const base = changed ?? file;
  const diff = reviewing ? lineDiff(base.text, text) : [];

  /** @type {any} */
  let body;
  if (editing)
    body = html`<${EditingForm} editing=${editing} document=${document} schema=${schema} addresses=${addresses} change=${change}
      open=${setEditing} close=${() => setEditing(undefined)} />`;
  else if (view === 'connections')
    body = html`<${FlowConnections} document=${document} live=${live} readOnly=${readOnly} unsaved=${edited || Boolean(changed)} change=${change}
        edit=${(/** @type {string} */ id) => setEditing({ kind: 'connection', id, isNew: false })} />
      <button class="primary" disabled=${readOnly || types.size === 0} onClick=${() => setEditing({ kind: 'catalogue' })}>add a connection</button>`;
  else if (view === 'rules')
    body = html`<div class="flow-rules" data-testid="flow-rules">
      <${RuleList} nodes=${document?.rules ?? []} path=${['rules']} readOnly=${readOnly} edit=${editRule} change=${change} />
      <button class="primary" disabled=${readOnly} onClick=${() => setEditing({ kind: 'trigger' })}>add a trigger</button>
      <p class="help">A trigger is a rule made from a form: at a time, once, or when a value changes or meets a condition, write a value.</p>
    </div>`;
  else
    body = html`<${FlowSource}
      text=${text}
      readOnly=${readOnly}
      schema=${schema}
      place=${place}
      setText=${(/** @type {string} */ typed) => {
        setText(typed);
        setMade(undefined);
        setReviewing(false);
      }}
      check=${async (/** @type {string} */ typed) => {
        const checked = await draftOf(typed, []);
        setIssues(checked.issues);
        if (checked.document !== undefined) setDocument(/** @type {FlowDocument} */ (checked.document));
        return checked.issues;
      }}
    />`;

  return html`<section class="flow">
    ${file.readOnly && html`<p class="read-only" role="note">read-only: ${file.readOnly}</p>`}
    <nav class="flow-views" aria-label="flow views">
      ${
        /** @type {const} */ (['connections', 'rules', 'text']).map(
          (name) => html`<button class=${view === name && !editing ? 'active' : ''} aria-pressed=${view === name && !editing}
          onClick=${() => {
            setEditing(undefined);
            setView(name);
          }}>${name}</button>`,
        )
      }
    </nav>
    ${body}
    <div class="flow-actions">
      ${
        (edited || changed) &&
        html`<input class="note" aria-label="what this save changes" placeholder="what this save changes (kept with the version)" maxlength="200"
          value=${note} onInput=${(/** @type {Event} */ e) => setNote(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />`
      }
      <button disabled=${!edited && !changed} onClick=${() => setReviewing(!reviewing)}>${reviewing ? 'hide changes' : 'review changes'}</button>
      <button class="primary" disabled=${busy || readOnly || (!edited && !changed)} onClick=${() => save(base.etag)}>
        ${changed ? 'save mine over it' : 'save'}
      </button>
      ${changed && made && made.length > 0 && html`<button disabled=${busy} onClick=${rebase}>make mine on the file as it is</button>`}
      <button disabled=${busy || (!edited && !changed)} onClick=${() => (changed || window.confirm('Discard the changes not saved yet?')) && load()}>${changed ? 'take the file as it is' : 'discard'}</button>
    </div>
    ${
      issues.length > 0 &&
      html`<ul class="issues" data-testid="flow-issues">${issues.map(
        (issue) =>
          html`<li><button class="at" onClick=${() => showInText(issue)}><code>${pathText(issue.path)}</code></button>: ${issue.message}</li>`,
      )}</ul>`
    }
    ${reviewing && html`<${DiffView} lines=${diff} testid="flow-diff" />`}
    <${FlowVersions} etag=${base.etag} text=${file.text} readOnly=${readOnly} notify=${notify} restored=${() => load()} />
  </section>`;
}
