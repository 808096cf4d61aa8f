// @ts-check
// The operator console (R-U1): connections, the parameter tree with live values and typed
// editors, problems. Data comes from the public API only: GET /connections, /parameters,
// /problems, and one WebSocket (?batch=1 for 1,000 changes/s, ?events=1 to follow reloads).
import { h, render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';
/** @import { RefObject, TargetedEvent } from 'preact' */

// The hub's answers, as its public API documents them (the console trusts its own hub).
/** @typedef {'S' | 'B' | 'I' | 'F' | 'T'} ValueType */
/** @typedef {'read-only' | 'write-only' | 'read-write'} Access */
/** @typedef {string | boolean | number} Value */
/**
 * An entry of `GET /parameters`: the value when known, who changed it last and when.
 * @typedef {{ p: string, type: ValueType, access: Access, v?: Value, by?: string, at?: string }} Listing
 */
/**
 * An entry of `GET /connections`.
 * @typedef {{
 *   id: string, type: string, description: string, location: string, group: string,
 *   status: 'starting' | 'ok' | 'degraded' | 'failed' | 'disabled', reason: string, code?: string,
 *   details?: Record<string, unknown>,
 * }} Connection
 */
/**
 * An entry of `GET /problems`: `id` is the connection's, the code flow's or the rule's name.
 * @typedef {{ source: 'connection' | 'code-flow' | 'rule' | 'state', id: string, code: string, message: string }} Problem
 */
/**
 * An entry of `GET /rules`, in the order the rules run; `pipe` as written (`[{ scale: [0, 1, 0, 100] }]`).
 * @typedef {{ path: string, name: string, source: string, destinations: string[], pipe: Record<string, unknown>[] }} Rule
 */
/** @typedef {{ '/connections': Connection[], '/parameters': Listing[], '/problems': Problem[], '/rules': Rule[] }} Answers */
/**
 * What the WebSocket sends: a change (its value in wire form, always a string), the answer
 * to a write that failed, or (with ?events=1) word that the parameters changed.
 * @typedef {{ p: string, v: string }} Change
 * @typedef {{ p: string | null, error: string, code: string }} Refusal
 * @typedef {{ event: 'parameters' }} ParametersEvent
 * @typedef {Change | Refusal | ParametersEvent} ServerItem
 */
/**
 * A line of the hub's log, on a socket opened with ?log=<level>.
 * @typedef {{ level: string, time: number, connection?: string, msg: string }} LogLine
 */
/**
 * What the console knows of a value: as `GET /parameters` listed it, or as the WebSocket
 * last sent it (`live`, without who wrote it).
 * @typedef {{ v: Value | undefined, by: string | undefined, at: string | undefined, live?: never }} ListedValue
 * @typedef {{ v: string, at: string, live: true, by?: never }} LiveValue
 */
/** @typedef {{ text: string, error: boolean }} Notice */
/** @typedef {(address: string, v: Value | null) => void} Write */

const html = htm.bind(h);
const ROW = 34; // px: every row of the parameter list has this height (windowing relies on it)

// Live values live outside preact: a change updates this map, and one render per animation
// frame shows whatever is visible, however many changes arrived meanwhile.
/** @type {Map<string, ListedValue | LiveValue>} */
const values = new Map();
/** @type {WebSocket | undefined} */
let socket;
let redraw = () => {};
let due = false;
const schedule = () => {
  if (due) return;
  due = true;
  requestAnimationFrame(() => {
    due = false;
    redraw();
  });
};

/**
 * @template {keyof Answers} P
 * @param {P} path
 * @param {string} [query] `?filter=…`
 * @returns {Promise<Answers[P]>}
 */
async function getJson(path, query = '') {
  const response = await fetch(path + query, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`GET ${path + query}: ${response.status} ${(await response.text()).slice(0, 200)}`);
  return response.json();
}

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * The items of a message of the console's socket: one, or an array of them (?batch=1).
 * @param {string} data
 * @returns {ServerItem[]}
 */
function itemsOf(data) {
  const parsed = JSON.parse(data);
  return Array.isArray(parsed) ? parsed : [parsed];
}

function App() {
  const [connections, setConnections] = useState(/** @type {Connection[]} */ ([]));
  const [parameters, setParameters] = useState(/** @type {Listing[]} */ ([]));
  const [problems, setProblems] = useState(/** @type {Problem[]} */ ([]));
  const [rules, setRules] = useState(/** @type {Rule[]} */ ([]));
  const [link, setLink] = useState('connecting');
  const [notice, setNotice] = useState(/** @type {Notice | undefined} */ (undefined));
  const [search, setSearch] = useState('');
  const [matching, setMatching] = useState(/** @type {Set<string> | undefined} */ (undefined)); // the addresses of a /regex/ search
  const [tab, setTab] = useState('parameters');
  const [, setFrame] = useState(0);
  redraw = () => setFrame((n) => n + 1);

  const reload = async () => {
    try {
      const [c, p, pr, r] = await Promise.all([getJson('/connections'), getJson('/parameters'), getJson('/problems'), getJson('/rules')]);
      for (const item of p) values.set(item.p, { v: item.v, by: item.by, at: item.at });
      setConnections(c);
      setParameters(p);
      setProblems(pr);
      setRules(r);
    } catch (error) {
      setNotice({ text: messageOf(error), error: true });
    }
  };

  useEffect(() => {
    let delay = 500;
    let stopped = false;
    const connect = () => {
      const url = new URL('/ws?batch=1&events=1', location.href);
      url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(url);
      socket.onopen = () => {
        delay = 500;
        setLink('live');
        void reload();
      };
      socket.onmessage = (event) => {
        for (const item of itemsOf(event.data)) {
          if ('event' in item) void reload();
          else if ('error' in item) setNotice({ text: `${item.p ?? 'write'}: ${item.error} (${item.code})`, error: true });
          // The stream does not say who wrote: that is known again at the next listing.
          else values.set(item.p, { v: item.v, at: new Date().toISOString(), live: true });
        }
        schedule();
      };
      socket.onclose = () => {
        setLink('disconnected');
        if (!stopped) setTimeout(connect, (delay = Math.min(delay * 2, 10_000)));
      };
    };
    connect();
    // Connection status changes without parameters coming or going: look again now and then.
    const timer = setInterval(() => getJson('/connections').then(setConnections, () => {}), 3000);
    return () => {
      stopped = true;
      clearInterval(timer);
      socket?.close();
    };
  }, []);

  // "/expression/" searches with the hub's own ?filter= (RE2, as wsFilters); other text matches anywhere.
  useEffect(() => {
    const expression = /^\/(.+)\/$/.exec(search)?.[1];
    if (expression === undefined) return setMatching(undefined);
    const timer = setTimeout(() => {
      getJson('/parameters', `?filter=${encodeURIComponent(expression)}`).then(
        (list) => setMatching(new Set(list.map((item) => item.p))),
        (error) => setNotice({ text: messageOf(error), error: true }),
      );
    }, 200);
    return () => clearTimeout(timer);
  }, [search]);

  /** @type {Write} */
  const write = (address, v) => {
    if (socket?.readyState !== WebSocket.OPEN) {
      setNotice({ text: `not connected: ${address} was not written`, error: true });
      return;
    }
    socket.send(JSON.stringify({ p: address, v }));
    setNotice({ text: `sent ${address} = ${v === null ? 'fire' : JSON.stringify(v)}`, error: false });
  };

  return html`
    <header>
      <h1>patchbay</h1>
      <span class=${`link ${link}`} data-testid="link">${link}</span>
      <nav>
        ${['parameters', 'connections', 'rules', 'problems', 'log'].map(
          (name) =>
            html`<button class=${tab === name ? 'on' : ''} onClick=${() => setTab(name)}>${name}${name === 'problems' && problems.length ? ` (${problems.length})` : ''}</button>`,
        )}
      </nav>
    </header>
    <p class=${`notice ${notice?.error ? 'error' : ''}`} role="status">${notice?.text ?? ''}</p>
    ${tab === 'connections' && html`<${Connections} connections=${connections} />`}
    ${tab === 'rules' && html`<${Rules} rules=${rules} problems=${problems} />`}
    ${tab === 'problems' && html`<${Problems} problems=${problems} />`}
    ${tab === 'log' && html`<${Log} />`}
    ${
      tab === 'parameters' &&
      html`<div class="search"><input type="search" placeholder="search, or /expression/" aria-label="search parameters" value=${search} onInput=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => setSearch(e.currentTarget.value)} /></div>
      <${Tree} parameters=${parameters} connections=${connections} search=${search} matching=${matching} write=${write} />`
    }
  `;
}

/** @param {{ connections: Connection[] }} props */
function Connections({ connections }) {
  return html`<ul class="connections">
    ${connections.map(
      (c) => html`<li class=${`status-${c.status}`} data-connection=${c.id}>
        <div class="line"><b>${c.id}</b> <span class="type">${c.type}</span> <span class=${`badge ${c.status}`}>${c.status}</span></div>
        ${c.reason && html`<div class="reason">${c.reason}${c.code ? ` (${c.code})` : ''}</div>`}
        ${c.description && html`<div>${c.description}</div>`}
        ${(c.location || c.group) && html`<div class="muted">${[c.location, c.group].filter(Boolean).join(' · ')}</div>`}
        ${c.details && html`<div class="muted details">${details(c.details)}</div>`}
      </li>`,
    )}
  </ul>`;
}

// A connection's details, one level of nesting flattened ("webSockets clients: 2"), lists
// joined ("shared: stage, desk"), anything deeper as key: value pairs.
/** @type {(v: unknown) => string} */
const text = (v) =>
  Array.isArray(v)
    ? v.map(text).join(', ')
    : v && typeof v === 'object'
      ? Object.entries(v)
          .map(([k, x]) => `${k}: ${text(x)}`)
          .join(', ')
      : String(v);
/** @param {Record<string, unknown>} d */
const details = (d) =>
  Object.entries(d)
    .flatMap(([k, v]) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.entries(v).map(([k2, v2]) => `${k} ${k2}: ${text(v2)}`)
        : [`${k}: ${text(v)}`],
    )
    .join(' · ');

// The flow's enabled rules in the order they run, each with the problems reported for it.
/** @param {{ rules: Rule[], problems: Problem[] }} props */
function Rules({ rules, problems }) {
  if (!rules.length) return html`<p class="empty">No rules run in this flow (or none this login may read).</p>`;
  /** @param {Record<string, unknown>} s */
  const step = (s) =>
    Object.entries(s)
      .map(([name, argument]) => `${name} ${JSON.stringify(argument)}`)
      .join('');
  return html`<ul class="rules">${rules.map((r) => {
    const own = problems.filter((p) => p.source === 'rule' && p.id === r.name);
    return html`<li class=${own.length ? 'failing' : ''} data-rule=${r.path}>
      <b>${r.name}</b>
      <div class="wiring"><code>${r.source}</code> → ${r.destinations.map((d, i) => html`${i ? ', ' : ''}<code>${d}</code>`)}</div>
      ${r.pipe.length ? html`<div class="pipe">${r.pipe.map(step).join(' | ')}</div>` : ''}
      ${own.map((p) => html`<div class="problem"><span class="code">${p.code}</span> ${p.message}</div>`)}
    </li>`;
  })}</ul>`;
}

/** @param {{ problems: Problem[] }} props */
function Problems({ problems }) {
  if (!problems.length) return html`<p class="empty">No problems: every rule and code flow runs.</p>`;
  return html`<ul class="problems">${problems.map((p) => html`<li><b>${p.source ?? ''} ${p.id ?? ''}</b> <span class="code">${p.code ?? ''}</span><div>${p.message}</div></li>`)}</ul>`;
}

// The hub's log, live: its own socket, opened while the tab shows, with ?log=<level> and a
// filter that matches no address (no parameter values on it). Scoped tokens may not read it.
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];
function Log() {
  const [level, setLevel] = useState('info');
  const [lines, setLines] = useState(/** @type {LogLine[]} */ ([]));
  const [state, setState] = useState('connecting');
  useEffect(() => {
    const url = new URL(`/ws?log=${level}&filter=${encodeURIComponent('^$')}`, location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url);
    /** @type {LogLine[]} */
    let kept = [];
    setLines([]);
    setState('connecting');
    ws.onopen = () => setState('live');
    ws.onmessage = (event) => {
      /** @type {{ log?: LogLine }} */
      const data = JSON.parse(event.data);
      if (!data.log) return;
      kept = [...kept.slice(-499), data.log];
      setLines(kept);
    };
    ws.onclose = () => setState('closed: the hub refused or ended the log stream');
    return () => {
      // The stream of another level takes over: this one's last lines and its close are not news.
      ws.onopen = ws.onmessage = ws.onclose = null;
      ws.close();
    };
  }, [level]);
  return html`<div class="log">
    <div class="search"><label>level <select aria-label="log level" value=${level} onChange=${(/** @type {TargetedEvent<HTMLSelectElement>} */ e) => setLevel(e.currentTarget.value)}>${LEVELS.map((l) => html`<option>${l}</option>`)}</select></label> <span class="muted">${state}</span></div>
    <ol class="lines">${lines.map((l) => html`<li class=${`level-${l.level}`}><span class="muted">${new Date(l.time).toLocaleTimeString()}</span> <b>${l.level}</b> ${l.connection ? `[${l.connection}] ` : ''}${l.msg}</li>`)}</ol>
  </div>`;
}

// The tree flattened into rows (a connection's header, then its parameters), of which only
// those in view are in the DOM: 50,000 parameters cost about 40 rows of DOM.
/**
 * @param {{ parameters: Listing[], connections: Connection[], search: string, matching: Set<string> | undefined, write: Write }} props
 */
function Tree({ parameters, connections, search, matching, write }) {
  const [collapsed, setCollapsed] = useState(/** @type {Set<string>} */ (new Set()));
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  /** @type {RefObject<HTMLDivElement | null>} */
  const box = useRef(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const rows = useMemo(() => {
    const text = matching ? '' : search.toLowerCase();
    /** @type {Map<string, Listing[]>} */
    const groups = new Map();
    for (const p of parameters) {
      if (matching ? !matching.has(p.p) : text && !p.p.toLowerCase().includes(text)) continue;
      const id = p.p.slice(0, p.p.indexOf('/'));
      const list = groups.get(id);
      if (list) list.push(p);
      else groups.set(id, [p]);
    }
    const status = new Map(connections.map((c) => [c.id, c.status]));
    /** @type {({ group: string, count: number, status: Connection['status'] | undefined } | Listing)[]} */
    const out = [];
    for (const [id, list] of groups) {
      out.push({ group: id, count: list.length, status: status.get(id) });
      if (!collapsed.has(id)) for (const p of list) out.push(p);
    }
    return out;
  }, [parameters, connections, search, matching, collapsed]);
  const first = Math.max(0, Math.floor(scrollTop / ROW) - 5);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW) + 5);
  /** @param {string} id */
  const toggle = (id) => {
    const next = new Set(collapsed);
    next.has(id) ? next.delete(id) : next.add(id);
    setCollapsed(next);
  };
  return html`<div class="tree" ref=${box} onScroll=${(/** @type {TargetedEvent<HTMLDivElement>} */ e) => setScrollTop(e.currentTarget.scrollTop)} data-rows=${rows.length}>
    <div style=${`height:${rows.length * ROW}px;position:relative`}>
      ${rows.slice(first, last).map((row, i) => {
        const top = (first + i) * ROW;
        if ('group' in row)
          return html`<div class="row group" style=${`top:${top}px`} key=${`g:${row.group}`} onClick=${() => toggle(row.group)}>
            <span>${collapsed.has(row.group) ? '▸' : '▾'} <b>${row.group}</b> <span class="muted">${row.count}</span></span>
            ${row.status && html`<span class=${`badge ${row.status}`}>${row.status}</span>`}
          </div>`;
        return html`<${Row} key=${row.p} top=${top} parameter=${row} write=${write} />`;
      })}
    </div>
  </div>`;
}

/** @type {ListedValue} */
const UNKNOWN = { v: undefined, by: undefined, at: undefined };

/** @param {{ parameter: Listing, top: number, write: Write }} props */
function Row({ parameter, top, write }) {
  const { p, type, access } = parameter;
  const state = values.get(p) ?? UNKNOWN;
  const v = state.v;
  const shown =
    type === 'T' ? (state.live ? `fired ${new Date(state.at).toLocaleTimeString()}` : '—') : v === undefined ? 'unknown' : String(v);
  const when = state.at ? `${state.by ? `by ${state.by}, ` : ''}${new Date(state.at).toLocaleString()}` : '';
  return html`<div class="row" style=${`top:${top}px`} data-address=${p}>
    <span class="address" title=${p}>${p.slice(p.indexOf('/') + 1)}</span>
    <span class="type">${type}</span>
    <span class=${`value ${v === undefined && type !== 'T' ? 'unknown' : ''}`} data-testid="value" title=${when ? `last changed ${when}` : ''}>${shown}</span>
    <span class="edit">${access === 'read-only' ? html`<span class="muted">read-only</span>` : html`<${Editor} p=${p} type=${type} v=${v} write=${write} />`}</span>
    <span class="by muted">${state.by ?? ''}</span>
  </div>`;
}

/** @param {{ p: string, type: ValueType, v: Value | undefined, write: Write }} props */
function Editor({ p, type, v, write }) {
  const [draft, setDraft] = useState(/** @type {string | undefined} */ (undefined));
  if (type === 'T') return html`<button aria-label=${`fire ${p}`} onClick=${() => write(p, null)}>fire</button>`;
  if (type === 'B')
    return html`<label class="toggle"><input type="checkbox" aria-label=${`set ${p}`} checked=${v === true || v === 'true'} onChange=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => write(p, e.currentTarget.checked)} /><span></span></label>`;
  const number = type === 'I' || type === 'F';
  /** @param {Event} e */
  const submit = (e) => {
    e.preventDefault();
    if (draft === undefined) return;
    write(p, number ? Number(draft) : draft);
    setDraft(undefined);
  };
  return html`<form onSubmit=${submit}>
    <input aria-label=${`new value for ${p}`} type=${number ? 'number' : 'text'} step=${type === 'F' ? 'any' : '1'} value=${draft ?? (v === undefined ? '' : String(v))} onInput=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => setDraft(e.currentTarget.value)} />
    <button>set</button>
  </form>`;
}

const app = document.getElementById('app');
if (!app) throw new Error('the page has no #app element');
render(html`<${App} />`, app);
