// @ts-check
// The operator console (R-U1): connections, the parameter tree with live values and typed
// editors, problems, and the hub's role in its redundancy group. Data comes from the public
// API only: GET /connections, /parameters, /problems, and one WebSocket (?batch=1 for 1,000
// changes/s, ?origins=1 for who changed each value, ?events=1 to follow reloads); POST
// /failover when the operator takes over.
import { h, render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { FlowTab, mayEditFlow } from './flow-tab.js';
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
 *   details?: Record<string, unknown>, package?: { name: string, version: string },
 * }} Connection
 */
/**
 * An entry of `GET /problems`: `id` is the connection's, the code flow's or the rule's name.
 * @typedef {{ source: 'connection' | 'code-flow' | 'rule' | 'state', id: string, code: string, message: string }} Problem
 */
/**
 * An entry of `GET /rules`, in the order the rules run; `folders` the names of the folders it stands
 * in, outermost first; `pipe` as written (`[{ scale: [0, 1, 0, 100] }]`).
 * @typedef {{ path: string, folders: string[], name: string, source: string, destinations: string[], pipe: Record<string, unknown>[] }} Rule
 */
/** @typedef {{ '/connections': Connection[], '/parameters': Listing[], '/problems': Problem[], '/rules': Rule[] }} Answers */
/**
 * What the WebSocket sends: a change (its value in wire form, always a string; with
 * ?origins=1 who made it and when, as `GET /parameters` lists them), the answer to a write
 * that failed, or (with ?events=1) word that the parameters changed.
 * @typedef {{ p: string, v: string, by?: string, at?: string }} Change
 * @typedef {{ p: string | null, error: string, code: string }} Refusal
 * @typedef {{ event: 'parameters' | 'connections' }} HubEvent
 * @typedef {Change | Refusal | HubEvent} ServerItem
 */
/**
 * A line of the hub's log, on a socket opened with ?log=<level>.
 * @typedef {{ level: string, time: number, connection?: string, msg: string }} LogLine
 */
/**
 * What the console knows of a value: as `GET /parameters` listed it, or as the WebSocket
 * last sent it (`live`).
 * @typedef {{ v: Value | undefined, by: string | undefined, at: string | undefined, live?: never }} ListedValue
 * @typedef {{ v: string, by: string | undefined, at: string, live: true }} LiveValue
 */
/** @typedef {{ text: string, error: boolean }} Notice */
/**
 * A hub's place in its redundancy group (R-B1), as its mqtt connection reports it in
 * `details.redundancy`: `active` is the active hub's id (null while none is), `claiming` the
 * epoch this hub is taking over as, `waiting` set while a manual group has no active hub.
 * @typedef {{
 *   group: string, role: 'active' | 'standby', epoch: number, active: string | null,
 *   failover: 'auto' | 'manual', claiming?: number, waiting?: string,
 *   voters?: Record<string, { reached: boolean, granted: boolean }>,
 * }} Redundancy
 */
/** The redundancy group of the hub the console shows: its id, and its place in the group. @typedef {{ hub: string, redundancy: Redundancy }} Membership */
/** The answer of `POST /failover`. @typedef {{ ok: true, message: string } | { ok: false, error: string, code: string }} FailoverAnswer */
/**
 * How the console stands with its hub: `signed out` when the hub answered 401 (the browser's
 * session ended: a new sign-in key, or a token taken out of the flow file).
 * @typedef {'connecting' | 'live' | 'disconnected' | 'signed out'} Link
 */
/** What a signed-out console may offer: a token field, a reload for the browser's Basic prompt. @typedef {{ token: boolean, basic: boolean }} SignIn */
/** A range a rule's `scale` step declares for a number: the console shows a fader. @typedef {[number, number]} Range */
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

/** The hub no longer knows this browser (401): what it offers to sign in with, from its challenges. */
class SignedOut extends Error {
  /** @param {Response} response */
  constructor(response) {
    super('signed out');
    const challenges = response.headers.get('www-authenticate') ?? '';
    /** @type {SignIn} */
    this.offers = { token: /bearer/i.test(challenges), basic: /basic/i.test(challenges) };
  }
}

/**
 * @template {keyof Answers} P
 * @param {P} path
 * @param {string} [query] `?filter=…`
 * @returns {Promise<Answers[P]>}
 */
async function getJson(path, query = '') {
  const response = await fetch(path + query, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (response.status === 401) throw new SignedOut(response);
  if (!response.ok) throw new Error(`GET ${path + query}: ${response.status} ${(await response.text()).slice(0, 200)}`);
  return response.json();
}

/** A refusal's reason naming its address once: the hub's reasons mostly name it already. */
const refusalText = (/** @type {Refusal} */ item) =>
  `${item.p === null || item.error.includes(item.p) ? item.error : `${item.p}: ${item.error}`} (${item.code})`;

/**
 * The ranges the flow declares through its rules: the source of a rule whose pipe begins
 * with `scale` moves in its input range, a destination of one whose pipe ends with it in
 * its output range.
 * @param {Rule[]} rules
 * @returns {Map<string, Range>}
 */
function rangesOf(rules) {
  /** @type {Map<string, Range>} */
  const ranges = new Map();
  /** @param {Record<string, unknown> | undefined} step */
  const scale = (step) => {
    const s = step?.['scale'];
    return Array.isArray(s) && s.length === 4 && s.every((n) => typeof n === 'number') ? /** @type {number[]} */ (s) : undefined;
  };
  for (const rule of rules) {
    const first = scale(rule.pipe[0]);
    const last = scale(rule.pipe[rule.pipe.length - 1]);
    /** @param {string} address @param {number} a @param {number} b */
    const add = (address, a, b) => a !== b && !ranges.has(address) && ranges.set(address, [Math.min(a, b), Math.max(a, b)]);
    if (first) add(rule.source, /** @type {number} */ (first[0]), /** @type {number} */ (first[1]));
    if (last) for (const d of rule.destinations) add(d, /** @type {number} */ (last[2]), /** @type {number} */ (last[3]));
  }
  return ranges;
}

/** The parameters of a hub's role in its redundancy group (`<mqtt connection>/_hub/role`, R-B1). */
const HUB_ROLE = /^[^/]+\/_hub\/(role|epoch|active|voters)$/;

/** Booleans named like a tally or an on-air light: shown as large tiles on request. */
const TILE_NAME = /(^|\/)(tally|on-?air)([/_.-]?\d*)?(\/|$)/i;

/** @param {number} n @param {number} [width] */
const padded = (n, width = 2) => String(n).padStart(width, '0');
/**
 * A time of day on the 24-hour clock, as the hub's log writes it (`14:03:07.120`), in the
 * browser's time zone: whatever the browser's locale, the console and the log read alike.
 * @param {Date} d @param {boolean} [millis]
 */
const clock = (d, millis = false) =>
  `${padded(d.getHours())}:${padded(d.getMinutes())}:${padded(d.getSeconds())}${millis ? `.${padded(d.getMilliseconds(), 3)}` : ''}`;
/** A date and time on the 24-hour clock: `2026-11-24 14:03:07`. @param {Date} d */
const dateAndClock = (d) => `${d.getFullYear()}-${padded(d.getMonth() + 1)}-${padded(d.getDate())} ${clock(d)}`;

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
  const [link, setLink] = useState(/** @type {Link} */ ('connecting'));
  const [signIn, setSignIn] = useState(/** @type {SignIn} */ ({ token: false, basic: false }));
  const [tiles, setTiles] = useState(() => localStorage.getItem('patchbay.tiles') === 'on');
  /** Connects again at once (after signing in). */
  const reconnect = useRef(() => {});
  const [notice, setNotice] = useState(/** @type {Notice | undefined} */ (undefined));
  const [search, setSearch] = useState('');
  const [matching, setMatching] = useState(/** @type {Set<string> | undefined} */ (undefined)); // the addresses of a /regex/ search
  const [tab, setTab] = useState('parameters');
  // The flow tab is offered to the logins the hub lets read the flow (R-ED1): asked once signed in.
  const [flowEditable, setFlowEditable] = useState(false);
  useEffect(() => {
    if (link === 'live') void mayEditFlow().then(setFlowEditable);
  }, [link]);
  const [asking, setAsking] = useState(false); // a takeover asked for and not yet answered
  /** Listings asked for one after another may come back out of order: the latest asked is shown. */
  const listed = useRef(0);
  const [, setFrame] = useState(0);
  redraw = () => setFrame((n) => n + 1);

  /** @param {unknown} error */
  const failed = (error) => {
    if (!(error instanceof SignedOut)) return setNotice({ text: messageOf(error), error: true });
    setSignIn(error.offers);
    setLink('signed out');
    socket?.close();
  };
  const listConnections = () => {
    const asked = ++listed.current;
    getJson('/connections').then((c) => asked === listed.current && setConnections(c), failed);
  };
  const reload = async () => {
    const asked = ++listed.current;
    try {
      const [c, p, pr, r] = await Promise.all([getJson('/connections'), getJson('/parameters'), getJson('/problems'), getJson('/rules')]);
      for (const item of p) values.set(item.p, { v: item.v, by: item.by, at: item.at });
      if (asked === listed.current) setConnections(c);
      setParameters(p);
      setProblems(pr);
      setRules(r);
    } catch (error) {
      failed(error);
    }
  };

  // Every value is shown dimmed unless the socket is live: a value the hub no longer sends
  // (an on-air tick while the hub is down) must not look current.
  useEffect(() => {
    document.body.classList.toggle('stale', link !== 'live');
  }, [link]);

  useEffect(() => {
    let delay = 500;
    let stopped = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const retry = () => {
      if (!stopped) timer = setTimeout(attempt, (delay = Math.min(delay * 2, 10_000)));
    };
    // A refused socket tells a page nothing, so each attempt asks /healthz first: no answer
    // is a hub that is down (try again later), 401 a browser the hub no longer knows
    // (signed out: wait for the token), anything else opens the socket.
    const attempt = async () => {
      timer = undefined;
      const answer = await fetch('/healthz', { headers: { accept: 'application/json' }, credentials: 'same-origin' }).catch(
        () => undefined,
      );
      if (stopped) return;
      if (answer?.status === 401) return failed(new SignedOut(answer));
      if (!answer) {
        setLink('disconnected');
        return retry();
      }
      open();
    };
    const open = () => {
      const url = new URL('/ws?batch=1&origins=1&events=1', location.href);
      url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
      const ws = new WebSocket(url);
      socket = ws;
      ws.onopen = () => {
        delay = 500;
        setLink('live');
        void reload();
      };
      ws.onmessage = (event) => {
        let roleChanged = false;
        for (const item of itemsOf(event.data)) {
          if ('event' in item) {
            // Status changes are pushed (no polling); a reload lists everything again.
            if (item.event === 'connections') listConnections();
            else void reload();
          } else if ('error' in item) setNotice({ text: refusalText(item), error: true });
          else {
            values.set(item.p, { v: item.v, by: item.by, at: item.at ?? new Date().toISOString(), live: true });
            roleChanged ||= HUB_ROLE.test(item.p);
          }
        }
        // The hub's role, epoch or active hub moved: the group's details (a claim under way, a
        // manual group waiting for an operator) are read again with them.
        if (roleChanged) listConnections();
        schedule();
      };
      ws.onclose = () => {
        if (socket !== ws) return;
        setLink((now) => (now === 'signed out' ? now : 'disconnected'));
        retry();
      };
    };
    reconnect.current = () => {
      delay = 500;
      clearTimeout(timer);
      setLink('connecting');
      void attempt();
    };
    void attempt();
    return () => {
      stopped = true;
      clearTimeout(timer);
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

  const membership = membershipOf(connections);
  /** Asks this standby to take over (R-B5), once the operator confirmed what it does. @param {Membership} m */
  const takeOver = async (m) => {
    if (!window.confirm(takeOverQuestion(m))) return;
    setAsking(true);
    try {
      const answer = await postFailover();
      setNotice(answer.ok ? { text: answer.message, error: false } : { text: `${answer.error} (${answer.code})`, error: true });
    } catch (error) {
      failed(error);
    } finally {
      setAsking(false);
    }
  };

  const ranges = useMemo(() => rangesOf(rules), [rules]);
  /** @param {boolean} on */
  const showTiles = (on) => {
    localStorage.setItem('patchbay.tiles', on ? 'on' : 'off');
    setTiles(on);
  };

  return html`
    <header>
      <h1>patchbay</h1>
      <span class=${`link ${link.replace(' ', '-')}`} data-testid="link">${link}</span>
      <nav>
        ${[
          'parameters',
          ...(connections.some(hasScenes) ? ['scenes'] : []),
          ...(connections.some(hasSurfaces) ? ['surfaces'] : []),
          'connections',
          'rules',
          ...(flowEditable ? ['flow'] : []),
          'problems',
          'log',
        ].map(
          (name) =>
            html`<button class=${tab === name ? 'on' : ''} onClick=${() => setTab(name)}>${name}${name === 'problems' && problems.length ? ` (${problems.length})` : ''}</button>`,
        )}
      </nav>
    </header>
    ${link === 'signed out' && html`<${SignInBar} offers=${signIn} signedIn=${() => reconnect.current()} />`}
    ${membership && html`<${Role} membership=${membership} asking=${asking} takeOver=${() => takeOver(membership)} />`}
    <p class=${`notice ${notice?.error ? 'error' : ''}`} role="status">${notice?.text ?? ''}</p>
    ${tab === 'scenes' && html`<${Scenes} parameters=${parameters} connections=${connections} write=${write} />`}
    ${tab === 'surfaces' && html`<${Surfaces} connections=${connections} write=${write} />`}
    ${tab === 'connections' && html`<${Connections} connections=${connections} />`}
    ${tab === 'rules' && html`<${Rules} rules=${rules} problems=${problems} />`}
    ${tab === 'flow' && html`<${FlowTab} notify=${(/** @type {string} */ text, /** @type {boolean} */ error) => setNotice({ text, error })} />`}
    ${tab === 'problems' && html`<${Problems} problems=${problems} />`}
    ${tab === 'log' && html`<${Log} />`}
    ${
      tab === 'parameters' &&
      html`<div class="search"><input type="search" placeholder="search, or /expression/" aria-label="search parameters" value=${search} onInput=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => setSearch(e.currentTarget.value)} />
        <button class=${`option ${tiles ? 'on' : ''}`} aria-pressed=${tiles} onClick=${() => showTiles(!tiles)}>tiles</button></div>
      ${tiles && html`<${Tiles} parameters=${parameters} write=${write} />`}
      <${Tree} parameters=${parameters} connections=${connections} search=${search} matching=${matching} ranges=${ranges} write=${write} />`
    }
  `;
}

/**
 * The hub's redundancy group, as the connection that keeps it says in its details
 * (`redundancy`, R-B1): read from what connections report, as for scenes. The mirrors of
 * another hub's connections carry no `redundancy`, so the one found is this hub's own.
 * @param {Connection[]} connections
 * @returns {Membership | undefined}
 */
function membershipOf(connections) {
  for (const c of connections) {
    const redundancy = c.details?.['redundancy'];
    if (redundancy && typeof redundancy === 'object')
      return { hub: String(c.details?.['hub'] ?? ''), redundancy: /** @type {Redundancy} */ (redundancy) };
  }
  return undefined;
}

/** What a takeover does, asked before it is done: which hub starts driving the devices, and which stops. @param {Membership} m */
const takeOverQuestion = ({ hub, redundancy: r }) =>
  `Take over: hub ${hub} becomes the active hub of group ${r.group} and drives the devices, timers and rules` +
  (r.active === null ? ' (no hub drives them now).' : `; hub ${r.active} stops driving them and becomes a standby.`);

/**
 * `POST /failover` with the console's credentials, as its other requests: the hub's answer,
 * its message or its error with the code.
 * @returns {Promise<FailoverAnswer>}
 */
async function postFailover() {
  const response = await fetch('/failover', { method: 'POST', headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (response.status === 401) throw new SignedOut(response);
  const answer = await response.json().catch(() => undefined);
  if (!answer) throw new Error(`POST /failover: ${response.status} ${response.statusText}`);
  return answer;
}

// The hub's role in its redundancy group (R-B1), on every tab: an operator always knows whether
// this hub drives the devices. A standby offers to take over (R-B5); a manual group without an
// active hub says that nothing drives them until someone does.
/** @param {{ membership: Membership, asking: boolean, takeOver: () => void }} props */
function Role({ membership: { hub, redundancy: r }, asking, takeOver }) {
  const state =
    r.role === 'active'
      ? `active in group ${r.group} (epoch ${r.epoch})`
      : r.claiming !== undefined
        ? `standby in group ${r.group} — taking over as epoch ${r.claiming}…`
        : `standby in group ${r.group} — active: ${r.active === null ? 'none' : `hub ${r.active}`}`;
  return html`<section class=${`role ${r.waiting ? 'waiting' : r.role}`} data-testid="role" data-role=${r.role} aria-label="redundancy group">
    <span><b>hub ${hub}</b> ${state} <span class="muted failover">failover ${r.failover}</span></span>
    ${r.voters && html`<span class="voters" data-testid="voters">voters ${Object.entries(r.voters).map(([id, v]) => html`<span class=${`voter ${v.reached ? 'reached' : 'unreached'}`} title=${v.reached ? `${id} answers this hub${v.granted ? ' and grants it the lease' : ''}` : `${id} has not answered this hub for a second`}>${id}</span>`)}</span>`}
    ${r.role === 'standby' && html`<button onClick=${takeOver} disabled=${asking || r.claiming !== undefined}>Take over</button>`}
    ${r.waiting && html`<strong class="warning" role="alert" title=${r.waiting}>No hub of group ${r.group} is active, and failover is manual: nothing drives the devices, timers and rules until an operator takes over.</strong>`}
  </section>`;
}

// Signed out (401): a token field that signs this browser in again without leaving the page.
// The token goes once as ?access_token= to /healthz, whose answer sets the session cookie.
/** @param {{ offers: SignIn, signedIn: () => void }} props */
function SignInBar({ offers, signedIn }) {
  const [token, setToken] = useState('');
  const [refused, setRefused] = useState(false);
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    const answer = await fetch(`/healthz?access_token=${encodeURIComponent(token)}`, { credentials: 'same-origin' }).catch(() => undefined);
    if (answer?.ok) {
      setToken('');
      signedIn();
    } else setRefused(true);
  };
  return html`<form class="sign-in" onSubmit=${submit}>
    <b>signed out</b>
    ${
      offers.token
        ? html`<label>token <input type="password" autocomplete="current-password" value=${token} onInput=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => setToken(e.currentTarget.value)} /></label>
      <button>sign in</button>${refused ? html`<span class="refused">that token was not accepted</span>` : ''}`
        : ''
    }
    ${offers.basic ? html`<span class="muted">${offers.token ? 'or reload' : 'reload'} the page to be asked for a user name and password</span>` : ''}
  </form>`;
}

// Tally lights and on-air signs as large tiles, lit while true; a tap toggles one the login may write.
/** @param {{ parameters: Listing[], write: Write }} props */
function Tiles({ parameters, write }) {
  const shown = parameters.filter((p) => p.type === 'B' && TILE_NAME.test(p.p.slice(p.p.indexOf('/') + 1)));
  if (!shown.length) return html`<p class="empty">No booleans named like a tally or on-air here.</p>`;
  return html`<div class="tiles">${shown.map((p) => {
    const v = values.get(p.p)?.v;
    const on = v === true || v === 'true';
    const writable = p.access !== 'read-only';
    return html`<button class=${`tile ${on ? 'on' : ''}`} data-address=${p.p} aria-pressed=${on} disabled=${!writable} onClick=${() => write(p.p, !on)}>
      <span>${p.p}</span><b>${v === undefined ? 'unknown' : on ? 'ON' : 'off'}</b>
    </button>`;
  })}</div>`;
}

/**
 * Whether a connection holds scenes, as it says in its details (a list of `scenes`): the
 * scenes tab shows only where a flow has them. Read from what the connection reports, not
 * from its type's name, so the console keeps no list of types of its own.
 */
const hasScenes = (/** @type {Connection} */ c) => Array.isArray(c.details?.['scenes']);

// The scenes of every scenes connection (R-Y1): each with its dirty state, what its last
// store or recall did, and buttons that fire its store and recall triggers. The hub checks
// each write against the login's access, as for any other write.
/** @param {{ parameters: Listing[], connections: Connection[], write: Write }} props */
function Scenes({ parameters, connections, write }) {
  const sceneConnections = new Set(connections.filter(hasScenes).map((c) => c.id));
  const scenes = parameters
    .filter((p) => sceneConnections.has(p.p.slice(0, p.p.indexOf('/'))) && p.p.endsWith('/recall'))
    .map((p) => p.p.slice(0, -'/recall'.length));
  if (!scenes.length) return html`<p class="empty">No scenes in this flow (or none this login may see).</p>`;
  return html`<ul class="scenes">${scenes.map((scene) => {
    const dirty = values.get(`${scene}/dirty`)?.v;
    const report = values.get(`${scene}/report`)?.v;
    const members = Number(values.get(`${scene}/members`)?.v ?? 0);
    const changed = dirty === true || dirty === 'true';
    const [look, state] = members === 0 ? ['disabled', 'not stored'] : changed ? ['degraded', 'changed'] : ['ok', 'as stored'];
    return html`<li data-scene=${scene}>
      <div class="line"><b>${scene}</b> <span class=${`badge ${look}`} data-testid="dirty">${state}</span></div>
      <div class="muted" data-testid="report">${report === undefined ? '' : String(report)}</div>
      <div class="buttons">
        <button aria-label=${`recall ${scene}`} onClick=${() => write(`${scene}/recall`, null)}>recall</button>
        <button aria-label=${`store ${scene}`} onClick=${() => storeOver(scene, members, write)}>store</button>
      </div>
    </li>`;
  })}</ul>`;
}

/**
 * Whether a connection has surfaces, as it says in its details (a list of `surfaces`: the
 * Stream Decks of a satellite connection, R-SU2): the surfaces tab shows only where a flow
 * has them, as for scenes.
 */
const hasSurfaces = (/** @type {Connection} */ c) => Array.isArray(c.details?.['surfaces']);

/**
 * A surface as its connection describes it: the device, the id of its parameters, its keys
 * and how they are laid out, and what a press of a bound key writes.
 * @typedef {{ device: string, id: string, keys: number, perRow: number, bindings: Record<string, { press: 'toggle' | 'momentary' | 'fire', target: string }> }} Surface
 */

const COLOR = /^#[0-9a-fA-F]{6}$/;
/** @param {string} address @param {string} fallback */
const colorAt = (address, fallback) => {
  const v = String(values.get(address)?.v ?? '');
  return COLOR.test(v) ? v : fallback;
};
/** @param {string} address */
const isTrue = (address) => {
  const v = values.get(address)?.v;
  return v === true || v === 'true';
};

// Each surface as a grid of its keys, in their colours with their text, as the desk shows
// them. A key bound in the flow (`keys`, with `press`) is pressable here: the console makes
// the write the key's press makes, checked against the login's access as any other write.
/** @param {{ connections: Connection[], write: Write }} props */
function Surfaces({ connections, write }) {
  const surfaces = connections
    .filter(hasSurfaces)
    .flatMap((c) => /** @type {Surface[]} */ (c.details?.['surfaces'] ?? []).map((s) => ({ ...s, at: `${c.id}/${s.id}` })));
  if (!surfaces.length) return html`<p class="empty">No surface has been connected yet.</p>`;
  return html`<div class="surfaces">${surfaces.map((s) => {
    const connected = isTrue(`${s.at}/connected`);
    return html`<section class="surface" data-surface=${s.at}>
      <h2>${s.device} <span class=${`badge ${connected ? 'ok' : 'disabled'}`}>${connected ? 'connected' : 'away'}</span></h2>
      <div class="keys" style=${`grid-template-columns: repeat(${Math.max(1, s.perRow)}, 1fr)`}>
        ${Array.from({ length: s.keys }, (_, n) => {
          const key = `${s.at}/key/${n}`;
          const binding = s.bindings[String(n)];
          const text = String(values.get(`${key}/text`)?.v ?? '');
          const style = `background: ${colorAt(`${key}/color`, '#000000')}; color: ${colorAt(`${key}/text-color`, '#ffffff')}`;
          /** @param {boolean} down */
          const press = (down) => {
            if (!binding) return;
            if (binding.press === 'momentary') write(binding.target, down);
            else if (down && binding.press === 'toggle') write(binding.target, !isTrue(binding.target));
            else if (down && binding.press === 'fire') write(binding.target, null);
          };
          return html`<button class=${`key ${isTrue(`${key}/pressed`) ? 'down' : ''}`} data-key=${n} style=${style} disabled=${!binding}
            title=${binding ? `${binding.press} ${binding.target}` : `key ${n}: not bound to a press`}
            onPointerDown=${() => press(true)} onPointerUp=${() => press(false)} onPointerLeave=${() => binding?.press === 'momentary' && press(false)}>${text}</button>`;
        })}
      </div>
    </section>`;
  })}</div>`;
}

/**
 * Stores a scene; over one already stored only once the operator says so, since a click
 * beside recall in the middle of a show would put the studio's present state in its place.
 * @param {string} scene @param {number} members @param {Write} write
 */
function storeOver(scene, members, write) {
  if (members > 0 && !window.confirm(`Store the values now in place of the ${members} kept in ${scene}?`)) return;
  write(`${scene}/store`, null);
}

/** @param {{ connections: Connection[] }} props */
function Connections({ connections }) {
  return html`<ul class="connections">
    ${connections.map(
      (c) => html`<li class=${`status-${c.status}`} data-connection=${c.id}>
        <div class="line">
          <b>${c.id}</b> <span class="type">${c.type}</span>
          ${c.package && html`<span class="muted package" title="the package this type comes from">${c.package.name} ${c.package.version}</span>`}
          <span class=${`badge ${c.status}`}>${c.status}</span>
        </div>
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

// The flow's enabled rules in the order they run, each under the folders it stands in (R-R2),
// with the problems reported for it.
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
      ${r.folders.length ? html`<span class="folders muted" data-testid="folders">${r.folders.join(' / ')} /</span> ` : ''}<b>${r.name}</b>
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
const KEPT_LINES = 1000;
function Log() {
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
      /** @type {{ log?: LogLine, logLevel?: string }} */
      const data = JSON.parse(event.data);
      if (data.logLevel) setHubLevel(data.logLevel);
      if (!data.log) return;
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

// The tree flattened into rows (a connection's header, then its parameters), of which only
// those in view are in the DOM: 50,000 parameters cost about 40 rows of DOM.
/**
 * @param {{ parameters: Listing[], connections: Connection[], search: string, matching: Set<string> | undefined, ranges: Map<string, Range>, write: Write }} props
 */
function Tree({ parameters, connections, search, matching, ranges, write }) {
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
        return html`<${Row} key=${row.p} top=${top} parameter=${row} range=${ranges.get(row.p)} write=${write} />`;
      })}
    </div>
  </div>`;
}

/** @type {ListedValue} */
const UNKNOWN = { v: undefined, by: undefined, at: undefined };

/** @param {{ parameter: Listing, top: number, range: Range | undefined, write: Write }} props */
function Row({ parameter, top, range, write }) {
  const { p, type, access } = parameter;
  const state = values.get(p) ?? UNKNOWN;
  const v = state.v;
  const shown = type === 'T' ? (state.live ? `fired ${clock(new Date(state.at))}` : '—') : v === undefined ? 'unknown' : String(v);
  const when = state.at ? `${state.by ? `by ${state.by}, ` : ''}${dateAndClock(new Date(state.at))}` : '';
  return html`<div class="row" style=${`top:${top}px`} data-address=${p}>
    <span class="address" title=${p}>${p.slice(p.indexOf('/') + 1)}</span>
    <span class="type">${type}</span>
    <span class=${`value ${v === undefined && type !== 'T' ? 'unknown' : ''}`} data-testid="value" title=${when ? `last changed ${when}` : ''}>${shown}</span>
    <span class="edit">${access === 'read-only' ? html`<span class="muted">read-only</span>` : html`<${Editor} p=${p} type=${type} v=${v} range=${range} write=${write} />`}</span>
    <span class="by muted">${state.by ?? ''}</span>
  </div>`;
}

/** @param {{ p: string, type: ValueType, v: Value | undefined, range: Range | undefined, write: Write }} props */
function Editor({ p, type, v, range, write }) {
  const [draft, setDraft] = useState(/** @type {string | undefined} */ (undefined));
  if (type === 'T') return html`<button aria-label=${`fire ${p}`} onClick=${() => write(p, null)}>fire</button>`;
  if (type === 'B')
    return html`<label class="toggle"><input type="checkbox" aria-label=${`set ${p}`} checked=${v === true || v === 'true'} onChange=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => write(p, e.currentTarget.checked)} /><span></span></label>`;
  const number = type === 'I' || type === 'F';
  // A fader for a number whose range the flow declares: each move is written, as a desk's fader would.
  if (number && range) {
    const [min, max] = range;
    return html`<input class="fader" type="range" aria-label=${`slide ${p}`} min=${min} max=${max} step=${type === 'I' ? 1 : (max - min) / 1000} value=${v === undefined ? min : Number(v)} onInput=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => write(p, Number(e.currentTarget.value))} />`;
  }
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
