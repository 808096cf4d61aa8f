// The log tab: the hub's log, live, on a socket of its own, opened while the tab shows, with
// ?log=<level> and a filter that matches no address (no parameter values on it). Scoped tokens
// may not read it.
import { useEffect, useState } from 'preact/hooks';
import { clock } from './format.js';
import { html } from './html.js';
/** @import { TargetedEvent } from 'preact' */
/** @import { LogLine, LogMessage } from '../lib/core/api-shapes.ts' */

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];
const KEPT_LINES = 1000;
export function Log() {
  const [level, setLevel] = useState('info');
  const [hubLevel, setHubLevel] = useState(/** @type {string | undefined} */ (undefined));
  const [lines, setLines] = useState(/** @type {LogLine[]} */ ([]));
  const [state, setState] = useState('connecting');
  useEffect(() => {
    const url = new URL(`/ws?log=${level}&filter=${encodeURIComponent('^$')}`, location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url);
    /** @type {LogLine[]} */
    let kept = [];
    let due = false;
    setLines([]);
    setState('connecting');
    ws.onopen = () => setState('live');
    // The hub's history comes first, up to 1,000 lines at once: shown once per frame, not once a line.
    ws.onmessage = (event) => {
      /** @type {LogMessage} */
      const data = JSON.parse(event.data);
      if ('logLevel' in data) setHubLevel(data.logLevel);
      if (!('log' in data)) return;
      kept.push(data.log);
      if (kept.length > KEPT_LINES) kept = kept.slice(-KEPT_LINES);
      if (due) return;
      due = true;
      requestAnimationFrame(() => {
        due = false;
        setLines([...kept]);
      });
    };
    ws.onclose = () => setState('closed: the hub refused or ended the log stream');
    return () => {
      // The stream of another level takes over: this one's last lines and its close are not news.
      ws.onopen = ws.onmessage = ws.onclose = null;
      ws.close();
    };
  }, [level]);
  // Lines below the hub's own level are never made (but those of connections with `debug: true`).
  const hidden = hubLevel !== undefined && LEVELS.indexOf(level) > LEVELS.indexOf(hubLevel);
  return html`<div class="log">
    <div class="search"><label>level <select aria-label="log level" value=${level} onChange=${(/** @type {TargetedEvent<HTMLSelectElement>} */ e) => setLevel(e.currentTarget.value)}>${LEVELS.map((l) => html`<option>${l}</option>`)}</select></label> <span class="muted">${state}</span>
    ${hidden ? html`<div class="hint">the hub logs at ${hubLevel}: ${level} lines come only from connections with <code>debug: true</code>; start the hub with <code>--log-level ${level}</code> to see them all</div>` : ''}</div>
    <ol class="lines">${lines.map((l) => html`<li class=${`level-${l.level}`}><span class="muted" data-testid="time">${clock(new Date(l.time), true)}</span> <b>${l.level}</b> ${l.connection ? `[${l.connection}] ` : ''}${l.msg}</li>`)}</ol>
  </div>`;
}
