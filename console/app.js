// The console's frame: the header with how it stands with the hub and its tabs, the bars shown
// on every tab (sign-in, the hub's role, the last notice), and the view of the tab chosen.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { flowAccess } from './api.js';
import { Connections } from './connections.js';
import { FirstRun, isNewStudio } from './first-run.js';
import { EditorLocked, FlowTab } from './flow-tab.js';
import { html } from './html.js';
import { useHub } from './hub-link.js';
import { useFrames } from './live.js';
import { Log } from './log.js';
import { originsOf, rangesOf, Tree, useMatching } from './parameter-tree.js';
import { Problems } from './problems.js';
import { membershipOf, Role, useTakeOver } from './role.js';
import { Rules } from './rules.js';
import { hasScenes, Scenes } from './scenes.js';
import { SignInBar } from './sign-in.js';
import { hasSurfaces, Surfaces } from './surfaces.js';
import { Tiles, useTilesOption } from './tiles.js';
/** @import { TargetedEvent } from 'preact' */
/** @import { Link, Notice } from './shapes.js' */

export function App() {
  const [notice, setNotice] = useState(/** @type {Notice | undefined} */ (undefined));
  const { connections, parameters, problems, rules, link, signIn, failed, write, reconnect } = useHub(setNotice);
  useFrames();
  useDimmedUnlessLive(link);
  const { flow, log: logReadable } = useAccess(link);
  const [tab, setTab] = useState('parameters');
  /** What the flow tab opens on: the catalogue (the first-run page's "add a device"), a connection's form (its edit in the connections tab). */
  const [flowOpening, setFlowOpening] = useState(/** @type {import('./flow-editing.js').Editing | undefined} */ (undefined));
  const [search, setSearch] = useState('');
  const matching = useMatching(search, setNotice);
  const [tiles, showTiles] = useTilesOption();
  const { asking, takeOver } = useTakeOver(setNotice, failed);
  const membership = membershipOf(connections);
  const ranges = useMemo(() => rangesOf(rules), [rules]);
  const origins = useMemo(() => originsOf(rules), [rules]);
  // A hub with no device yet, to a login that may add one: the parameters tab says how (R-ST1).
  const firstRun = flow === 'editable' && isNewStudio(connections);
  const tabs = [
    'parameters',
    ...(connections.some(hasScenes) ? ['scenes'] : []),
    ...(connections.some(hasSurfaces) ? ['surfaces'] : []),
    'connections',
    'rules',
    ...(flow === 'no' ? [] : ['flow']),
    'problems',
    ...(logReadable ? ['log'] : []),
  ];

  return html`
    <header>
      <h1>patchbay</h1>
      <span class=${`link ${link.replace(' ', '-')}`} data-testid="link">${link}</span>
      ${
        problems.length > 0 &&
        html`<button class="alarm" data-testid="alarm" title="what keeps the hub from running as written" onClick=${() => {
          setFlowOpening(undefined);
          setTab('problems');
        }}>${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}</button>`
      }
      <nav>
        ${tabs.map(
          (name) =>
            html`<button key=${name} class=${tab === name ? 'on' : ''} onClick=${() => {
              setFlowOpening(undefined);
              // What was said of the tab left behind is not news on another.
              if (name !== tab) setNotice(undefined);
              setTab(name);
            }}>${name}${name === 'problems' && problems.length ? ` (${problems.length})` : ''}</button>`,
        )}
      </nav>
    </header>
    ${link === 'signed out' && html`<${SignInBar} offers=${signIn} signedIn=${reconnect} />`}
    ${membership && html`<${Role} membership=${membership} asking=${asking} takeOver=${() => takeOver(membership)} />`}
    <p class=${`notice ${notice?.error ? 'error' : ''}`} role="status">${notice?.text ?? ''}</p>
    ${tab === 'scenes' && html`<${Scenes} parameters=${parameters} connections=${connections} write=${write} />`}
    ${
      tab === 'surfaces' &&
      html`<${Surfaces} connections=${connections} write=${write}
        design=${flow === 'editable' ? { addresses: parameters, notify: (/** @type {string} */ text, /** @type {boolean} */ error) => setNotice({ text, error }) } : undefined} />`
    }
    ${
      tab === 'connections' &&
      html`<${Connections} connections=${connections} edit=${
        flow === 'editable'
          ? (/** @type {string} */ id) => {
              setFlowOpening({ kind: 'connection', id, isNew: false });
              setTab('flow');
            }
          : undefined
      } />`
    }
    ${tab === 'rules' && html`<${Rules} rules=${rules} problems=${problems} />`}
    ${tab === 'flow' && flow === 'no credentials' && html`<${EditorLocked} />`}
    ${tab === 'flow' && flow === 'editable' && html`<${FlowTab} notify=${(/** @type {string} */ text, /** @type {boolean} */ error) => setNotice({ text, error })} connections=${connections} addresses=${parameters} opening=${flowOpening} />`}
    ${
      tab === 'problems' &&
      html`<${Problems} problems=${problems} notify=${flow === 'editable' ? (/** @type {string} */ text, /** @type {boolean} */ error) => setNotice({ text, error }) : undefined} />`
    }
    ${tab === 'log' && html`<${Log} />`}
    ${
      tab === 'parameters' &&
      firstRun &&
      html`<${FirstRun} openFlow=${() => {
        setFlowOpening({ kind: 'catalogue' });
        setTab('flow');
      }} />`
    }
    ${
      tab === 'parameters' &&
      !firstRun &&
      html`<div class="search"><input type="search" placeholder="search, or /expression/" aria-label="search parameters" value=${search} onInput=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => setSearch(e.currentTarget.value)} />
        <button class=${`option ${tiles ? 'on' : ''}`} aria-pressed=${tiles} onClick=${() => showTiles(!tiles)}>tiles</button></div>
      ${tiles && html`<${Tiles} parameters=${parameters} write=${write} />`}
      <${Tree} parameters=${parameters} connections=${connections} search=${search} matching=${matching} ranges=${ranges} origins=${origins} write=${write} />`
    }
  `;
}

/**
 * Every value is shown dimmed unless the socket is live: a value the hub no longer sends
 * (an on-air tick while the hub is down) must not look current.
 * @param {Link} link
 */
function useDimmedUnlessLive(link) {
  useEffect(() => {
    document.body.classList.toggle('stale', link !== 'live');
  }, [link]);
}

/**
 * Which of the tabs that depend on the login are offered, asked once signed in and shown
 * together, so the tabs move once and never under a pointer on its way to one of them:
 * - flow: to the logins the hub lets read the flow (R-ED1); on a hub without credentials it
 *   says why nobody may edit;
 * - log: to the logins the hub lets follow the log (full access, or a token with `metrics`),
 *   which are those it answers `/metrics` to.
 * @param {Link} link
 */
function useAccess(link) {
  const [access, setAccess] = useState({ flow: /** @type {'editable' | 'no credentials' | 'no'} */ ('no'), log: false });
  useEffect(() => {
    if (link !== 'live') return;
    const log = fetch('/metrics', { credentials: 'same-origin' })
      .then((response) => response.ok)
      .catch(() => false);
    void Promise.all([flowAccess(), log]).then(([flow, log]) => setAccess({ flow, log }));
  }, [link]);
  return access;
}
