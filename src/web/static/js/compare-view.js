import { getJson } from './api.js';
import { fill, h, path } from './dom.js';

/** Two batches side by side: counts at the top, then each item that differs (state, answer diff, decisions, files). */
export async function showCompare(main) {
  document.title = 'resq — compare';
  const u = new URLSearchParams(location.search);
  const a = u.get('a') ?? '';
  const b = u.get('b') ?? '';
  const form = h('form', { method: 'get', action: '/compare', class: 'filters' }, h('label', {}, 'Batch A ', h('input', { name: 'a', value: a, required: true })), h('label', {}, ' Batch B ', h('input', { name: 'b', value: b, required: true })), ' ', h('button', { type: 'submit' }, 'Compare'));
  fill(main, h('h1', {}, 'Compare two batches'), form);
  if (!a || !b) return;
  const r = await getJson(`/api/compare?${new URLSearchParams({ a, b })}`);
  const n = r.counts;
  const side = (name, s, id) => (s ? h('div', {}, h('a', { href: path('b', name, 'i', id) }, s.state), s.decisions.length ? h('ul', { class: 'decisions' }, s.decisions.map((d) => h('li', {}, d))) : null) : h('span', { class: 'muted' }, 'absent'));
  const diff = (c) => (c.diff ? h('pre', { class: 'diff' }, c.diff.map((l) => h('span', { class: l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'same' }, `${l.op} ${l.text}\n`))) : c.answerChanged ? h('p', { class: 'muted' }, 'answer on one side only') : null);
  main.append(
    h('p', { id: 'compare-counts', class: 'counts' }, `${n.both} in both (${n.same} the same) · ${n.onlyA} only in ${r.a} · ${n.onlyB} only in ${r.b} · state changed ${n.stateChanged} · answer changed ${n.answerChanged} · decisions differ ${n.decisionsDiffer} · files changed ${n.filesChanged}`),
    r.changed.length === 0
      ? h('p', { class: 'muted' }, 'No difference.')
      : h(
          'table',
          { class: 'grid', id: 'compare-table' },
          h('thead', {}, h('tr', {}, ['Item', r.a, r.b, 'Files', 'Answer'].map((t) => h('th', {}, t)))),
          h('tbody', {}, r.changed.map((c) => h('tr', { 'data-id': c.id }, h('td', {}, c.id), h('td', {}, side(r.a, c.a, c.id)), h('td', {}, side(r.b, c.b, c.id)), h('td', {}, c.filesAdded.map((f) => h('div', { class: 'add' }, `+ ${f}`)), c.filesGone.map((f) => h('div', { class: 'del' }, `− ${f}`))), h('td', {}, diff(c))))),
        ),
    r.more ? h('p', { class: 'muted' }, 'More items differ than are shown: resq compare A B --format jsonl lists them all.') : null,
  );
}
