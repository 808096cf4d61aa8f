// The first-run page (R-ST1): what a console signed in to a hub with no device yet opens on —
// add a device, let others in with tokens of their own, and where the flow file is.
import { useEffect, useState } from 'preact/hooks';
import { readFlow } from './api.js';
import { html } from './html.js';
/** @import { ConnectionInfo } from '../lib/core/api-shapes.ts' */

/** Types that serve the hub itself: a hub with only these talks to no device yet. */
const SERVING = new Set(['rest-api']);

/** True for a hub whose every connection serves it: a studio with nothing in it yet. @param {readonly ConnectionInfo[]} connections */
export const isNewStudio = (connections) => connections.length > 0 && connections.every((c) => SERVING.has(c.type));

/** @param {{ openFlow: () => void }} props */
export function FirstRun({ openFlow }) {
  const file = useFlowFile();
  const name = file.split(/[\\/]/).pop() || 'the flow file';
  return html`<section class="first-run" data-testid="first-run">
    <h2>A new studio</h2>
    <p>This hub serves the console and talks to no device yet. Three steps:</p>
    <ol>
      <li class="step">
        <b>Add a device.</b> Pick it from the catalogue — the Companion modules in the${' '}<code>modules</code>${' '}folder
        beside the flow file, the packages installed there, and the types built in (a router, a vision mixer,
        a tally display, a Stream Deck…) — then its settings, and what it should be called here.
        <button class="go" onClick=${openFlow}>add a device</button>
      </li>
      <li class="step">
        <b>Let others in.</b> Give each person, panel or script a token of its own — one that may
        only read, or write only what it should — in the flow tab, under ${' '}<code>api</code> → <code>tokens</code>.
        Yours edits everything: keep it to yourself.
      </li>
      <li class="step">
        <b>Keep the file.</b> Everything here is one file on the hub's machine: <code data-testid="flow-file">${file || '…'}</code>.
        The console keeps a version of each save (flow tab → versions); keep it in git too: <code>git init && git add ${name}</code>.
      </li>
    </ol>
  </section>`;
}

/** Where the flow file is, as the hub says beside its text. */
function useFlowFile() {
  const [file, setFile] = useState('');
  useEffect(() => {
    readFlow().then(
      (flow) => setFile(flow.file),
      () => setFile(''),
    );
  }, []);
  return file;
}
