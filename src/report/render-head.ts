import { printable } from '../text/printable.js';
import { html, Markup } from '../web/html.js';
import type { BatchRecord } from '../store/index.js';
import type { VerdictTurn } from '../read/regressions.js';
import type { ReportSummary } from './gather.js';
import { REPORT_CSP, REPORT_CSS } from './page-style.js';

/** Untrusted text for one line of the page: controls and direction overrides made visible, then escaped by the template. */
export const line = (s: string): string => printable(s).replace(/\n/g, '\\n');

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

function table(head: string[], rows: Markup[]): Markup {
  return html`<table><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table>`;
}

function compareSection(c: NonNullable<ReportSummary['compare']>, batchName: string): Markup {
  const [a, b] = [line(c.name), line(batchName)];
  const turns = (title: string, id: string, list: readonly VerdictTurn[]): Markup =>
    list.length === 0
      ? html``
      : html`<h3>${title}</h3><table id="${id}"><thead><tr><th>Item</th><th>Scorer</th><th>${a}</th><th>${b}</th></tr></thead><tbody>${list.map(
          (t) => html`<tr><td><a href="#i-${encodeURIComponent(t.id)}">${line(t.id)}</a></td><td>${line(t.scorer)}</td><td>${t.a ? line(`${t.a.pass ? 'passed' : 'failed'}: ${t.a.reason}`) : 'no verdict'}</td><td>${line(`${t.b.pass ? 'passed' : 'failed'}: ${t.b.reason}`)}</td></tr>`,
        )}</tbody></table>`;
  return html`<section id="regressions"><h2>Regressions against ${a}</h2><p>${c.paired} items in both batches, paired by id; scorers matched by name.</p>
${table(
  ['Scorer', 'Regressed', 'Fixed', 'Both pass', 'Both fail', 'Unscored in either', 'More than chance?'],
  c.scorers.map(
    (s) =>
      html`<tr><td>${line(s.scorer)}${s.versionsDiffer ? html` <span class="m">(versions differ: other settings)</span>` : ''}</td>${[s.regressed, s.fixed, s.bothPass, s.bothFail, s.unscored].map((n) => html`<td class="n">${n}</td>`)}<td>${s.words}</td></tr>`,
  ),
)}
${turns(`Regressed: passed in ${a}, fail in ${b}`, 'regressed', c.regressed)}${turns(`Fixed: failed in ${a}, pass in ${b}`, 'fixed', c.fixed)}${c.more ? html`<p class="m">More turned than listed here: <code>resq compare</code> lists them all.</p>` : ''}</section>`;
}

/** The document's head and the report's summary sections, up to the opening of the items table. */
export function renderHead(batch: BatchRecord, s: ReportSummary, madeAt: string, serveUrl: string): string {
  const name = line(batch.name);
  const states = Object.entries(s.counts).filter(([, n]) => n > 0);
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>resq report — ${name}</title>
<style>${new Markup(REPORT_CSS)}</style></head><body>
<h1>Report: ${name}</h1>
<p class="m">Batch ${line(batch.id)}, created ${batch.createdAt}${batch.cancelledAt ? `, cancelled ${batch.cancelledAt}` : ''}; this report made ${madeAt}.</p>
<section id="counts"><h2>Counts and cost</h2>
${table(['Items', ...states.map(([k]) => k)], [html`<tr><td class="n">${s.items}</td>${states.map(([, n]) => html`<td class="n">${n}</td>`)}</tr>`])}
<p>Approved cost: ${s.approvedCost}${s.budget !== null ? ` of a budget of ${s.budget}` : ''}.</p></section>
<section id="pass-rates"><h2>Pass rates</h2>${
    s.passRates.length === 0
      ? html`<p class="m">No verdicts: the batch was not scored.</p>`
      : table(
          ['Scorer', 'Passed', 'Failed', 'Unscored', 'Pass rate', '95% interval (Wilson)'],
          s.passRates.map(
            (r) =>
              html`<tr><td>${line(r.scorer)}</td><td class="n">${r.passed}</td><td class="n">${r.failed}</td><td class="n">${r.unscored}</td><td class="n">${r.rate === null ? '—' : pct(r.rate)}</td><td>${r.interval ? `${pct(r.interval.low)} – ${pct(r.interval.high)}` : '—'}</td></tr>`,
          ),
        )
  }</section>
<section id="failures"><h2>Failures by code</h2>${
    s.failures.length === 0 ? html`<p class="m">No item failed.</p>` : table(['Code', 'Items'], s.failures.map((f) => html`<tr><td>${line(f.code)}</td><td class="n">${f.count}</td></tr>`))
  }</section>
<section id="decisions"><h2>Decisions and who made them</h2>${
    s.decisions.length === 0
      ? html`<p class="m">No pause was decided.</p>`
      : table(['Pause', 'Decision', 'By', 'Times'], s.decisions.map((d) => html`<tr><td>${line(d.tool)}</td><td>${line(d.words)}</td><td>${line(d.decider)}</td><td class="n">${d.count}</td></tr>`))
  }</section>
${s.compare ? compareSection(s.compare, batch.name) : ''}
<section id="items-section"><h2>Items</h2>
<p class="m">A cut text ends with how many characters are left out (+N); on a cut answer, +N links to the whole answer in resq serve (${line(serveUrl)}). Verdicts: ✓ passed, ✗ failed, ? unscored.</p>
<table id="items"><colgroup><col class="w1"><col class="w2"><col class="w3"><col class="w4">${s.scorers.map(() => html`<col class="w6">`)}<col class="w5"></colgroup>
<thead><tr><th>Item</th><th>Question</th><th>Expected</th><th>Answer</th>${s.scorers.map((n) => html`<th>${line(n)}</th>`)}<th>Files</th></tr></thead><tbody>
`.text;
}

/** The end of the document after the last item. */
export const REPORT_TAIL = '</tbody></table></section>\n</body></html>\n';
