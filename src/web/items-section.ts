import type { z } from 'zod';
import type { ItemPage, ItemPageQuery, ItemSummary } from '../store/index.js';
import type { VerdictFilter } from '../store/item-page-shapes.js';
import { VERDICTS } from './verdict-filter.js';
import { ITEM_STATES } from '../store/item-states.js';
import type { ItemsQuerySchema } from './api-schemas.js';
import { html, type Markup } from './html.js';

// The batch page's items, rendered on the server: a page of the store's item pages with its
// filters (a GET form) and First / Previous / Next links, so paging works with JavaScript off.
// Markup is made by html`…`, which escapes every value from the service or a user's file.

/** The items query as the page's URL holds it (parsed). */
export type ItemsQuery = z.output<typeof ItemsQuerySchema>;

/** Items on a page of the batch page unless its URL says otherwise. */
export const PAGE_SIZE = 20;
/** The page sizes the page offers. */
export const PAGE_SIZES = [10, 20, 50, 100, 200] as const;

const SORTS = [
  ['seq', 'file order'],
  ['id', 'id'],
  ['updated', 'latest change'],
] as const;

/** A path of this site with each part encoded: /b/NAME/i/ID. */
export function sitePath(...parts: string[]): string {
  return `/${parts.map((p) => encodeURIComponent(p)).join('/')}`;
}

/** The URL query of a page of items: its filters in a fixed order, defaults left out, then its cursor. */
export function pageParams(v: ItemsQuery, cursor: { after?: string | null; before?: string | null } = {}): URLSearchParams {
  const u = new URLSearchParams();
  if (v.state?.length) u.set('state', v.state.join(','));
  if (v.meta) {
    u.set('meta', v.meta);
    u.set('value', v.value ?? '');
  }
  if (v.q) u.set('q', v.q);
  if (v.scorer) u.set('scorer', v.scorer);
  if (v.verdict) u.set('verdict', v.verdict);
  if (v.sort && v.sort !== 'seq') u.set('sort', v.sort);
  if (v.desc === '1') u.set('desc', '1');
  if (v.limit !== undefined && v.limit !== PAGE_SIZE) u.set('limit', String(v.limit));
  if (cursor.after) u.set('after', cursor.after);
  else if (cursor.before) u.set('before', cursor.before);
  return u;
}

/** The store's query of a page of items (`limit` unless the query names one); `verdict` the query's scorer and verdict resolved (verdict-filter.ts). */
export function itemPageQuery(v: ItemsQuery, limit: number, verdict?: VerdictFilter): ItemPageQuery {
  return {
    ...(verdict ? { verdict } : {}),
    limit: v.limit ?? limit,
    ...(v.state ? { states: v.state } : {}),
    ...(v.meta !== undefined && v.value !== undefined ? { meta: { key: v.meta, value: v.value } } : {}),
    ...(v.q ? { text: v.q } : {}),
    ...(v.sort ? { sort: v.sort } : {}),
    desc: v.desc === '1',
    after: v.after ?? null,
    before: v.before ?? null,
  };
}

const pageHref = (name: string, v: ItemsQuery, cursor: { after?: string | null; before?: string | null } = {}): string => {
  const q = pageParams(v, cursor).toString();
  return `${sitePath('b', name)}${q ? `?${q}` : ''}`;
};

/** An ISO time as `YYYY-MM-DD HH:MM:SS UTC` in a <time> element (the page's script shows it in local time). */
function timeHtml(iso: string | null): Markup | string {
  if (!iso) return '—';
  const d = new Date(iso);
  const text = Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  return html`<time datetime="${iso}">${text}</time>`;
}

const metaText = (m: Record<string, unknown>): string => Object.entries(m).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ');

/** A cell cut to one line by the style sheet, its whole text in its title. */
const cutCell = (cls: string, text: string): Markup => html`<td class="${cls}" title="${text}">${text}</td>`;

function rowHtml(name: string, it: ItemSummary): Markup {
  const said = it.answer ?? it.error ?? it.holdReason ?? '';
  return html`<tr data-id="${it.id}"><td><a href="${sitePath('b', name, 'i', it.id)}" title="${it.id}">${it.id}</a></td><td><span class="chip s-${it.state}">${it.state}</span></td>${cutCell('text', it.question)}${cutCell('text', said)}${cutCell('meta', metaText(it.meta))}<td>${timeHtml(it.updatedAt)}</td></tr>\n`;
}

/** The filter form: a GET of this page, so it works without the page's script; it starts again at the first page. */
/** The verdict filter's two lists (a scorer, what it said), only when a scorer judges the batch. */
function verdictSelectHtml(v: ItemsQuery, scorers: readonly string[]): Markup | string {
  if (scorers.length === 0) return '';
  const names = [...new Set([...scorers, ...(v.scorer ? [v.scorer] : [])])];
  const scorer = names.map((s) => html`<option value="${s}"${v.scorer === s ? html` selected` : ''}>${s}</option>`);
  const said = VERDICTS.map((x) => html`<option value="${x}"${v.verdict === x ? html` selected` : ''}>${x}</option>`);
  return html`<label> Scorer <select name="scorer" id="verdict-scorer"><option value="">any</option>${scorer}</select></label>
<label> verdict <select name="verdict" id="verdict-is"><option value="">any</option>${said}</select></label>
`;
}

function filtersHtml(name: string, v: ItemsQuery, scorers: readonly string[]): Markup {
  const chosen = new Set<string>(v.state ?? []);
  const states = ITEM_STATES.map((s) => html`<label><input type="checkbox" name="state" value="${s}"${chosen.has(s) ? html` checked` : ''}> ${s}</label> `);
  const sort = SORTS.map(([k, t]) => html`<option value="${k}"${(v.sort ?? 'seq') === k ? html` selected` : ''}>${t}</option>`);
  const size = v.limit ?? PAGE_SIZE;
  const sizes = [...new Set([...PAGE_SIZES, size])].sort((a, b) => a - b).map((n) => html`<option value="${n}"${n === size ? html` selected` : ''}>${n}</option>`);
  return html`<form id="filters" class="filters" method="get" action="${sitePath('b', name)}">
<fieldset class="states"><legend>State</legend>${states}</fieldset>
<label>Meta field <input name="meta" value="${v.meta ?? ''}" size="8"></label>
<label> = <input name="value" value="${v.meta ? (v.value ?? '') : ''}" size="8"></label>
<label> Text <input name="q" type="search" value="${v.q ?? ''}" size="14" placeholder="in id, question, answer"></label>
${verdictSelectHtml(v, scorers)}<label> Sort <select name="sort">${sort}</select></label>
<label><input type="checkbox" name="desc" value="1"${v.desc === '1' ? html` checked` : ''}> descending</label>
<label> Per page <select name="limit" id="page-size">${sizes}</select></label>
 <button type="submit">Apply</button>
</form>`;
}

/** First / Previous / Next links of a page (plain links: they work with the script off). */
function pagerHtml(name: string, v: ItemsQuery, page: ItemPage): Markup {
  const first = v.after || v.before ? html`<a id="first-page" class="button" href="${pageHref(name, v)}">First page</a> ` : null;
  const prev = page.prev ? html`<a id="prev-page" class="button" rel="prev" href="${pageHref(name, v, { before: page.prev })}">Previous page</a> ` : null;
  const next = page.next ? html`<a id="next-page" class="button" rel="next" href="${pageHref(name, v, { after: page.next })}">Next page</a>` : html`<span class="muted">Last page.</span>`;
  return html`<p class="pager">${first}${prev}${next} <span class="muted">${page.items.length} on this page.</span></p>`;
}

/**
 * The batch page's items section: the filters (a verdict filter among `scorers`, when any), a page of items and its links; or, for a query
 * that cannot be read, the filters and one line saying why (`error`).
 */
export function itemsSectionHtml(name: string, v: ItemsQuery, result: { page: ItemPage } | { error: string }, scorers: readonly string[] = []): Markup {
  const head = html`<section id="items"><h2>Items</h2>\n${filtersHtml(name, v, scorers)}\n`;
  if ('error' in result) return html`${head}<p class="error" id="items-error">${result.error}</p><p><a href="${sitePath('b', name)}">First page</a></p></section>`;
  const { page } = result;
  const table =
    page.items.length === 0
      ? html`<p class="muted" id="no-items">No item matches.</p>`
      : html`<table class="grid" id="items-table"><colgroup><col class="c-id"><col class="c-state"><col class="c-text"><col class="c-text"><col class="c-meta"><col class="c-when"></colgroup><thead><tr><th>Id</th><th>State</th><th>Question</th><th>Answer / error</th><th>Meta</th><th>Changed</th></tr></thead><tbody>\n${page.items.map((it) => rowHtml(name, it))}</tbody></table>`;
  return html`${head}${table}\n${pagerHtml(name, v, page)}</section>`;
}
