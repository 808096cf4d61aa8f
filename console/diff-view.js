// A change shown as lines removed and added, with the unchanged ones around them.
import { html } from './html.js';
/** @import { DiffLine } from './flow-diff.js' */

/** @param {{ lines: DiffLine[], testid: string }} props */
export function DiffView({ lines, testid }) {
  return html`<pre class="diff" data-testid=${testid}>${
    lines.length === 0
      ? 'no change'
      : lines.map(
          (line) =>
            html`<span class=${`line ${line.kind === '+' ? 'added' : line.kind === '-' ? 'removed' : line.kind === '…' ? 'gap' : ''}`}>${line.kind === '…' ? '…' : `${line.kind} ${line.text}`}</span>`,
        )
  }</pre>`;
}
