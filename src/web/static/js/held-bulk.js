// The held queue, once: every held item in one table (kept current by the live overview),
// selected by tool, cost range, meta field, text or all on the page, then approved, declined
// or chosen at once — one decision each, with the person's
// name and a note — after a confirmation that says how many and their total cost (a decline:
// the cost not spent); each for the pause listed (its run), asked again past the budget.
import { batchApi, getJson, postJson } from './api.js';
import { confirmIn } from './confirm.js';
import { fill, h, path, when } from './dom.js';
import { overBudgetWords } from './pause-view.js';
import { personName } from './person.js';
import { showRule } from './rule-view.js';

/**
 * The held items of a batch with a filter form, checkboxes and one reply for all those checked.
 * Returns `overview(o)`: called with each live overview, it lists the held items again when
 * they changed (the boxes checked stay checked) and shows who decided their earlier pauses.
 */
export function heldBulk(box, name) {
  const filter = h(
    'form',
    { id: 'bulk-filter', class: 'filters' },
    h('label', {}, 'Tool ', h('select', { name: 'bulk-tool' }, h('option', { value: '' }, 'any'))),
    h('label', {}, ' Cost from ', h('input', { name: 'bulk-minCost', type: 'number', min: 0, step: 'any', size: 6 })),
    h('label', {}, ' to ', h('input', { name: 'bulk-maxCost', type: 'number', min: 0, step: 'any', size: 6 })),
    h('label', {}, ' Meta field ', h('input', { name: 'bulk-meta', size: 8 })),
    h('label', {}, ' = ', h('input', { name: 'bulk-value', size: 8 })),
    h('label', {}, ' Text ', h('input', { name: 'bulk-q', type: 'search', size: 12, placeholder: 'in id, question, reason' })),
    ' ',
    h('button', { type: 'submit', id: 'bulk-select' }, 'Select matching'),
    ' ',
    h('button', { type: 'button', id: 'bulk-refresh', onclick: () => load(new URLSearchParams(), false) }, 'List all held'),
  );
  const list = h('div', { id: 'bulk-list' });
  const total = h('p', { id: 'bulk-total', class: 'muted' });
  const note = h('input', { id: 'bulk-note', class: 'note', placeholder: 'note (optional, recorded with each)', maxlength: 2000, size: 30 });
  const options = h('input', { id: 'bulk-options', placeholder: 'option id(s) to choose', size: 14 });
  const confirmBox = h('div', { id: 'bulk-confirm' });
  const result = h('div', { id: 'bulk-result', role: 'status' });
  const actions = h(
    'p',
    { class: 'bulk-actions' },
    note,
    ' ',
    h('button', { type: 'button', id: 'bulk-approve', class: 'approve', onclick: () => decide('approve') }, 'Approve selected'),
    ' ',
    h('button', { type: 'button', id: 'bulk-decline', onclick: () => decide('decline') }, 'Decline selected'),
    ' ',
    options,
    ' ',
    h('button', { type: 'button', id: 'bulk-choose', onclick: () => decide('choose') }, 'Choose for selected'),
  );
  fill(box, h('div', { id: 'bulk' }, filter, list, total, actions, confirmBox, result));

  /** The rows listed now: id → item. */
  let shown = new Map();
  /** The filter of the list shown, and whether a person narrowed it (then a live change keeps it). */
  let listed = new URLSearchParams();
  /** Earlier decisions of the held items the live overview names: id → deciders. */
  let deciders = new Map();
  let loads = 0;
  const deciderSpans = (id) => (deciders.get(id) ?? []).map((d) => h('span', { class: 'decider' }, ` · earlier ${d.tool}: ${d.words} by ${d.by === 'policy' ? 'the policy' : (d.person ?? 'a person')}${d.note ? ` (note: ${d.note})` : ''}`));
  const checked = () => [...list.querySelectorAll('input[name=pick]:checked')].map((x) => shown.get(x.value)).filter(Boolean);
  const costOf = (items) => items.reduce((n, it) => n + (it.cost ?? 0), 0);
  const sayTotal = () => {
    const sel = checked();
    fill(total, `${sel.length} selected of ${shown.size} listed · total cost ${costOf(sel)}`);
  };
  const query = () => {
    const data = new FormData(filter);
    const q = new URLSearchParams();
    // The form's names carry a prefix: the items table's filters below use the plain ones.
    for (const k of ['tool', 'minCost', 'maxCost', 'q']) {
      const v = String(data.get(`bulk-${k}`) ?? '').trim();
      if (v) q.set(k, v);
    }
    const meta = String(data.get('bulk-meta') ?? '').trim();
    if (meta) {
      q.set('meta', meta);
      q.set('value', String(data.get('bulk-value') ?? ''));
    }
    return q;
  };

  /** Lists the held items the filter selects (every held item without one); `check`: those listed start checked; `keep`: those checked stay so. */
  async function load(q, check, keep = false) {
    const mine = ++loads;
    const kept = new Set(keep ? checked().map((it) => it.id) : []);
    let sel;
    try {
      sel = await getJson(`${batchApi(name, 'held')}${q.toString() ? `?${q}` : ''}`);
    } catch (e) {
      if (mine === loads) fill(list, h('p', { class: 'error' }, e.message));
      return;
    }
    // A later listing (a live change, the filter) answered first: this one is stale.
    if (mine !== loads) return;
    listed = q;
    const on = (id) => check || kept.has(id);
    shown = new Map(sel.items.map((it) => [it.id, it]));
    const tools = filter.querySelector('select[name=bulk-tool]');
    const have = new Set([...tools.options].map((o) => o.value));
    for (const t of sel.items.map((it) => it.tool)) if (!have.has(t)) (tools.append(h('option', { value: t }, t)), have.add(t));
    const all = h('input', { type: 'checkbox', id: 'bulk-all', title: 'all on the page', checked: sel.items.length > 0 && sel.items.every((it) => on(it.id)) });
    all.addEventListener('change', () => {
      for (const x of list.querySelectorAll('input[name=pick]')) x.checked = all.checked;
      sayTotal();
    });
    fill(
      list,
      sel.items.length === 0
        ? h('p', { class: 'muted', id: 'bulk-empty' }, q.toString() ? 'No held item matches.' : 'Nothing is held for a person.')
        : h(
            'table',
            { class: 'grid', id: 'bulk-table' },
            h('thead', {}, h('tr', {}, h('th', {}, h('label', {}, all, ' all')), ['Id', 'Tool', 'Cost', 'Held because', 'Question'].map((t) => h('th', {}, t)))),
            h(
              'tbody',
              {},
              sel.items.map((it) =>
                h(
                  'tr',
                  { 'data-id': it.id },
                  h('td', {}, h('input', { type: 'checkbox', name: 'pick', value: it.id, checked: on(it.id), onchange: sayTotal })),
                  h('td', {}, h('a', { href: path('b', name, 'i', it.id) }, it.id)),
                  h('td', {}, it.tool),
                  h('td', { class: it.untrustedCost ? 'num warn' : 'num' }, it.untrustedCost ?? (it.cost === null ? '—' : String(it.cost))),
                  h('td', { class: 'text' }, it.holdReason ?? '', h('span', { class: 'deciders' }, deciderSpans(it.id))),
                  h('td', { class: 'text' }, it.question),
                ),
              ),
            ),
          ),
      sel.count > sel.items.length ? h('p', { class: 'warn' }, `Showing the first ${sel.items.length} of ${sel.count} matching (total cost of all ${sel.totalCost}): narrow the filter to reach the rest.`) : null,
    );
    sayTotal();
  }

  async function decide(kind) {
    const person = personName();
    if (!person) {
      fill(result, h('span', { class: 'error' }, 'Write your name in the field at the top first: it is recorded with each answer.'));
      document.getElementById('person')?.focus();
      return;
    }
    const sel = checked();
    if (sel.length === 0) {
      fill(result, h('span', { class: 'error' }, 'Select held items first (the filter, or the checkboxes).'));
      return;
    }
    const reply = { kind };
    if (kind === 'choose') {
      reply.ids = options.value.split(',').map((s) => s.trim()).filter(Boolean);
      if (reply.ids.length === 0) {
        fill(result, h('span', { class: 'error' }, 'Write the option id(s) to choose first.'));
        return;
      }
    }
    if (note.value.trim()) reply.note = note.value.trim();
    if (!(await confirmIn(confirmBox, `${questionFor(kind, reply, sel)} Each gets its own decision, recorded as ${person}.`))) return;
    fill(result, 'Sending…');
    // Each item with the pause listed (its run): one that paused again since is skipped, not answered.
    const body = { person, reply, items: sel.map((it) => ({ id: it.id, runId: it.runId })) };
    try {
      let r;
      try {
        r = await postJson(batchApi(name, 'held', 'answer'), body);
      } catch (e) {
        if (e.body?.code !== 'RESQ_OVER_BUDGET') throw e;
        fill(result);
        if (!(await confirmIn(confirmBox, overBudgetWords(`Approving ${sel.length} held item(s)`, e.body)))) {
          fill(result, h('span', { class: 'muted', id: 'bulk-not-approved' }, 'Not approved: nothing recorded.'));
          return;
        }
        fill(result, 'Sending…');
        r = await postJson(batchApi(name, 'held', 'answer'), { ...body, overBudget: true });
      }
      fill(
        result,
        h('p', { id: 'bulk-answered' }, `Answered ${r.answered.length} item(s) as ${r.person}, ${kind === 'decline' ? `their cost ${r.totalCost} not spent` : `total cost ${r.spent}`}${r.answered.some((a) => a.overBudget) ? ' (over the batch budget, as confirmed)' : ''}.`, r.next ? [' Not sent yet: ', h('code', {}, r.next.command), ' sends them (no worker is running this batch).'] : ' The worker carrying the batch sends them.'),
        r.skipped.length
          ? h('div', { id: 'bulk-skipped' }, h('p', { class: 'warn' }, `Skipped ${r.skipped.length}:`), h('ul', {}, r.skipped.map((s) => h('li', {}, h('a', { href: path('b', name, 'i', s.id) }, s.id), s.pause || !s.by ? ` — ${s.reason}` : ` — answered by ${s.by}${s.at ? `, ${when(s.at)}` : ''}`))))
          : null,
        r.answered.length ? h('p', {}, h('button', { type: 'button', id: 'bulk-rule', onclick: () => ruleFor(r.answered.map((a) => a.id)) }, 'The rule that would have decided these')) : null,
      );
    } catch (e) {
      fill(result, h('span', { class: 'error', id: 'bulk-refused' }, e.message));
    }
    await load(query(), false);
  }

  /** The confirmation's question: how many, and what it does with their cost (a decline spends none). */
  function questionFor(kind, reply, sel) {
    if (kind === 'decline') {
      const plans = sel.every((it) => it.tool === 'confirm_scope');
      const cost = costOf(sel);
      return `Decline ${sel.length} ${plans ? 'plan(s)' : 'held item(s)'}${cost > 0 ? ` (their cost ${cost} is not spent)` : ''}?`;
    }
    if (kind === 'choose') return `Choose ${reply.ids.join(', ')} for ${sel.length} held item(s)?`;
    return `Approve ${sel.length} held item(s), total cost ${costOf(sel)}?`;
  }

  /** Shows, in the section below, the policy rule that would have decided the items just answered. */
  function ruleFor(ids) {
    const out = document.getElementById('rule-out');
    const field = document.getElementById('rule-items');
    if (!out || !field) return;
    field.value = ids.join(',');
    void showRule(out, name, ids);
    out.scrollIntoView({ block: 'nearest' });
  }

  filter.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void load(query(), true);
  });
  void load(new URLSearchParams(), false);

  let seen = null;
  return {
    /** A live overview: the list again when the held items changed, and the earlier decisions of those it names. */
    overview(o) {
      deciders = new Map(o.heldItems.map((x) => [x.id, x.decisions]));
      for (const row of list.querySelectorAll('#bulk-table tbody tr')) {
        const cell = row.querySelector('.deciders');
        if (cell) fill(cell, deciderSpans(row.getAttribute('data-id')));
      }
      const now = `${o.held}:${o.heldItems.map((x) => `${x.id}/${x.runId}`).join(',')}`;
      if (seen !== null && now !== seen) void load(listed, false, true);
      seen = now;
    },
  };
}
