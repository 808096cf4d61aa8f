// The flow tab's text view: the flow file's text in CodeMirror (flow-codemirror.js, loaded
// when the view first opens), with completion from the flow-file schema and the hub's marks.
// The text it holds is the tab's: a form's change or a load replaces it, a keystroke goes
// back up. Where CodeMirror cannot load, a plain text box does the same work without them.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.js';
/** @import { PlacedIssue } from '../lib/core/flow-shapes.ts' */
/** @typedef {import('./flow-codemirror.js')} Editor */

/**
 * @param {{ text: string, setText: (text: string) => void, readOnly: boolean, schema: Record<string, any>,
 *   check: (text: string) => Promise<readonly PlacedIssue[]>, place: { from: number, to: number } | undefined }} props
 */
export function FlowSource({ text, setText, readOnly, schema, check, place }) {
  const host = useRef(/** @type {HTMLDivElement | null} */ (null));
  const view = useRef(/** @type {import('@codemirror/view').EditorView | null} */ (null));
  const editor = useRef(/** @type {Editor | null} */ (null));
  const [failed, setFailed] = useState(false);
  /** The last text the editor sent up. */
  const sent = useRef(/** @type {string | undefined} */ (undefined));
  // The editor's callbacks outlive a render: they read the props of the latest one.
  const latest = useRef({ setText, check, schema, place });
  latest.current = { setText, check, schema, place };

  useEffect(() => {
    let gone = false;
    import('./flow-codemirror.js').then(
      (loaded) => {
        if (gone || !host.current) return;
        editor.current = loaded;
        view.current = loaded.createEditor({
          parent: host.current,
          text,
          readOnly,
          schema: () => latest.current.schema,
          onChange: (changed) => {
            sent.current = changed;
            latest.current.setText(changed);
          },
          check: (checked) => latest.current.check(checked),
        });
        const { place: asked } = latest.current;
        if (asked) loaded.select(view.current, asked.from, asked.to);
      },
      () => setFailed(true),
    );
    return () => {
      gone = true;
      view.current?.destroy();
    };
  }, []);

  // A text from elsewhere (a form's change, a load) replaces the editor's; the editor's own,
  // come back as the tab's, does not: typing may have gone on since it was sent.
  useEffect(() => {
    const shown = view.current;
    if (!shown || text === sent.current) return;
    if (shown.state.doc.toString() !== text) shown.dispatch({ changes: { from: 0, to: shown.state.doc.length, insert: text } });
  }, [text]);

  useEffect(() => {
    if (place && view.current && editor.current) editor.current.select(view.current, place.from, place.to);
  }, [place]);

  if (failed)
    return html`<textarea class="flow-text" data-testid="flow-text" aria-label="the flow file" spellcheck=${false} wrap="off"
      readonly=${readOnly} value=${text} onInput=${(/** @type {Event} */ e) => setText(/** @type {HTMLTextAreaElement} */ (e.currentTarget).value)}></textarea>`;
  return html`<div class="flow-source" ref=${host}></div>`;
}
