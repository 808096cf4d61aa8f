// The hub's role in its redundancy group (R-B1), on every tab: the bar that says whether this
// hub drives the devices, and a standby's takeover (R-B5), asked once the operator confirms.
import { useState } from 'preact/hooks';
import { postFailover } from './api.js';
import { html } from './html.js';
/** @import { ConnectionInfo, RedundancyDetails } from '../lib/core/api-shapes.ts' */
/** @import { Membership, Notice } from './shapes.js' */

/**
 * The hub's redundancy group, as the connection that keeps it says in its details
 * (`redundancy`, R-B1): read from what connections report, as for scenes. The mirrors of
 * another hub's connections carry no `redundancy`, so the one found is this hub's own.
 * @param {readonly ConnectionInfo[]} connections
 * @returns {Membership | undefined}
 */
export function membershipOf(connections) {
  for (const c of connections) {
    const redundancy = c.details?.['redundancy'];
    if (redundancy && typeof redundancy === 'object')
      return { hub: String(c.details?.['hub'] ?? ''), redundancy: /** @type {RedundancyDetails} */ (redundancy) };
  }
  return undefined;
}

/** What a takeover does, asked before it is done: which hub starts driving the devices, and which stops. @param {Membership} m */
const takeOverQuestion = ({ hub, redundancy: r }) =>
  `Take over: hub ${hub} becomes the active hub of group ${r.group} and drives the devices, timers and rules` +
  (r.active === null ? ' (no hub drives them now).' : `; hub ${r.active} stops driving them and becomes a standby.`);

/**
 * A takeover of this standby (R-B5), once the operator confirmed what it does; `asking` while
 * one is asked for and not yet answered. Its answer goes to `setNotice`, a failure to `failed`.
 * @param {(notice: Notice) => void} setNotice @param {(error: unknown) => void} failed
 */
export function useTakeOver(setNotice, failed) {
  const [asking, setAsking] = useState(false); // a takeover asked for and not yet answered
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
  return { asking, takeOver };
}

// The hub's role in its redundancy group (R-B1), on every tab: an operator always knows whether
// this hub drives the devices. A standby offers to take over (R-B5); a manual group without an
// active hub says that nothing drives them until someone does.
/** @param {{ membership: Membership, asking: boolean, takeOver: () => void }} props */
export function Role({ membership: { hub, redundancy: r }, asking, takeOver }) {
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
