import { getJson } from './api.js';
import { fill, h, path, when } from './dom.js';

/** A `<select>` of every batch (newest first), with `chosen` selected; a name not in the list is kept as an option of its own. */
function batchPicker(name, batches, chosen) {
  const options = batches.map((b) => h('option', { value: b.name, selected: b.name === chosen }, `${b.name} — ${b.total} items, ${when(b.createdAt)}`));
  if (chosen && !batches.some((b) => b.name === chosen)) options.unshift(h('option', { value: chosen, selected: true }, chosen));
  return h('select', { name, id: `compare-${name}`, required: true }, options);
}

/** Lines of a diff, the old ones (-) before the new (+), each with its sign. */
function diffBlock(lines, cls = 'diff') {
  return h('pre', { class: cls }, lines.map((l) => h('span', { class: l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'same' }, `${l.op} ${l.text}\n`)));
}

/** One batch's side of an item: its state (a link to the item there) and its decisions, in words. */
function side(name, s, id) {
  if (!s) return h('span', { class: 'muted' }, 'absent');
  return h('div', {}, h('a', { href: path('b', name, 'i', id) }, s.state), s.decisions.length ? h('ul', { class: 'decisions' }, s.decisions.map((d) => h('li', {}, d))) : null);
}

/** What changed in an item's question, answer and files: each said as such, old lines first. */
function changes(c) {
  const out = [];
  if (c.questionChanged) out.push(h('div', { class: 'question-changed' }, h('strong', {}, 'Question changed'), diffBlock([{ op: '-', text: c.a.question }, { op: '+', text: c.b.question }])));
  if (c.diff) out.push(h('div', {}, h('strong', {}, 'Answer'), diffBlock(c.diff)));
  else if (c.answerChanged) out.push(h('p', { class: 'muted' }, 'Answer on one side only.'));
  if (c.filesGone.length || c.filesAdded.length)
    out.push(h('div', { class: 'files-changed' }, h('strong', {}, 'Files'), c.filesGone.map((f) => h('div', { class: 'del' }, `- ${f}`)), c.filesAdded.map((f) => h('div', { class: 'add' }, `+ ${f}`))));
  return out;
}

/** One side of a turned verdict: passed / failed with its reason. */
function verdictCell(v) {
  if (!v) return h('span', { class: 'muted' }, 'no verdict');
  return h('div', {}, h('strong', {}, v.pass === true ? 'passed' : v.pass === false ? 'failed' : 'unscored'), v.reason ? ` — ${v.reason}` : '');
}

/** Items whose verdict turned one way, each linked to itself in the later batch. */
function turnsTable(id, title, turns, r) {
  if (turns.length === 0) return null;
  return h(
    'section',
    { id },
    h('h2', {}, title),
    h(
      'table',
      { class: 'grid compare' },
      h('colgroup', {}, h('col', { class: 'c-item' }), h('col', { class: 'c-side' }), h('col', { class: 'c-side' }), h('col', { class: 'c-changes' })),
      h('thead', {}, h('tr', {}, ['Item', 'Scorer', `${r.a} (-)`, `${r.b} (+)`].map((t) => h('th', {}, t)))),
      h('tbody', {}, turns.map((t) => h('tr', { 'data-id': t.id, 'data-scorer': t.scorer }, h('td', {}, h('a', { href: path('b', r.b, 'i', t.id) }, t.id)), h('td', {}, t.scorer), h('td', {}, verdictCell(t.a)), h('td', {}, verdictCell(t.b))))),
    ),
  );
}

/** Verdicts paired by item: counts per scorer with the McNemar line, then the regressed items, then the fixed. */
function verdictsPart(r) {
  const v = r.verdicts;
  if (v.scorers.length === 0) return [];
  const rows = v.scorers.map((s) =>
    h(
      'tr',
      { 'data-scorer': s.scorer },
      h('td', {}, s.scorer, s.versionsDiffer ? h('div', { class: 'muted versions-differ' }, `versions differ: ${s.versionsA.join(', ')} in ${r.a}, ${s.versionsB.join(', ')} in ${r.b}`) : null),
      [s.regressed, s.fixed, s.bothPass, s.bothFail, s.unscored].map((n) => h('td', { class: 'num' }, String(n))),
      h('td', { class: 'chance' }, s.words),
    ),
  );
  return [
    h(
      'section',
      { id: 'compare-verdicts' },
      h('h2', {}, `Verdicts on ${v.paired} paired items`),
      h(
        'table',
        { class: 'grid', id: 'compare-scorers' },
        h('thead', {}, h('tr', {}, ['Scorer', 'Regressed', 'Fixed', 'Both pass', 'Both fail', 'Unscored in either', 'More than chance?'].map((t) => h('th', {}, t)))),
        h('tbody', {}, rows),
      ),
    ),
    turnsTable('compare-regressed', `Regressed: passed in ${r.a}, fail in ${r.b}`, v.regressed, r),
    turnsTable('compare-fixed', `Fixed: failed in ${r.a}, pass in ${r.b}`, v.fixed, r),
    v.more ? h('p', { class: 'muted', id: 'compare-verdicts-more' }, 'More verdicts turned than are shown: ', h('code', {}, r.listAll), ' lists them all.') : null,
  ];
}

/**
 * Two batches side by side, picked from the list: counts at the top, the verdicts (regressed
 * items first, then fixed) when either batch was scored, then each item that differs. It opens
 * on the two newest batches compared (the address may name others); with fewer than two
 * batches it says so.
 */
export async function showCompare(main) {
  document.title = 'resq — compare';
  const u = new URLSearchParams(location.search);
  const { batches } = await getJson('/api/batches');
  const a = u.get('a') ?? batches[1]?.name ?? '';
  const b = u.get('b') ?? batches[0]?.name ?? '';
  const form = h(
    'form',
    { method: 'get', action: '/compare', class: 'filters', id: 'compare-form' },
    h('label', {}, 'Before (-) ', batchPicker('a', batches, a)),
    h('label', {}, ' After (+) ', batchPicker('b', batches, b)),
    ' ',
    h('button', { type: 'submit' }, 'Compare'),
  );
  fill(main, h('h1', {}, 'Compare two batches'), form);
  if (batches.length === 0) return void main.append(h('p', { class: 'muted', id: 'compare-none' }, 'No batch in this database yet: there is nothing to compare.'));
  if (batches.length === 1 && (!a || !b))
    return void main.append(h('p', { class: 'muted', id: 'compare-only-one' }, `There is only one batch in this database (${batches[0].name}): run another to compare it with.`));
  if (!a || !b) return;
  const r = await getJson(`/api/compare?${new URLSearchParams({ a, b })}`);
  const n = r.counts;
  const parts = [
    h(
      'p',
      { id: 'compare-counts', class: 'counts' },
      `${n.both} in both (${n.same} the same) · ${n.onlyA} only in ${r.a} · ${n.onlyB} only in ${r.b} · state changed ${n.stateChanged} · question changed ${n.questionChanged} · answer changed ${n.answerChanged} · decisions differ ${n.decisionsDiffer} · files changed ${n.filesChanged}`,
    ),
    ...verdictsPart(r),
    r.changed.length === 0
      ? h('p', { class: 'muted' }, r.verdicts.scorers.length ? 'No other difference: the answers, states, decisions and files are the same.' : 'No difference.')
      : h(
          'table',
          { class: 'grid compare', id: 'compare-table' },
          h('colgroup', {}, h('col', { class: 'c-item' }), h('col', { class: 'c-side' }), h('col', { class: 'c-side' }), h('col', { class: 'c-changes' })),
          h('thead', {}, h('tr', {}, ['Item', `${r.a} (-)`, `${r.b} (+)`, 'What changed'].map((t) => h('th', {}, t)))),
          h('tbody', {}, r.changed.map((c) => h('tr', { 'data-id': c.id }, h('td', {}, c.id), h('td', {}, side(r.a, c.a, c.id)), h('td', {}, side(r.b, c.b, c.id)), h('td', {}, changes(c))))),
        ),
    r.more ? h('p', { class: 'muted', id: 'compare-more' }, 'More items differ than are shown: ', h('code', {}, r.listAll), ' lists them all.') : null,
  ];
  main.append(...parts.filter((p) => p !== null));
}
