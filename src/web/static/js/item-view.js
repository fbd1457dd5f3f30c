import { batchApi, getJson } from './api.js';
import { chip, fill, h, path, setRenderedHtml, when } from './dom.js';
import { pausesView } from './pause-view.js';

function fileBody(batch, itemId, f) {
  if (!f.here) return h('p', { class: 'muted' }, f.status === 'downloaded' ? `On host ${f.host ?? '?'}, not on this server's machine.` : `Not on disk (${f.status}).`);
  const url = batchApi(batch, 'items', itemId, 'files', f.id);
  const download = h('a', { href: url, class: 'download', download: '' }, 'Download');
  // SVG and pictures only ever as <img>: no script in them runs.
  if (f.view === 'image' || f.view === 'svg') return h('div', {}, h('img', { src: url, class: 'file-img', alt: f.name ?? f.id }), h('p', {}, download));
  if (f.view === 'download') return h('p', {}, download);
  const box = h('div', { class: 'preview' }, h('p', { class: 'muted' }, 'Loading…'));
  getJson(`${url}/preview`).then(
    (p) => {
      const more = p.truncated ? h('p', { class: 'muted' }, 'Cut short: download it for the rest.') : null;
      if (p.kind === 'markdown') fill(box, setRenderedHtml(h('div', { class: 'markdown' }), p.html), more);
      else if (p.kind === 'csv') fill(box, h('table', { class: 'grid csv' }, h('thead', {}, h('tr', {}, (p.rows[0] ?? []).map((c) => h('th', {}, c)))), h('tbody', {}, p.rows.slice(1).map((r) => h('tr', {}, r.map((c) => h('td', {}, c)))))), more);
      else fill(box, h('pre', {}, p.text), more);
    },
    (e) => fill(box, h('p', { class: 'error' }, e.message)),
  );
  return h('div', {}, box, h('p', {}, download));
}

/** What each scorer said of the item, with its reason (text: a command scorer's or the service's words). */
function verdictsView(verdicts) {
  if (!verdicts || verdicts.length === 0) return null;
  const said = (p) => (p === null ? h('span', { class: 'tag unscored' }, 'unscored') : h('span', { class: `tag ${p ? 'pass' : 'fail'}` }, p ? 'passed' : 'failed'));
  return [
    h('h2', {}, 'Verdicts'),
    h(
      'table',
      { class: 'grid', id: 'verdicts' },
      h('thead', {}, h('tr', {}, ['Scorer', 'Verdict', 'Score', 'Reason', 'By', 'When'].map((t) => h('th', {}, t)))),
      h('tbody', {}, verdicts.map((x) => h('tr', { 'data-scorer': x.scorer }, h('td', { title: `version ${x.version}` }, x.scorer), h('td', {}, said(x.pass)), h('td', { class: 'num' }, x.score === null ? '' : String(x.score)), h('td', { class: 'reason' }, x.reason), h('td', {}, x.by), h('td', {}, when(x.scoredAt))))),
    ),
  ];
}

/** One item: question and meta, the answer from Markdown, the runs, every pause with its decision, every file. */
export async function showItem(main, batch, itemId) {
  document.title = `resq — ${batch} / ${itemId}`;
  // `notice`: why the last answer was refused (shown above the pauses as they are now).
  const draw = async (notice) => {
    const v = await getJson(batchApi(batch, 'items', itemId));
    const it = v.item;
    fill(
      main,
      h('p', { class: 'crumbs' }, h('a', { href: '/' }, 'Batches'), ' / ', h('a', { href: path('b', batch) }, batch), ' / ', it.id),
      h('h1', {}, `Item ${it.id} `, chip(it.state)),
      h('p', { class: 'muted' }, `line ${it.line}`, it.threadKey ? ` · thread ${it.threadKey}` : '', it.runStatus ? ` · run status ${it.runStatus}` : '', it.attempt ? ` · attempt ${it.attempt + 1}` : '', ` · started ${when(it.startedAt)} · finished ${when(it.finishedAt)}`),
      h('h2', {}, 'Question'),
      h('p', { class: 'question' }, it.question),
      it.expected !== null && it.expected !== undefined ? h('p', { class: 'expected' }, h('strong', {}, 'Expected: '), typeof it.expected === 'string' ? it.expected : JSON.stringify(it.expected)) : null,
      Object.keys(it.meta).length ? h('table', { class: 'grid meta' }, h('tbody', {}, Object.entries(it.meta).map(([k, val]) => h('tr', {}, h('th', {}, k), h('td', {}, typeof val === 'string' ? val : JSON.stringify(val)))))) : null,
      v.wait ? h('p', { class: 'wait', id: 'wait' }, 'Why queued: ', v.wait.text, v.wait.behindId ? [' ', h('a', { href: path('b', batch, 'i', v.wait.behindId) }, `see ${v.wait.behindId}`)] : null) : null,
      it.holdReason ? h('p', { class: 'hold' }, `Held: ${it.holdReason}`) : null,
      it.error ? h('p', { class: 'error' }, `Error: ${it.error}`) : null,
      h('h2', {}, 'Answer'),
      v.answerHtml === null ? h('p', { class: 'muted' }, 'No answer yet.') : setRenderedHtml(h('div', { class: 'markdown answer-text', id: 'answer' }), v.answerHtml),
      verdictsView(v.verdicts),
      h('h2', {}, 'Pauses'),
      pausesView(v, draw, typeof notice === 'string' ? notice : null),
      h('h2', {}, 'Runs'),
      h('table', { class: 'grid' }, h('thead', {}, h('tr', {}, ['Step', 'Run', 'Status', 'Paused on', 'Created', 'Finished', 'Took'].map((t) => h('th', {}, t)))), h('tbody', {}, v.runs.map((r) => h('tr', {}, h('td', { class: 'num' }, String(r.step)), h('td', {}, h('code', {}, r.id)), h('td', {}, r.status), h('td', {}, r.pausedOn ?? ''), h('td', {}, when(r.createdAt)), h('td', {}, r.seconds === null && r.endedUnwatched ? `ended while resq was stopped, at or before ${when(r.finishedAt)}` : when(r.finishedAt)), h('td', { class: 'num took' }, r.seconds === null ? '' : `${r.seconds.toFixed(1)} s`))))),
      h('h2', {}, 'Files'),
      v.files.length === 0
        ? h('p', { class: 'muted' }, 'No file.')
        : h('ul', { class: 'files' }, v.files.map((f) => h('li', { class: 'file', 'data-id': f.id }, h('h3', {}, f.name ?? f.id), h('p', { class: 'muted' }, `${f.role ?? ''} · ${f.mediaType ?? 'unknown type'} · ${f.status}${f.bytes !== null ? ` · ${f.bytes} bytes` : ''}${f.host ? ` · on ${f.host}` : ''} · expires ${when(f.expiresAt)}`), fileBody(batch, it.id, f)))),
    );
  };
  await draw();
}
