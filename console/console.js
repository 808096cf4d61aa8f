// The operator console (R-U1): connections, the parameter tree with live values and typed
// editors, problems. Data comes from the public API only: GET /connections, /parameters,
// /problems, and one WebSocket (?batch=1 for 1,000 changes/s, ?events=1 to follow reloads).
import { h, render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';

const html = htm.bind(h);
const ROW = 34; // px: every row of the parameter list has this height (windowing relies on it)

// Live values live outside preact: a change updates this map, and one render per animation
// frame shows whatever is visible, however many changes arrived meanwhile.
const values = new Map(); // address → {v, by, at}
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

async function getJson(path) {
  const response = await fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${(await response.text()).slice(0, 200)}`);
  return response.json();
}

function App() {
  const [connections, setConnections] = useState([]);
  const [parameters, setParameters] = useState([]);
  const [problems, setProblems] = useState([]);
  const [rules, setRules] = useState([]);
  const [link, setLink] = useState('connecting');
  const [notice, setNotice] = useState(undefined); // {text, error}
  const [search, setSearch] = useState('');
  const [matching, setMatching] = useState(undefined); // Set of addresses for /regex/ searches
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
      setNotice({ text: String(error.message ?? error), error: true });
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
        const data = JSON.parse(event.data);
        for (const item of Array.isArray(data) ? data : [data]) {
          if (item.event === 'parameters') void reload();
          else if (item.error) setNotice({ text: `${item.p ?? 'write'}: ${item.error} (${item.code})`, error: true });
          // The stream does not say who wrote: that is known again at the next listing.
          else if (item.p !== undefined) values.set(item.p, { v: item.v, at: new Date().toISOString(), live: true });
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
    const regex = /^\/(.+)\/$/.exec(search);
    if (!regex) return setMatching(undefined);
    const timer = setTimeout(() => {
      getJson(`/parameters?filter=${encodeURIComponent(regex[1])}`).then(
        (list) => setMatching(new Set(list.map((item) => item.p))),
        (error) => setNotice({ text: String(error.message ?? error), error: true }),
      );
    }, 200);
    return () => clearTimeout(timer);
  }, [search]);

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
      html`<div class="search"><input type="search" placeholder="search, or /expression/" aria-label="search parameters" value=${search} onInput=${(e) => setSearch(e.target.value)} /></div>
      <${Tree} parameters=${parameters} connections=${connections} search=${search} matching=${matching} write=${write} />`
    }
  `;
}

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
const text = (v) =>
  Array.isArray(v)
    ? v.map(text).join(', ')
    : v && typeof v === 'object'
      ? Object.entries(v)
          .map(([k, x]) => `${k}: ${text(x)}`)
          .join(', ')
      : String(v);
const details = (d) =>
  Object.entries(d)
    .flatMap(([k, v]) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.entries(v).map(([k2, v2]) => `${k} ${k2}: ${text(v2)}`)
        : [`${k}: ${text(v)}`],
    )
    .join(' · ');

// The flow's enabled rules in the order they run, each with the problems reported for it.
function Rules({ rules, problems }) {
  if (!rules.length) return html`<p class="empty">No rules run in this flow (or none this login may read).</p>`;
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

function Problems({ problems }) {
  if (!problems.length) return html`<p class="empty">No problems: every rule and code flow runs.</p>`;
  return html`<ul class="problems">${problems.map((p) => html`<li><b>${p.source ?? ''} ${p.id ?? ''}</b> <span class="code">${p.code ?? ''}</span><div>${p.message}</div></li>`)}</ul>`;
}

// The hub's log, live: its own socket, opened while the tab shows, with ?log=<level> and a
// filter that matches no address (no parameter values on it). Scoped tokens may not read it.
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];
function Log() {
  const [level, setLevel] = useState('info');
  const [lines, setLines] = useState([]);
  const [state, setState] = useState('connecting');
  useEffect(() => {
    const url = new URL(`/ws?log=${level}&filter=${encodeURIComponent('^$')}`, location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url);
    let kept = [];
    setLines([]);
    ws.onopen = () => setState('live');
    ws.onmessage = (event) => {
      const data = JSON.parse(event.data);
      if (!data.log) return;
      kept = [...kept.slice(-499), data.log];
      setLines(kept);
    };
    ws.onclose = () => setState('closed: the hub refused or ended the log stream');
    return () => ws.close();
  }, [level]);
  return html`<div class="log">
    <div class="search"><label>level <select aria-label="log level" value=${level} onChange=${(e) => setLevel(e.target.value)}>${LEVELS.map((l) => html`<option>${l}</option>`)}</select></label> <span class="muted">${state}</span></div>
    <ol class="lines">${lines.map((l) => html`<li class=${`level-${l.level}`}><span class="muted">${new Date(l.time).toLocaleTimeString()}</span> <b>${l.level}</b> ${l.connection ? `[${l.connection}] ` : ''}${l.msg}</li>`)}</ol>
  </div>`;
}

// The tree flattened into rows (a connection's header, then its parameters), of which only
// those in view are in the DOM: 50,000 parameters cost about 40 rows of DOM.
function Tree({ parameters, connections, search, matching, write }) {
  const [collapsed, setCollapsed] = useState(new Set());
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const box = useRef();
  useEffect(() => {
    const observer = new ResizeObserver(() => setHeight(box.current.clientHeight));
    observer.observe(box.current);
    return () => observer.disconnect();
  }, []);
  const rows = useMemo(() => {
    const text = matching ? '' : search.toLowerCase();
    const groups = new Map();
    for (const p of parameters) {
      if (matching ? !matching.has(p.p) : text && !p.p.toLowerCase().includes(text)) continue;
      const id = p.p.slice(0, p.p.indexOf('/'));
      (groups.get(id) ?? groups.set(id, []).get(id)).push(p);
    }
    const status = new Map(connections.map((c) => [c.id, c.status]));
    const out = [];
    for (const [id, list] of groups) {
      out.push({ group: id, count: list.length, status: status.get(id) });
      if (!collapsed.has(id)) for (const p of list) out.push(p);
    }
    return out;
  }, [parameters, connections, search, matching, collapsed]);
  const first = Math.max(0, Math.floor(scrollTop / ROW) - 5);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW) + 5);
  const toggle = (id) => {
    const next = new Set(collapsed);
    next.has(id) ? next.delete(id) : next.add(id);
    setCollapsed(next);
  };
  return html`<div class="tree" ref=${box} onScroll=${(e) => setScrollTop(e.target.scrollTop)} data-rows=${rows.length}>
    <div style=${`height:${rows.length * ROW}px;position:relative`}>
      ${rows.slice(first, last).map((row, i) => {
        const top = (first + i) * ROW;
        if (row.group !== undefined)
          return html`<div class="row group" style=${`top:${top}px`} key=${`g:${row.group}`} onClick=${() => toggle(row.group)}>
            <span>${collapsed.has(row.group) ? '▸' : '▾'} <b>${row.group}</b> <span class="muted">${row.count}</span></span>
            ${row.status && html`<span class=${`badge ${row.status}`}>${row.status}</span>`}
          </div>`;
        return html`<${Row} key=${row.p} top=${top} parameter=${row} write=${write} />`;
      })}
    </div>
  </div>`;
}

function Row({ parameter, top, write }) {
  const { p, type, access } = parameter;
  const state = values.get(p) ?? {};
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

function Editor({ p, type, v, write }) {
  const [draft, setDraft] = useState(undefined);
  if (type === 'T') return html`<button aria-label=${`fire ${p}`} onClick=${() => write(p, null)}>fire</button>`;
  if (type === 'B')
    return html`<label class="toggle"><input type="checkbox" aria-label=${`set ${p}`} checked=${v === true || v === 'true'} onChange=${(e) => write(p, e.target.checked)} /><span></span></label>`;
  const number = type === 'I' || type === 'F';
  const submit = (e) => {
    e.preventDefault();
    if (draft === undefined) return;
    write(p, number ? Number(draft) : draft);
    setDraft(undefined);
  };
  return html`<form onSubmit=${submit}>
    <input aria-label=${`new value for ${p}`} type=${number ? 'number' : 'text'} step=${type === 'F' ? 'any' : '1'} value=${draft ?? (v === undefined ? '' : String(v))} onInput=${(e) => setDraft(e.target.value)} />
    <button>set</button>
  </form>`;
}

render(html`<${App} />`, document.getElementById('app'));
