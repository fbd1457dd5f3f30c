import { batchApi, postJson } from './api.js';
import { confirmIn } from './confirm.js';
import { chip, duration, fill, h, path, stateBar, when } from './dom.js';
import { heldBulk } from './held-bulk.js';
import { localTimes, pageItemsInPlace } from './items-in-place.js';
import { ruleSection } from './rule-view.js';
import { spendBar } from './spend-bar.js';

/**
 * A batch, live: counts, rate and ETA, in flight against the cap, actions, workers, the held
 * queue (one table with its bulk answer), then the page of items the server put in the document
 * (its filters and links work without this script), the charts and the rule section.
 */
export async function showBatch(main, name) {
  document.title = `resq — ${name}`;
  // No such batch: the server said so in the document.
  if (document.getElementById('batch-missing')) return;
  const items = document.getElementById('items') ?? h('section', { id: 'items' }, h('p', { class: 'error' }, 'The items did not come with the page: reload it.'));
  localTimes(items);
  pageItemsInPlace();
  const stats = h('div', { id: 'stats' }, h('p', { class: 'muted' }, 'Connecting…'));
  const workers = h('div', { id: 'workers' });
  const bulk = h('div', { id: 'held-bulk' });
  const stateChart = h('img', { id: 'state-chart', class: 'chart', alt: 'items by state' });
  const runsChart = h('img', { id: 'runs-chart', class: 'chart', alt: 'runs admitted and finished per minute' });
  const actionBox = h('div', { class: 'action-box' });
  const message = h('p', { class: 'message', role: 'status' });
  const actions = h(
    'div',
    { class: 'actions' },
    h('a', { class: 'button', href: `${batchApi(name, 'export')}?format=jsonl`, download: '' }, 'Export JSONL'),
    ' ',
    h('a', { class: 'button', href: `${batchApi(name, 'export')}?format=csv`, download: '' }, 'Export CSV'),
    ' ',
    h('button', { type: 'button', id: 'retry', onclick: () => act('Retry every failed and errored item as a new run?', 'retry', { states: ['failed', 'error'] }, (r) => r.next ? [`${r.requeued} item(s) queued again; no worker is running this batch: `, h('code', {}, r.next.command), ' runs them.'] : `${r.requeued} item(s) queued again; a worker attached to the batch runs them.`) }, 'Retry failed/errored'),
    ' ',
    h('button', { type: 'button', id: 'cancel', class: 'danger', onclick: () => act('Cancel the batch? Nothing queued will be sent.', 'cancel', {}, (r) => `Cancelled: ${r.queued} queued item(s) will not be sent; ${r.cancelled} run(s) cancelled at the service.${r.left ? ` ${r.left} left to finish: ${r.reason}` : ''}`) }, 'Cancel batch'),
    actionBox,
    message,
  );
  async function act(question, what, body, done) {
    if (!(await confirmIn(actionBox, question))) return;
    try {
      fill(message, done(await postJson(batchApi(name, what), body)));
    } catch (e) {
      fill(message, h('span', { class: 'error' }, e.message));
    }
  }
  fill(
    main,
    h('p', { class: 'crumbs' }, h('a', { href: '/' }, 'Batches'), ' / ', name),
    h('h1', {}, name),
    stats,
    actions,
    h('section', { id: 'workers-section' }, h('h2', {}, 'Workers'), workers),
    h('section', { id: 'held' }, h('h2', {}, 'Held for a person'), bulk),
    items,
    h('div', { class: 'charts' }, stateChart, runsChart),
    ruleSection(name),
  );
  // The batch's notifications: who it tells (hosts only), what is not delivered yet, the last error.
  const notifyLine = (n) =>
    h(
      'span',
      { id: 'notify', class: n.undelivered > 0 ? 'warn' : '' },
      `notifications to ${n.receivers}: ${n.undelivered === 0 ? 'all delivered' : `${n.undelivered} undelivered`}`,
      n.lastError ? ` (last error: ${n.lastError})` : '',
    );
  // Why queued items do not start: a line per reason, in the read model's words (text only), each item it names linked.
  const waitingList = (groups) => {
    const shown = groups.filter((g) => g.reason !== 'ready');
    if (shown.length === 0) return null;
    return h(
      'ul',
      { id: 'waiting' },
      shown.map((g) => h('li', { class: `wait ${g.reason}`, 'data-reason': g.reason }, g.text, h('span', { class: 'links' }, ' — open: ', g.first.map((w, i) => [i ? ', ' : '', h('a', { href: path('b', name, 'i', w.id) }, w.id)])))),
    );
  };
  // Each scorer's pass rate with its 95% interval; its counts link to the items it passed, failed or left unscored.
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  const verdictLink = (s, is, n) => h('a', { href: `${path('b', name)}?${new URLSearchParams({ scorer: s.name, verdict: is })}#items`, class: `verdict-${is}` }, String(n));
  const scoresTable = (scores) =>
    !scores || scores.length === 0
      ? null
      : h(
          'table',
          { class: 'grid', id: 'scores' },
          h('caption', {}, 'Pass rates (over the judged items; 95% Wilson interval)'),
          h('thead', {}, h('tr', {}, ['Scorer', 'Pass rate', '95% interval', 'Passed', 'Failed', 'Unscored'].map((t) => h('th', {}, t)))),
          h('tbody', {}, scores.map((s) => h('tr', { 'data-scorer': s.name }, h('td', {}, s.name), h('td', { class: 'num rate' }, s.passRate === null ? '—' : pct(s.passRate)), h('td', { class: 'interval' }, s.low === null ? '—' : `${(s.low * 100).toFixed(1)}–${pct(s.high)}`), h('td', { class: 'num' }, verdictLink(s, 'passed', s.passed)), h('td', { class: 'num' }, verdictLink(s, 'failed', s.failed)), h('td', { class: 'num' }, verdictLink(s, 'unscored', s.unscored))))),
        );
  let lastChart = 0;
  let lastRuns = 0;
  const render = (o) => {
    const cap = o.capLimit !== null && o.capLimit < o.concurrency ? `${o.concurrency} (lowered to ${o.capLimit} after HTTP 429)` : String(o.concurrency);
    fill(
      stats,
      stateBar(o.counts, o.total),
      h('p', { class: 'chips', id: 'counts' }, Object.keys(o.counts).filter((s) => o.counts[s]).map((s) => [chip(s, o.counts[s]), ' '])),
      h(
        'p',
        {},
        h('span', { id: 'in-flight' }, `${o.inFlight} in flight of ${cap}`),
        ' · ',
        `rate ${o.ratePerS === null ? '—' : `${o.ratePerS.toFixed(2)} items/s`}`,
        ' · ',
        o.next ? h('span', { id: 'eta', class: 'warn' }, 'no ETA: ', h('code', {}, o.next.text)) : h('span', { id: 'eta' }, `ETA ${o.unfinished === 0 ? 'done' : duration(o.etaS)}${o.etaLeavesOut > 0 ? `; leaves out ${o.etaLeavesOut} item${o.etaLeavesOut === 1 ? '' : 's'} waiting for a person` : ''}`),
        ' · ',
        `approved cost ${o.approvedCost}`,
        ' · ',
        `files ${Object.entries(o.files).filter(([, n]) => n).map(([s, n]) => `${n} ${s}`).join(', ') || 'none'}`,
        o.cancelledAt ? [' · ', h('strong', {}, `cancelled ${when(o.cancelledAt)}`)] : null,
        o.notify ? [' · ', notifyLine(o.notify)] : null,
      ),
      spendBar(o),
      scoresTable(o.scores),
      waitingList(o.waiting),
    );
    queue.overview(o);
    const now = Date.now();
    fill(
      workers,
      o.workers.length === 0
        ? h('p', { class: 'muted' }, 'No live worker.')
        : h('table', { class: 'grid' }, h('thead', {}, h('tr', {}, ['Host', 'PID', 'Heartbeat', 'Items claimed', 'Started'].map((t) => h('th', {}, t)))), h('tbody', {}, o.workers.map((w) => h('tr', {}, h('td', {}, w.host), h('td', { class: 'num' }, String(w.pid)), h('td', {}, w.gone ? h('span', { class: 'tag gone', title: 'its process on this host ended: its items are free for the other workers' }, 'gone') : `${duration(Math.max(0, (now - w.heartbeatAt) / 1000))} ago`), h('td', { class: 'num' }, String(w.items)), h('td', {}, when(w.startedAt)))))),
    );
    // Charts are images of this site's SVG; redrawn at most every 5 s (states) and 30 s (runs).
    if (now - lastChart > 5000) {
      stateChart.src = `${batchApi(name, 'charts', 'states.svg')}?t=${now}`;
      lastChart = now;
    }
    if (now - lastRuns > 30000) {
      runsChart.src = `${batchApi(name, 'charts', 'runs.svg')}?t=${now}`;
      lastRuns = now;
    }
  };
  const queue = heldBulk(bulk, name);
  const events = new EventSource(batchApi(name, 'events'));
  events.addEventListener('overview', (ev) => render(JSON.parse(ev.data)));
  events.addEventListener('error', () => stats.classList.add('stale'));
  events.addEventListener('open', () => stats.classList.remove('stale'));
  window.addEventListener('pagehide', () => events.close());
}
