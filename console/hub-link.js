// The console's link to its hub: the listings it shows (connections, parameters, problems,
// rules), and the one WebSocket (?batch=1 for 1,000 changes/s, ?origins=1 for who changed each
// value, ?events=1 to follow reloads, ?resume=1 to come back to what it missed, R-W3) that
// keeps values live and carries writes; tried again while the hub is away, and held while
// the browser is signed out.
import { useEffect, useRef, useState } from 'preact/hooks';
import { getJson, SignedOut } from './api.js';
import { messageOf, refusalText } from './format.js';
import { schedule, values } from './live.js';
/** @import { ConnectionInfo, ParameterListing, Problem, RuleListing, SocketItem } from '../lib/core/api-shapes.ts' */
/** @import { Link, Notice, SignIn, Write } from './shapes.js' */

/** The parameters of a hub's role in its redundancy group (`<mqtt connection>/_hub/role`, R-B1). */
const HUB_ROLE = /^[^/]+\/_hub\/(role|epoch|active|voters)$/;

/** @type {WebSocket | undefined} */
let socket;
/**
 * Where the socket comes back to after a cut (R-W3): the token of its greeting and the last
 * `seq` received; without a `seq` (cut during a snapshot) it comes back to a snapshot.
 * @type {{ token: string, seq?: number } | undefined}
 */
let resume;

/**
 * The items of a message of the console's socket: one, or an array of them (?batch=1).
 * @param {string} data
 * @returns {SocketItem[]}
 */
function itemsOf(data) {
  const parsed = JSON.parse(data);
  return Array.isArray(parsed) ? parsed : [parsed];
}

/**
 * The hub as the console sees it, kept current: its listings, how the console stands with it,
 * what a signed-out console may offer, and `write`, which sends a value over the socket.
 * `failed` shows an error, or signs the console out on a 401; `reconnect` connects again at
 * once (after signing in).
 * @param {(notice: Notice) => void} setNotice
 */
export function useHub(setNotice) {
  const [connections, setConnections] = useState(/** @type {readonly ConnectionInfo[]} */ ([]));
  const [parameters, setParameters] = useState(/** @type {readonly ParameterListing[]} */ ([]));
  const [problems, setProblems] = useState(/** @type {readonly Problem[]} */ ([]));
  const [rules, setRules] = useState(/** @type {readonly RuleListing[]} */ ([]));
  const [link, setLink] = useState(/** @type {Link} */ ('connecting'));
  const [signIn, setSignIn] = useState(/** @type {SignIn} */ ({ token: false, basic: false }));
  /** Connects again at once (after signing in). */
  const reconnect = useRef(() => {});
  /** Listings asked for one after another may come back out of order: the latest asked is shown. */
  const listed = useRef(0);

  /** @param {unknown} error */
  const failed = (error) => {
    if (!(error instanceof SignedOut)) return setNotice({ text: messageOf(error), error: true });
    setSignIn(error.offers);
    setLink('signed out');
    socket?.close();
  };
  // A status change moves the problems too (a router down is one, until it is back), and a
  // reload the rules (the hub tells of both alike): all three are listed again.
  const listConnections = () => {
    const asked = ++listed.current;
    Promise.all([getJson('/connections'), getJson('/problems'), getJson('/rules')]).then(([c, pr, r]) => {
      if (asked !== listed.current) return;
      setConnections(c);
      setProblems(pr);
      setRules(r);
    }, failed);
  };
  const reload = async () => {
    const asked = ++listed.current;
    try {
      const [c, p, pr, r] = await Promise.all([
        getJson('/connections'),
        getJson('/parameters', '?meta=1'),
        getJson('/problems'),
        getJson('/rules'),
      ]);
      for (const item of p) values.set(item.p, { v: item.v, by: item.by, at: item.at });
      if (asked === listed.current) setConnections(c);
      setParameters(p);
      setProblems(pr);
      setRules(r);
    } catch (error) {
      failed(error);
    }
  };

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
      url.searchParams.set('resume', resume?.token ?? '1');
      if (resume?.seq !== undefined) url.searchParams.set('seq', String(resume.seq));
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
          if ('resume' in item) {
            // Where it left off (nothing missed is lost), or a fresh stream: a snapshot follows.
            resume = { token: item.resume, ...(item.seq === resume?.seq ? { seq: item.seq } : {}) };
            continue;
          }
          if ('seq' in item && resume) resume.seq = item.seq;
          // The end of a snapshot: from here on it may come back.
          if (!('p' in item) && 'seq' in item) continue;
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

  /** @type {Write} */
  const write = (address, v, quiet = false) => {
    if (socket?.readyState !== WebSocket.OPEN) {
      setNotice({ text: `not connected: ${address} was not written`, error: true });
      return;
    }
    socket.send(JSON.stringify({ p: address, v }));
    if (!quiet) setNotice({ text: `sent ${address} = ${v === null ? 'fire' : JSON.stringify(v)}`, error: false });
  };

  return { connections, parameters, problems, rules, link, signIn, failed, write, reconnect: () => reconnect.current() };
}
