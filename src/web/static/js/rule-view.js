// "The rule that would have decided these": from pauses people decided (some items, or all of
// the batch), the policy rule that decides them as the people did, as YAML for a policy file.
import { batchApi, getJson } from './api.js';
import { fill, h } from './dom.js';

/** Shows the rule proposed from the person-decided pauses of `ids` (empty: every one of the batch) in `out`. */
export async function showRule(out, name, ids) {
  const q = ids.length ? `?items=${encodeURIComponent(ids.join(','))}` : '';
  try {
    const r = await getJson(`${batchApi(name, 'rule')}${q}`);
    if (r.from === 0) {
      fill(out, h('p', { class: 'muted', id: 'rule-none' }, 'None of these pauses was decided by a person.'));
      return;
    }
    fill(
      out,
      h('ul', { id: 'rule-notes' }, r.notes.map((n) => h('li', {}, n))),
      h('pre', { id: 'rule-yaml' }, r.yaml),
      h('p', { id: 'rule-agrees' }, `It decides ${r.agrees} of these ${r.pauses} pauses as the people did. Try it on a whole batch first: ${r.check}`),
      r.skipped.length ? h('p', { class: 'muted', id: 'rule-skipped' }, `No pause decided by a person: ${r.skipped.join(', ')}`) : null,
    );
  } catch (e) {
    fill(out, h('p', { class: 'error' }, e.message));
  }
}

/** The section of a batch page: item ids (empty: every pause a person decided) and the rule they suggest. */
export function ruleSection(name) {
  const out = h('div', { id: 'rule-out' });
  const ids = h('input', { id: 'rule-items', type: 'text', size: '50', placeholder: 'item ids, comma-separated (empty: all)', 'aria-label': 'items' });
  const go = h('button', { type: 'button', id: 'rule-go', onclick: () => showRule(out, name, ids.value.split(',').map((s) => s.trim()).filter(Boolean)) }, 'Propose the rule');
  return h(
    'section',
    { id: 'rule' },
    h('h2', {}, 'The rule that would have decided these'),
    h('p', {}, ids, ' ', go, ' ', h('span', { class: 'muted' }, 'the policy rule that decides these pauses as the people did, to copy into a policy file')),
    out,
  );
}
