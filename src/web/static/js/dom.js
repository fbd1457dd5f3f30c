// Building the page: every value from the service or a user's file goes in as text (textContent),
// never as markup. The exceptions are HTML the server rendered from Markdown with raw HTML off
// (setRenderedHtml) and the batch page's items section the server made (items-in-place.js),
// each marked as such where it is used.
import { STATE_COLORS } from './states.js';

/**
 * Makes an element. `attrs`: attributes (a `href` must be http(s), mailto or a path of this site),
 * `class`, `on*` functions as listeners. Children: nodes, strings (as text), arrays, null.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'href' || k === 'src') el.setAttribute(k, safeUrl(String(v)));
    else if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** A URL safe to put in href/src: this site's paths, http(s) and mailto; anything else becomes '#'. */
export function safeUrl(u) {
  if (u.startsWith('/') && !u.startsWith('//')) return u;
  return /^(https?:|mailto:)/i.test(u) ? u : '#';
}

/** Puts HTML the server rendered from Markdown (raw HTML escaped, links http(s)/mailto only) into `el`. */
export function setRenderedHtml(el, html) {
  el.innerHTML = html;
  return el;
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A path of this site with encoded parts: path('b', name, 'i', id). */
export function path(...parts) {
  return `/${parts.map((p) => encodeURIComponent(p)).join('/')}`;
}

/** Seconds as "1 h 2 min", "3 min 4 s", "5 s". */
export function duration(s) {
  if (s === null || s === undefined) return '—';
  s = Math.round(s);
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

/** An ISO time as local date and time. */
export function when(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString();
}

/** Colours of the item states: the library's own (src/store/item-states.ts), served as states.js. */
export { STATE_COLORS };

/** Counts by state as one stacked bar (widths set through the CSSOM: no inline style attribute). */
export function stateBar(counts, total) {
  const bar = h('div', { class: 'statebar', role: 'img', 'aria-label': Object.entries(counts).filter(([, n]) => n).map(([s, n]) => `${s} ${n}`).join(', ') });
  const sum = total || Object.values(counts).reduce((a, b) => a + b, 0) || 1;
  for (const [state, n] of Object.entries(counts)) {
    if (!n) continue;
    const seg = h('span', { title: `${state}: ${n}`, class: `seg s-${state}` });
    seg.style.width = `${(100 * n) / sum}%`;
    seg.style.background = STATE_COLORS[state] ?? '#888';
    bar.append(seg);
  }
  return bar;
}

/** A state as a coloured chip. */
export function chip(state, n) {
  const el = h('span', { class: `chip s-${state}` }, n === undefined ? state : `${state} ${n}`);
  el.style.borderColor = STATE_COLORS[state] ?? '#888';
  return el;
}
