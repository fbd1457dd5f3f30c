import type { Hono } from 'hono';
import type { BatchStore, ReadStore, ScoreStore } from '../store/index.js';
import { verdictFilterOf } from './verdict-filter.js';
import { ItemsQuerySchema } from './api-schemas.js';
import { html, type Markup } from './html.js';
import { type ItemsQuery, itemPageQuery, itemsSectionHtml, PAGE_SIZE, pageParams, sitePath } from './items-section.js';
import { issueLine } from './respond.js';
import type { WebEnv } from './write-routes.js';

// The batch page's document (/b/NAME), made on the server around the one page the script
// fills: its items section is already there, a page of the store's items with its filters and
// links, so the items page with JavaScript off too. The live parts are the script's.

/** The fields of the items query besides `state` (which may come once per checkbox). */
const FIELDS = ['meta', 'value', 'q', 'scorer', 'verdict', 'sort', 'desc', 'limit', 'after', 'before'] as const;

/**
 * The items query of a batch page's URL, as its filter form sends it: a state per checkbox (or
 * comma-separated), empty fields left out, a value only with its meta field.
 */
export function itemsQueryOf(url: URL): { ok: true; query: ItemsQuery } | { ok: false; error: string } {
  const sp = url.searchParams;
  const raw: Record<string, string> = {};
  const states = sp.getAll('state').flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  if (states.length) raw.state = states.join(',');
  for (const k of FIELDS) {
    const v = sp.get(k);
    if (v !== null && v.trim() !== '') raw[k] = k === 'value' ? v : v.trim();
  }
  if (raw.meta) raw.value = sp.get('value') ?? '';
  else delete raw.value;
  const parsed = ItemsQuerySchema.safeParse(raw);
  return parsed.success ? { ok: true, query: parsed.data } : { ok: false, error: issueLine('query', parsed.error) };
}

/** The page's document with `main`'s content and the title replaced. */
export function pageDocument(index: string, title: string, main: Markup): string {
  const at = index.indexOf('<main id="main">');
  const end = index.indexOf('</main>', at);
  if (at < 0 || end < 0) throw new Error('index.html has no <main id="main">…</main>');
  const head = index.slice(0, at).replace('<title>resq</title>', () => html`<title>${title}</title>`.text);
  return `${head}<main id="main">\n${main.text}\n${index.slice(end)}`;
}

/** What the batch page's route needs. */
export interface BatchPageDeps {
  store: BatchStore & ReadStore & Pick<ScoreStore, 'scorersJudged'>;
  /** The page's document (static/index.html). */
  index: string;
}

/** GET /b/NAME: the batch page, its items section made here; a URL not in its plain form is sent to that form (303). */
export function batchPageRoute(app: Hono<WebEnv>, d: BatchPageDeps): void {
  app.get('/b/:batch', async (c) => {
    const name = c.req.param('batch');
    const send = (status: 200 | 400 | 404, main: Markup) => c.html(pageDocument(d.index, `resq — ${name}`, main), status, { 'Cache-Control': 'no-store' });
    const crumbs = html`<p class="crumbs"><a href="/">Batches</a> / ${name}</p>\n<h1>${name}</h1>\n`;
    const batch = await d.store.findBatch(name);
    if (!batch) return send(404, html`${crumbs}<p class="error" id="batch-missing">no batch named "${name}"</p>`);
    const noscript = html`<noscript><p class="warn">The live overview, the held queue and the actions need JavaScript; the items below page without it.</p></noscript>\n`;
    const url = new URL(c.req.url);
    const q = itemsQueryOf(url);
    if (!q.ok) return send(400, html`${crumbs}${noscript}${itemsSectionHtml(name, { state: undefined }, { error: q.error })}`);
    const v = q.query;
    // One URL per page: the form's empty fields and repeated states go, so links and reloads agree.
    const plain = pageParams(v, { after: v.after ?? null, before: v.before ?? null });
    if (JSON.stringify([...plain]) !== JSON.stringify([...url.searchParams])) return c.redirect(`${sitePath('b', name)}${plain.size ? `?${plain}` : ''}`, 303);
    const verdict = await verdictFilterOf(d.store, batch, v);
    if (!verdict.ok) return send(400, html`${crumbs}${noscript}${itemsSectionHtml(name, { state: undefined }, { error: verdict.error }, verdict.scorers)}`);
    const page = await d.store.itemPage(batch.id, itemPageQuery(v, PAGE_SIZE, verdict.filter));
    return send(200, html`${crumbs}${noscript}${itemsSectionHtml(name, v, { page }, verdict.scorers)}`);
  });
}
