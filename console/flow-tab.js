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
import { draftOf, readFlow, readFlowSchema, readVersion, readVersions, restoreVersion, saveFlow } from './api.js';
import { lineDiff } from './flow-diff.js';
import { CatalogueView } from './catalogue.js';
import { TriggerForm } from './triggers.js';
import { changedTriggerEdits, nodeAt, triggerAt, triggerEdits } from './trigger-rules.js';
import { ConnectionForm, ownSchemas, pipeSteps, RuleForm, typeSchemas, under } from './flow-forms.js';
import { HeldRuleForm } from './held-rule-form.js';
import { freeId, idOf, pathText } from './format.js';
import { FlowSource } from './flow-source.js';
import { html } from './html.js';
/** @import { ConnectionInfo, ParameterListing } from '../lib/core/api-shapes.ts' */
/** @import { CatalogueEntry, Draft, FlowEdit, FlowVersionListing, PlacedIssue, SaveAnswer } from '../lib/core/flow-shapes.ts' */
/** @import { DiffLine } from './flow-diff.js' */

// The flow tab's own shapes: the document as its views read it, what is being edited, the file as read.
/** @typedef {{ connections?: Record<string, Record<string, any>>, rules?: RuleNode[], plugins?: string[] }} FlowDocument */
/** @typedef {{ folder?: string, rules?: RuleNode[], source?: string, destinations?: string[], pipe?: Record<string, unknown>[], from?: string | Record<string, string>, to?: string | string[], expr?: string, description?: string, enabled?: boolean }} RuleNode */
/** @typedef {{ kind: 'connection', id: string, isNew: boolean, start?: Record<string, any> } | { kind: 'rule' | 'held', path: (string | number)[], list: (string | number)[], isNew: boolean } | { kind: 'catalogue' } | { kind: 'trigger', trigger?: import('./trigger-rules.js').Trigger, place?: import('./trigger-rules.js').TriggerPlace }} Editing */
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

/** When a version was saved: the time of day for today's, the date and time for older ones (24-hour clock). */
const clock = (/** @type {number} */ at) => {
  const when = new Date(at);
  const time = when.toLocaleTimeString(undefined, { hour12: false });
  return when.toDateString() === new Date().toDateString() ? time : `${when.toLocaleDateString()} ${time.slice(0, 5)}`;
};

/** A rule's one-line summary: source → destinations, and its steps; a rule that holds state: its sources → where, and its expression. @param {RuleNode} rule */
const ruleText = (rule) =>
  rule.from !== undefined
    ? `${readsOf(rule).join(', ')} → ${writesOf(rule).join(', ')}${rule.expr ? ` · ${rule.expr}` : ''}`
    : `${rule.source ?? '?'} → ${(rule.destinations ?? []).join(', ')}${rule.pipe?.length ? ` · ${rule.pipe.map((step) => Object.keys(step)[0]).join(', ')}` : ''}`;
/** The addresses a rule reads. @param {RuleNode} rule */
const readsOf = (rule) =>
  rule.from === undefined ? [rule.source ?? ''] : typeof rule.from === 'string' ? [rule.from] : Object.values(rule.from);
/** The addresses a rule writes. @param {RuleNode} rule */
const writesOf = (rule) =>
  rule.from === undefined ? (rule.destinations ?? []) : typeof rule.to === 'string' ? [rule.to] : (rule.to ?? []);

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
  const [versions, setVersions] = useState(/** @type {readonly FlowVersionListing[]} */ ([]));
  const [busy, setBusy] = useState(false);
  /**
   * The forms' edits since the file was read, to make again on the file as another save left
   * it; undefined once the text was typed by hand (typing is not an edit the hub can make again).
   */
  const [made, setMade] = useState(/** @type {readonly FlowEdit[] | undefined} */ ([]));
  /** What the save changed, kept with its version: what the forms did, in their words, which the editor may change. */
  const [note, setNote] = useState('');
  /** A kept version shown against the file as it is: what a restore would change. */
  const [comparing, setComparing] = useState(/** @type {{ version: number, text: string } | undefined} */ (undefined));
  /** Where the text view shows the cursor: a mistake's place, chosen in the list. */
  const [place, setPlace] = useState(/** @type {{ from: number, to: number } | undefined} */ (undefined));
  const types = useMemo(() => typeSchemas(schema), [schema]);
  const own = useMemo(() => ownSchemas(schema), [schema]);
  const steps = useMemo(() => pipeSteps(schema), [schema]);

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
    setComparing(undefined);
    setNote('');
    setMade([]);
    const draft = await draftOf(read.text, []);
    take(draft);
    const missing =
      then?.kind === 'connection' && !then.isNew && !(/** @type {FlowDocument | undefined} */ (draft.document)?.connections?.[then.id]);
    if (missing) notify(`${then.id} is not in the flow file (a code flow or another hub runs it): nothing to edit here`, true);
    else if (then !== undefined) setEditing(then);
    setVersions(await readVersions());
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
      const draft = await draftOf(text, edits);
      const refused = draft.issues.filter((issue) => under(issue.path, mine));
      if (refused.length > 0) {
        notify(`not changed: ${refused.length === 1 ? 'a mistake' : `${refused.length} mistakes`}, shown at the fields`, true);
        return refused;
      }
      if (draft.text === text) {
        setEditing(undefined);
        notify('nothing to change: the flow already says that', false);
        return [];
      }
      take(draft);
      setMade((before) => before && [...before, ...edits]);
      setNote((before) => (before === '' ? done : `${before}; ${done}`).slice(0, 200));
      setEditing(undefined);
      setReviewing(true);
      // What `patchbay validate` would warn of in this part (peers on every machine may press the keys): said now, not found later.
      const warned = (draft.warnings ?? []).filter((warning) => under(warning.path, mine));
      if (warned.length > 0)
        notify(
          `${done}, not saved yet; mind: ${warned.map((warning) => `${pathText(warning.path)}: ${warning.message}`).join('; ')}`,
          true,
        );
      else notify(`${done}, not saved yet: the changes are below; save to apply them`, false);
      return [];
    } catch (error) {
      notify(`not changed: ${/** @type {Error} */ (error).message}`, true);
      return [];
    }
  };

  /** The edits that make sure a list or map is there before something is put in it. */
  const ensure = (/** @type {'connections' | 'rules'} */ key) =>
    /** @type {FlowEdit[]} */ (document?.[key] === undefined ? [{ op: 'set', path: [key], value: key === 'rules' ? [] : {} }] : []);

  /** Sends the edit on top of `etag`; what the hub said is shown. @param {string} etag */
  const save = async (etag) => {
    setBusy(true);
    try {
      const answer = await saveFlow(text, etag, note);
      if (answer.ok) {
        // Said once the tab shows the file as saved: what is opened after the notice stays open.
        await load();
        notify(`saved and applied: version ${answer.version}`, false);
      } else if (answer.code === 'PB_FLOW_CHANGED') {
        setChanged(await readFlow());
        setVersions(await readVersions());
        setReviewing(true);
        notify(
          `the flow file changed since you opened it: nothing was saved. Your edit is kept; the changes below are between the file now and your edit${made?.length ? ', and the forms can make yours again on the file as it is' : ''}`,
          true,
        );
      } else if (answer.issues?.length) {
        // Placed in the text, for the marks and the forms' fields.
        take(await draftOf(text, []));
        const count = answer.issues.length;
        notify(`not saved: ${count === 1 ? 'a mistake' : `${count} mistakes`}, listed below (${answer.code})`, true);
      } else {
        setIssues([]);
        notify(`not saved: ${answer.error} (${answer.code})`, true);
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

  /** Shows what bringing back `version` would change, or hides it. @param {number} version */
  const compare = async (version) => {
    if (comparing?.version === version) return setComparing(undefined);
    const read = await readVersion(version).catch((/** @type {Error} */ error) => ({ status: error.message }));
    if (!('text' in read)) return notify(`version ${version} could not be read: ${read.status}`, true);
    setComparing({ version, text: read.text });
  };

  /** @param {number} version */
  const restore = async (version) => {
    if (!window.confirm(`Bring back version ${version}? The flow as it is now is kept as a version too.`)) return;
    /** @type {SaveAnswer} */
    let answer;
    try {
      answer = await restoreVersion(version);
    } catch (error) {
      return notify(`not brought back: ${/** @type {Error} */ (error).message}`, true);
    }
    notify(
      answer.ok ? `version ${version} brought back (now version ${answer.version})` : `not brought back: ${answer.error} (${answer.code})`,
      !answer.ok,
    );
    if (answer.ok) await load();
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

  const ids = Object.keys(document?.connections ?? {});
  const live = new Map(connections.map((c) => [c.id, c]));
  const base = changed ?? file;
  const diff = reviewing ? lineDiff(base.text, text) : [];

  /** @type {any} */
  let body;
  if (editing?.kind === 'catalogue') {
    body = html`<${CatalogueView}
      pick=${(/** @type {CatalogueEntry} */ entry) =>
        setEditing({ kind: 'connection', id: freeId(idOf(entry.name, 'device'), ids), isNew: true, start: { ...entry.connection } })}
      list=${(/** @type {CatalogueEntry} */ entry) =>
        change(
          document?.plugins === undefined
            ? [{ op: 'set', path: ['plugins'], value: [entry.package] }]
            : [{ op: 'add', path: ['plugins'], value: entry.package }],
          ['plugins'],
          `package ${entry.package} added to plugins`,
        )}
      cancel=${() => setEditing(undefined)} />`;
  } else if (editing?.kind === 'connection') {
    const value = editing.isNew
      ? (editing.start ?? { type: types.has('dummy') ? 'dummy' : ([...types.keys()][0] ?? '') })
      : (document?.connections?.[editing.id] ?? {});
    body = html`<${ConnectionForm} key=${editing.id} id=${editing.id} value=${value} types=${types} own=${own} isNew=${editing.isNew} addresses=${addresses}
      taken=${ids}
      apply=${(/** @type {string} */ id, /** @type {Record<string, any>} */ settings) =>
        change(
          [
            ...ensure('connections'),
            ...(!editing.isNew && id !== editing.id ? [/** @type {FlowEdit} */ ({ op: 'remove', path: ['connections', editing.id] })] : []),
            { op: 'set', path: ['connections', id], value: settings },
          ],
          ['connections', id],
          editing.isNew ? `connection ${id} added` : `connection ${id} changed`,
        )}
      cancel=${() => setEditing(undefined)} />`;
  } else if (editing?.kind === 'trigger') {
    const place = editing.place;
    body = html`<${TriggerForm} key=${place ? JSON.stringify(place.rule) : 'new'} addresses=${addresses} initial=${editing.trigger}
      apply=${(/** @type {import('./trigger-rules.js').Trigger} */ trigger) =>
        place
          ? change(changedTriggerEdits(trigger, place, document ?? {}), ['rules'], `trigger "${trigger.name}" changed`)
          : change(triggerEdits(trigger, document ?? {}), ['rules'], `trigger "${trigger.name}" added`)}
      cancel=${() => setEditing(undefined)} />`;
  } else if (editing?.kind === 'rule' || editing?.kind === 'held') {
    const value = editing.isNew ? {} : /** @type {RuleNode} */ (nodeAt(document, editing.path) ?? {});
    const form = editing.kind === 'held' ? HeldRuleForm : RuleForm;
    body = html`<${form} path=${editing.path} value=${value} steps=${steps} addresses=${addresses}
      apply=${(/** @type {RuleNode} */ rule) =>
        change(
          editing.isNew
            ? [...(editing.list.length === 1 ? ensure('rules') : []), { op: 'add', path: editing.list, value: rule }]
            : [{ op: 'set', path: editing.path, value: rule }],
          editing.path,
          editing.isNew ? 'rule added' : 'rule changed',
        )}
      cancel=${() => setEditing(undefined)} />`;
  } else if (view === 'connections')
    body = html`${
      (edited || changed) &&
      html`<p class="help">The rows are the flow with your changes, not saved yet; each status is the running hub's.</p>`
    }<table class="flow-connections" data-testid="flow-connections">
        <thead><tr><th>id</th><th>type</th><th>status</th><th></th></tr></thead>
        <tbody>${Object.entries(document?.connections ?? {}).map(([id, settings]) => {
          const disabled = settings.enabled === false;
          const status = live.get(id)?.status ?? 'not saved yet';
          return html`<tr class=${disabled ? 'disabled' : ''}>
            <td>${id}</td><td>${settings.type}</td><td><span class=${`badge ${disabled ? 'disabled' : status.replaceAll(' ', '-')}`}>${disabled ? 'disabled' : status}</span></td>
            <td class="row-actions">
              <button disabled=${readOnly} onClick=${() => setEditing({ kind: 'connection', id, isNew: false })}>edit</button>
              <button disabled=${readOnly} onClick=${() =>
                change(
                  [
                    disabled
                      ? { op: 'remove', path: ['connections', id, 'enabled'] }
                      : { op: 'set', path: ['connections', id, 'enabled'], value: false },
                  ],
                  ['connections', id],
                  `connection ${id} ${disabled ? 'enabled' : 'disabled'}`,
                )}>${disabled ? 'enable' : 'disable'}</button>
              <button disabled=${readOnly} onClick=${() => {
                // A rule naming a connection the file does not have is a mistake of the file: those go with it, said first.
                const naming = rulesNaming(document?.rules ?? [], ['rules'], id);
                const said = naming.map(({ rule }) => `  ${ruleText(rule)}`).join('\n');
                if (
                  !window.confirm(
                    `Remove connection ${id} from the flow?${naming.length ? `\n${naming.length === 1 ? 'The rule that names it goes' : `The ${naming.length} rules that name it go`} with it:\n${said}` : ''}`,
                  )
                )
                  return;
                change(
                  [
                    // The last first, so that the paths of the others stay as they are.
                    ...naming.reverse().map(({ path }) => /** @type {FlowEdit} */ ({ op: 'remove', path })),
                    { op: 'remove', path: ['connections', id] },
                  ],
                  ['connections', id],
                  `connection ${id} removed${naming.length ? `, with the ${naming.length === 1 ? 'rule' : `${naming.length} rules`} that named it` : ''}`,
                );
              }}>remove</button>
            </td>
          </tr>`;
        })}</tbody>
      </table>
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
    <h2>versions</h2>
    ${
      versions.length === 0
        ? html`<p class="empty">none kept yet: each save keeps the file as it was and as it is saved (the last 20)</p>`
        : html`<table class="versions" data-testid="flow-versions">
            <thead><tr><th>version</th><th>saved</th><th>what changed</th><th>by</th><th>bytes</th><th></th></tr></thead>
            <tbody>${[...versions].reverse().map(
              (v) => html`<tr>
                <td>${v.version}</td><td>${clock(v.savedAt)}</td><td class="note">${v.note ?? (v.by === 'on disk' ? '(the file as the save found it)' : '')}</td><td>${v.by}</td><td>${v.bytes}</td>
                <td class="row-actions">${
                  v.current
                    ? html`<span class="current">current</span>`
                    : html`<button aria-pressed=${comparing?.version === v.version} onClick=${() => compare(v.version)}>changes</button>
                        <button disabled=${readOnly} onClick=${() => restore(v.version)}>restore</button>`
                }</td>
              </tr>`,
            )}</tbody>
          </table>`
    }
    ${
      comparing &&
      html`<p>Bringing back version ${comparing.version} would change the file as it is now like this:</p>
        <${DiffView} lines=${lineDiff(file.text, comparing.text)} testid="flow-version-diff" />`
    }
  </section>`;
}

/**
 * Lines removed and added, with the unchanged ones around them.
 * @param {{ lines: DiffLine[], testid: string }} props
 */
function DiffView({ lines, testid }) {
  return html`<pre class="diff" data-testid=${testid}>${
    lines.length === 0
      ? 'no change'
      : lines.map(
          (line) =>
            html`<span class=${`line ${line.kind === '+' ? 'added' : line.kind === '-' ? 'removed' : line.kind === '…' ? 'gap' : ''}`}>${line.kind === '…' ? '…' : `${line.kind} ${line.text}`}</span>`,
        )
  }</pre>`;
}

/**
 * The rules (at any depth of folders) whose source or a destination is a parameter of connection `id`, with their paths, in order.
 * @param {RuleNode[]} nodes @param {(string | number)[]} path @param {string} id
 * @returns {{ rule: RuleNode, path: (string | number)[] }[]}
 */
function rulesNaming(nodes, path, id) {
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
 * @param {{ nodes: RuleNode[], path: (string | number)[], readOnly: boolean, edit: (editing: Editing) => void,
 *   change: (edits: readonly FlowEdit[], mine: (string | number)[], done: string) => Promise<readonly PlacedIssue[]> }} props
 */
function RuleList({ nodes, path, readOnly, edit, change }) {
  const toggle = (/** @type {RuleNode} */ node, /** @type {(string | number)[]} */ at, /** @type {string} */ what) =>
    change(
      [node.enabled === false ? { op: 'remove', path: [...at, 'enabled'] } : { op: 'set', path: [...at, 'enabled'], value: false }],
      at,
      `${what} ${node.enabled === false ? 'enabled' : 'disabled'}`,
    );
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
