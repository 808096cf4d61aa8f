// The parameters tab's tree: every parameter under its connection, windowed (only the rows in
// view are in the page), with its live value and a typed editor; the search that narrows it,
// and the ranges that give a number a fader. A parameter that says what it is (R-PK6) shows
// its label, its value by its choice's label and with its unit, and is written with a picker
// of its choices or a fader over its range.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { getJson } from './api.js';
import { clock, commandHint, dateAndClock, messageOf, noValue, shownValue } from './format.js';
import { html } from './html.js';
import { values } from './live.js';
/** @import { RefObject, TargetedEvent } from 'preact' */
/** @import { ConnectionInfo, ConnectionStatus, ParameterListing, RuleListing, Value, ValueType } from '../lib/core/api-shapes.ts' */
/** @import { ListedValue, Notice, Range, Write } from './shapes.js' */

const ROW = 34; // px: every row of the parameter list has this height (windowing relies on it)

/**
 * How a value's origin is shown: a rule by its description (`rule "fade the mics"`), or by what
 * it carries (`rule desk/title → cue/shown`), not by where it stands in the file (`rules[2].rules[1]`).
 * @param {readonly RuleListing[]} rules
 * @returns {Map<string, string>}
 */
export function originsOf(rules) {
  return new Map(
    rules.map((rule) => {
      const described = rule.name.startsWith(`${rule.path} "`) ? rule.name.slice(rule.path.length + 2, -1) : '';
      return [`rule ${rule.path}`, described ? `rule "${described}"` : `rule ${rule.source} → ${rule.destinations.join(', ')}`];
    }),
  );
}

/**
 * The ranges the flow declares through its rules: the source of a rule whose pipe begins
 * with `scale` moves in its input range, a destination of one whose pipe ends with it in
 * its output range.
 * @param {readonly RuleListing[]} rules
 * @returns {Map<string, Range>}
 */
export function rangesOf(rules) {
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

/**
 * The addresses an "/expression/" search matches, asked of the hub's own ?filter= (RE2, as
 * wsFilters); undefined for other text, which the tree matches anywhere itself.
 * @param {string} search @param {(notice: Notice) => void} setNotice
 */
export function useMatching(search, setNotice) {
  const [matching, setMatching] = useState(/** @type {Set<string> | undefined} */ (undefined));
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
  return matching;
}

// The tree flattened into rows (a connection's header, then its parameters), of which only
// those in view are in the DOM: 50,000 parameters cost about 40 rows of DOM.
/**
 * @param {{ parameters: readonly ParameterListing[], connections: readonly ConnectionInfo[], search: string, matching: Set<string> | undefined, ranges: Map<string, Range>, origins?: Map<string, string>, write: Write }} props
 */
export function Tree({ parameters, connections, search, matching, ranges, origins = new Map(), write }) {
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
    /** @type {Map<string, ParameterListing[]>} */
    const groups = new Map();
    for (const p of parameters) {
      // A search finds an address, or the label a parameter says of itself (`output 1` finds "Output 1").
      if (matching ? !matching.has(p.p) : text && !p.p.toLowerCase().includes(text) && !p.meta?.label?.toLowerCase().includes(text))
        continue;
      const id = p.p.slice(0, p.p.indexOf('/'));
      const list = groups.get(id);
      if (list) list.push(p);
      else groups.set(id, [p]);
    }
    const status = new Map(connections.map((c) => [c.id, c.status]));
    /** @type {({ group: string, count: number, status: ConnectionStatus | undefined } | ParameterListing)[]} */
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
        return html`<${Row} key=${row.p} top=${top} parameter=${row} range=${ranges.get(row.p)} origins=${origins} write=${write} />`;
      })}
    </div>
  </div>`;
}

/** @type {ListedValue} */
const UNKNOWN = { v: undefined, by: undefined, at: undefined };

/** @param {{ parameter: ParameterListing, top: number, range: Range | undefined, origins: Map<string, string>, write: Write }} props */
function Row({ parameter, top, range, origins, write }) {
  const { p, type, access, meta } = parameter;
  const state = values.get(p) ?? UNKNOWN;
  const v = state.v;
  const shown =
    type === 'T' && state.live
      ? `fired ${clock(new Date(state.at))}`
      : v === undefined || type === 'T'
        ? noValue(type, access)
        : shownValue(v, meta);
  const by = state.by === undefined ? undefined : (origins.get(state.by) ?? state.by);
  const when = state.at ? `${by ? `by ${by}, ` : ''}${dateAndClock(new Date(state.at))}` : '';
  const id = p.slice(p.indexOf('/') + 1);
  // The range the parameter declares comes before one a rule's scale step gives it.
  const declared =
    meta?.minimum !== undefined && meta.maximum !== undefined ? /** @type {Range} */ ([meta.minimum, meta.maximum]) : undefined;
  const title = [p, meta?.description].filter(Boolean).join(' — ');
  return html`<div class="row" style=${`top:${top}px`} data-address=${p}>
    <span class="address" title=${title}>${meta?.label ? html`<span class="label">${meta.label}</span> <span class="muted">${id}</span>` : id}</span>
    <span class="type">${type}</span>
    <span class=${`value ${v === undefined && type !== 'T' && access !== 'write-only' ? 'unknown' : ''}`} data-testid="value" title=${when ? `last changed ${when}` : ''}>${shown}</span>
    <span class="edit">${access === 'read-only' ? html`<span class="muted">read-only</span>` : html`<${Editor} p=${p} type=${type} v=${v} range=${declared ?? range} meta=${meta} write=${write} />`}</span>
    <span class="by muted">${by ?? ''}</span>
  </div>`;
}

/** @param {{ p: string, type: ValueType, v: Value | undefined, range: Range | undefined, meta: ParameterListing['meta'], write: Write }} props */
function Editor({ p, type, v, range, meta, write }) {
  const [draft, setDraft] = useState(/** @type {string | undefined} */ (undefined));
  if (type === 'T') return html`<button aria-label=${`fire ${p}`} onClick=${() => write(p, null)}>fire</button>`;
  if (type === 'B')
    return html`<label class="toggle"><input type="checkbox" aria-label=${`set ${p}`} checked=${v === true || v === 'true'} onChange=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => write(p, e.currentTarget.checked)} /><span></span></label>`;
  const number = type === 'I' || type === 'F';
  // Choices are picked by their labels, and the choice's own value is written.
  const choices = meta?.choices;
  if (choices?.length) {
    const at = choices.findIndex((c) => v !== undefined && String(c.value) === String(v));
    return html`<select aria-label=${`choose ${p}`} value=${at < 0 ? '' : String(at)} onChange=${(
      /** @type {TargetedEvent<HTMLSelectElement>} */ e,
    ) => {
      const choice = choices[Number(e.currentTarget.value)];
      if (choice) write(p, choice.value);
    }}>
      ${at < 0 && html`<option value="" disabled>${v === undefined ? 'choose…' : String(v)}</option>`}
      ${choices.map((c, i) => html`<option value=${String(i)}>${c.label}</option>`)}
    </select>`;
  }
  // A fader for a number whose range the parameter or the flow declares: each move is written, as a desk's fader would.
  if (number && range) {
    const [min, max] = range;
    const step = meta?.step ?? (type === 'I' ? 1 : (max - min) / 1000);
    return html`<input class="fader" type="range" aria-label=${`slide ${p}`} min=${min} max=${max} step=${step} value=${v === undefined ? min : Number(v)} onInput=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => write(p, Number(e.currentTarget.value))} />`;
  }
  /** @param {Event} e */
  const submit = (e) => {
    e.preventDefault();
    if (draft === undefined) return;
    write(p, number ? Number(draft) : draft);
    setDraft(undefined);
  };
  return html`<form onSubmit=${submit}>
    <input aria-label=${`new value for ${p}`} placeholder=${commandHint(meta)} title=${commandHint(meta)} type=${number ? 'number' : 'text'} step=${type === 'F' ? 'any' : '1'} min=${meta?.minimum} max=${meta?.maximum} value=${draft ?? (v === undefined ? '' : String(v))} onInput=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => setDraft(e.currentTarget.value)} />
    <button>set</button>
  </form>`;
}
