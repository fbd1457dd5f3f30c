import { batchApi, getJson } from './api.js';
import { chip, fill, h, path, when } from './dom.js';
import { ITEM_STATES } from './states.js';

const KEYS = ['state', 'meta', 'value', 'q', 'sort', 'desc', 'after'];

/** The table's filters as the URL holds them. */
function filtersFromUrl() {
  const u = new URLSearchParams(location.search);
  return Object.fromEntries(KEYS.map((k) => [k, u.get(k) ?? '']));
}

function urlFor(f) {
  const u = new URLSearchParams();
  for (const k of KEYS) if (f[k]) u.set(k, f[k]);
  const s = u.toString();
  return `${location.pathname}${s ? `?${s}` : ''}`;
}

/**
 * The items of a batch as a table with filters (state, a meta field, text in question or
 * answer) and sort, a page at a time by cursor; every filter and the cursor live in the URL.
 */
export async function itemsTable(box, name) {
  // The item states, in the order of an item's life, as the library lists them (states.js).
  const STATES = ITEM_STATES;
  const form = h('form', { id: 'filters', class: 'filters' });
  const body = h('div', { id: 'item-rows' });
  fill(box, form, body);

  const draw = async () => {
    const f = filtersFromUrl();
    const chosen = new Set(f.state.split(',').filter(Boolean));
    const states = h('fieldset', { class: 'states' }, h('legend', {}, 'State'), STATES.map((s) => h('label', {}, h('input', { type: 'checkbox', name: 'state', value: s, checked: chosen.has(s) }), ` ${s} `)));
    fill(
      form,
      states,
      h('label', {}, 'Meta field ', h('input', { name: 'meta', value: f.meta, size: 10 })),
      h('label', {}, ' = ', h('input', { name: 'value', value: f.value, size: 12 })),
      h('label', {}, ' Text ', h('input', { name: 'q', type: 'search', value: f.q, size: 16, placeholder: 'in id, question, answer' })),
      h('label', {}, ' Sort ', h('select', { name: 'sort' }, [['seq', 'file order'], ['id', 'id'], ['updated', 'latest change']].map(([v, t]) => h('option', { value: v, selected: f.sort === v || (!f.sort && v === 'seq') }, t)))),
      h('label', {}, ' ', h('input', { type: 'checkbox', name: 'desc', value: '1', checked: f.desc === '1' }), ' descending'),
      ' ',
      h('button', { type: 'submit' }, 'Apply'),
    );
    const params = new URLSearchParams();
    for (const k of KEYS) if (f[k]) params.set(k, f[k]);
    params.set('limit', '50');
    fill(body, h('p', { class: 'muted' }, 'Loading…'));
    let page;
    try {
      page = await getJson(`${batchApi(name, 'items')}?${params}`);
    } catch (e) {
      fill(body, h('p', { class: 'error' }, e.message));
      return;
    }
    const metaText = (m) => Object.entries(m).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ');
    const rows = page.items.map((it) =>
      h(
        'tr',
        { 'data-id': it.id },
        h('td', {}, h('a', { href: path('b', name, 'i', it.id) }, it.id)),
        h('td', {}, chip(it.state)),
        h('td', { class: 'text' }, it.question),
        h('td', { class: 'text' }, it.answer ?? it.error ?? it.holdReason ?? ''),
        h('td', { class: 'meta' }, metaText(it.meta)),
        h('td', {}, when(it.updatedAt)),
      ),
    );
    const nav = h(
      'p',
      { class: 'pager' },
      f.after ? h('button', { type: 'button', id: 'first-page', onclick: () => go({ ...f, after: '' }) }, 'First page') : null,
      ' ',
      page.next ? h('button', { type: 'button', id: 'next-page', onclick: () => go({ ...f, after: page.next }) }, 'Next page') : h('span', { class: 'muted' }, 'Last page.'),
    );
    fill(
      body,
      page.items.length === 0 ? h('p', { class: 'muted', id: 'no-items' }, 'No item matches.') : h('table', { class: 'grid', id: 'items-table' }, h('thead', {}, h('tr', {}, ['Id', 'State', 'Question', 'Answer / error', 'Meta', 'Changed'].map((t) => h('th', {}, t)))), h('tbody', {}, rows)),
      nav,
    );
  };

  const go = (f) => {
    history.pushState(null, '', urlFor(f));
    void draw();
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    go({ state: data.getAll('state').join(','), meta: String(data.get('meta') ?? '').trim(), value: String(data.get('value') ?? ''), q: String(data.get('q') ?? '').trim(), sort: data.get('sort') === 'seq' ? '' : String(data.get('sort')), desc: data.get('desc') ? '1' : '', after: '' });
  });
  window.addEventListener('popstate', () => void draw());
  await draw();
}
