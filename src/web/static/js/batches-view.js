import { getJson } from './api.js';
import { fill, h, path, stateBar, when } from './dom.js';

/** Every batch: kind, created, counts by state as a bar, cost, files, live workers. */
export async function showBatches(main) {
  document.title = 'resq — batches';
  const { batches } = await getJson('/api/batches');
  if (batches.length === 0) {
    fill(main, h('h1', {}, 'Batches'), h('p', { class: 'muted' }, 'No batch in this database yet (start one with resq run).'));
    return;
  }
  const rows = batches.map((b) => {
    const done = b.counts.completed + b.counts.failed + b.counts.error + b.counts.cancelled;
    const files = Object.entries(b.files).filter(([, n]) => n).map(([s, n]) => `${n} ${s}`).join(', ') || '—';
    return h(
      'tr',
      {},
      h('td', {}, h('a', { href: path('b', b.name) }, b.name), b.cancelledAt ? h('span', { class: 'tag' }, 'cancelled') : null),
      h('td', {}, b.kind),
      h('td', {}, when(b.createdAt)),
      h('td', { class: 'barcell' }, stateBar(b.counts, b.total), h('small', {}, `${done} / ${b.total} done`)),
      h('td', { class: 'num held' }, String(b.held)),
      h('td', { class: 'num' }, String(b.approvedCost)),
      h('td', {}, files),
      h('td', { class: 'num' }, String(b.liveWorkers)),
    );
  });
  fill(
    main,
    h('h1', {}, 'Batches'),
    h('table', { class: 'grid', id: 'batches' }, h('thead', {}, h('tr', {}, ['Batch', 'Kind', 'Created', 'Items by state', 'Held for a person', 'Approved cost', 'Files', 'Live workers'].map((t) => h('th', {}, t)))), h('tbody', {}, rows)),
  );
}
