import { batchApi, postJson } from './api.js';
import { confirmIn } from './confirm.js';
import { fill, h, when } from './dom.js';
import { personName } from './person.js';

/** A value of a pause's input as text (objects as JSON). */
const text = (v) => (v === undefined || v === null ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

/** The options of a choice, each id once (a service may repeat one: the first is kept). */
const uniqueOptions = (options) => {
  const seen = new Set();
  return (Array.isArray(options) ? options : []).filter((o) => {
    const id = JSON.stringify(o?.id ?? null);
    return seen.has(id) ? false : (seen.add(id), true);
  });
};

/** The full input of a pause, laid out by tool: the plan, the choice with its options, the image request. */
function inputView(p) {
  const i = p.input;
  if (p.tool === 'confirm_scope')
    return h(
      'dl',
      { class: 'input' },
      h('dt', {}, 'Objective'), h('dd', {}, text(i.objective)),
      h('dt', {}, 'Steps'), h('dd', {}, Array.isArray(i.steps) ? h('ol', {}, i.steps.map((s) => h('li', {}, text(s)))) : text(i.steps)),
      h('dt', {}, 'Cost'), h('dd', { class: p.untrustedCost ? 'cost warn' : 'cost' }, p.untrustedCost ?? text(i.cost)),
      h('dt', {}, 'Narrow alternative (if declined)'), h('dd', {}, text(i.instead)),
    );
  if (p.tool === 'ask_choice')
    return h(
      'div',
      { class: 'input' },
      h('p', { class: 'choice-q' }, text(i.question)),
      h('ul', {}, uniqueOptions(i.options).map((o) => h('li', {}, h('strong', {}, text(o?.label)), ` (${text(o?.id)})`, o?.description ? ` — ${text(o.description)}` : ''))),
      h('p', { class: 'muted' }, i.allowMultiple === true ? 'Several options may be chosen.' : 'One option.'),
    );
  if (p.tool === 'request_quality_image') return h('dl', { class: 'input' }, h('dt', {}, 'Prompt'), h('dd', {}, text(i.prompt)), h('dt', {}, 'Reason'), h('dd', {}, text(i.reason)));
  return h('pre', { class: 'input' }, JSON.stringify(i, null, 2));
}

function decisionView(d) {
  const who = d.by === 'person' ? `a person${d.person ? `: ${d.person}` : ''}` : 'the policy';
  return h(
    'p',
    { class: 'decision' },
    `Answered by ${who}, ${when(d.decidedAt)}: `,
    h('strong', { class: 'words' }, d.words),
    d.reason ? ` — ${d.reason}` : '',
    d.note ? [' — note: ', h('q', { class: 'note' }, d.note)] : '',
    d.cost ? ` (cost ${d.cost})` : '',
    d.overBudget ? h('span', { class: 'over-budget warn' }, ' — over the batch budget, as confirmed') : '',
  );
}

/** `Approving this (cost 188) takes the batch's approved cost to 338 of its budget 150 (225%).` from an over-budget refusal. */
export function overBudgetWords(what, body) {
  const pct = Math.round((body.newTotal / Math.max(body.budget, 1e-9)) * 100);
  return `${what} (cost ${body.cost}) takes the batch's approved cost from ${body.approvedCost} to ${body.newTotal}, past its budget ${body.budget} (${pct}%). Approve anyway?`;
}

/** What sends a recorded answer on: at once by a live worker, else the command that runs the batch. */
export function nextView(next) {
  return next
    ? h('p', { class: 'next-step warn' }, 'Answer recorded, not sent: ', h('code', {}, next.command), ' — no worker is running this batch; run that command to send it.')
    : h('p', { class: 'muted' }, 'Answer recorded; the worker carrying the batch sends it.');
}

/**
 * The form that answers a held pause; posts the reply with the person's name and the pause's
 * run (an answer is for this pause only), then calls `done`. An approval past the budget is
 * asked again; a pause that moved on is redrawn in place with the refusal (`done(message)`).
 */
function answerForm(batch, itemId, p, done) {
  const status = h('p', { class: 'answer-status', role: 'status' });
  const confirmBox = h('div', { class: 'answer-confirm' });
  const note = h('input', { name: 'note', class: 'note', placeholder: 'note (optional)', maxlength: 2000 });
  const send = async (reply) => {
    const person = personName();
    if (!person) {
      fill(status, h('span', { class: 'error' }, 'Write your name in the field at the top first: it is recorded with the answer.'));
      document.getElementById('person')?.focus();
      return;
    }
    if (note.value.trim()) reply.note = note.value.trim();
    const body = { person, runId: p.runId, reply };
    fill(status, 'Sending…');
    try {
      let r;
      try {
        r = await postJson(batchApi(batch, 'items', itemId, 'answer'), body);
      } catch (e) {
        if (e.body?.code !== 'RESQ_OVER_BUDGET') throw e;
        fill(status);
        if (!(await confirmIn(confirmBox, overBudgetWords('Approving this', e.body)))) {
          fill(status, h('span', { class: 'muted' }, 'Not approved: nothing recorded.'));
          return;
        }
        fill(status, 'Sending…');
        r = await postJson(batchApi(batch, 'items', itemId, 'answer'), { ...body, overBudget: true });
      }
      fill(status, nextView(r.next));
      await done();
    } catch (e) {
      // Paused again since it was shown: the new pause in its place, with why nothing was recorded.
      if (e.body?.code === 'RESQ_PAUSE_MOVED') return done(e.message);
      const who = e.body?.answeredBy ? ` (answered by ${e.body.answeredBy}${e.body.answeredAt ? `, ${when(e.body.answeredAt)}` : ''})` : '';
      fill(status, h('span', { class: 'error refused' }, `${e.message}${who}`));
    }
  };
  const form = h('form', { class: 'answer', 'data-tool': p.tool });
  if (p.tool === 'ask_choice') {
    const multi = p.input.allowMultiple === true;
    const opts = uniqueOptions(p.input.options);
    form.append(
      h('div', { class: 'options' }, opts.map((o) => h('label', {}, h('input', { type: multi ? 'checkbox' : 'radio', name: 'option', value: String(o?.id ?? '') }), ` ${text(o?.label)} `))),
      note,
      ' ',
      h('button', { type: 'submit', class: 'choose' }, 'Choose'),
      ' ',
      h('button', { type: 'button', class: 'decline', onclick: () => send({ kind: 'decline' }) }, 'Decline'),
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const ids = [...form.querySelectorAll('input[name=option]:checked')].map((x) => x.value);
      if (ids.length === 0) fill(status, h('span', { class: 'error' }, 'Pick an option first.'));
      else void send({ kind: 'choose', ids });
    });
  } else {
    form.append(note, ' ', h('button', { type: 'button', class: 'approve', onclick: () => send({ kind: 'approve' }) }, 'Approve'), ' ', h('button', { type: 'button', class: 'decline', onclick: () => send({ kind: 'decline' }) }, 'Decline'));
    form.addEventListener('submit', (ev) => ev.preventDefault());
  }
  return h('div', {}, form, confirmBox, status);
}

/** Every pause of the chain: its full input and its decision, or the answer form while it waits for a person; `notice`: why the last answer was refused. */
export function pausesView(view, done, notice) {
  if (view.pauses.length === 0) return h('p', { class: 'muted' }, 'No pause.');
  const list = h(
    'ol',
    { class: 'pauses' },
    view.pauses.map((p) =>
      h(
        'li',
        { class: 'pause', 'data-tool': p.tool, 'data-run': p.runId },
        h('h3', {}, p.tool),
        inputView(p),
        p.decision ? decisionView(p.decision) : view.item.state === 'held' ? answerForm(view.batch.name, view.item.id, p, done) : null,
        p.waiting === 'send' ? nextView(view.next) : null,
      ),
    ),
  );
  return notice ? h('div', {}, h('p', { class: 'error refused', id: 'pause-moved', role: 'alert' }, notice), list) : list;
}
