import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  Markup,
  html,
  renderMarkdown
} from "./chunk-AIZNH7KJ.mjs";
import {
  regressionSummary
} from "./chunk-74HQCBTK.mjs";
import {
  alongsideVerdicts,
  scorerVersionsOf,
  verdictByScorer
} from "./chunk-UQ4YZVT5.mjs";
import {
  isoNow
} from "./chunk-64FYAIQV.mjs";
import {
  printable
} from "./chunk-5GEFFECR.mjs";
import {
  wilson
} from "./chunk-EL7BER4H.mjs";
import {
  budgetOf
} from "./chunk-M4QEDMWX.mjs";
import {
  escapeControls
} from "./chunk-E7YGSVGC.mjs";
import {
  deciderName,
  decisionWords
} from "./chunk-IVLJ7PFV.mjs";
import {
  recordedCost
} from "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/report/gather.ts
async function* rowsWithVerdicts(store, batch, pageSize = 500) {
  const versions = scorerVersionsOf(batch);
  const rows = alongsideVerdicts(store, batch.id, (after, limit) => store.aggregates(batch.id, after, limit), (r) => r.item.seq, pageSize);
  for await (const { row, verdicts } of rows) yield { row, verdicts: verdictByScorer(verdicts, versions) };
}
function countUp(m, id, key) {
  const e = m.get(id);
  if (e) e.count++;
  else m.set(id, { key, count: 1 });
}
async function gatherReport(store, batch, o = {}) {
  const [counts, approvedCost] = await Promise.all([store.itemCounts(batch.id), store.approvedCost(batch.id)]);
  const tallies = /* @__PURE__ */ new Map();
  const failures = /* @__PURE__ */ new Map();
  const decisions = /* @__PURE__ */ new Map();
  let completed = 0;
  const scorers = /* @__PURE__ */ new Set();
  for await (const { row, verdicts } of rowsWithVerdicts(store, batch, o.pageSize)) {
    const { item } = row;
    if (item.state === "failed" || item.state === "error") countUp(failures, item.errorCode ?? "none", item.errorCode ?? "none");
    for (const d of row.decisions) {
      const key = { tool: d.tool, words: decisionWords(d.answer), decider: deciderName(d) };
      countUp(decisions, JSON.stringify(key), key);
    }
    for (const name of verdicts.keys()) scorers.add(name);
    if (item.state !== "completed") continue;
    completed++;
    for (const [name, v] of verdicts) {
      let t = tallies.get(name);
      if (!t) tallies.set(name, t = { passed: 0, failed: 0 });
      if (v.pass === true) t.passed++;
      else if (v.pass === false) t.failed++;
    }
  }
  const passRates = [...tallies].map(([scorer, t]) => {
    const n = t.passed + t.failed;
    return { scorer, passed: t.passed, failed: t.failed, unscored: completed - n, rate: n > 0 ? t.passed / n : null, interval: wilson(t.passed, n) };
  });
  const most = (m) => [...m.values()].sort((x, y) => y.count - x.count);
  const other = o.compare ?? null;
  return {
    counts,
    items: Object.values(counts).reduce((a, b) => a + b, 0),
    approvedCost: recordedCost(approvedCost),
    budget: budgetOf(batch.policy),
    passRates: passRates.sort((x, y) => x.scorer.localeCompare(y.scorer)),
    scorers: [...scorers].sort((x, y) => x.localeCompare(y)),
    failures: most(failures).map((e) => ({ code: e.key, count: e.count })),
    decisions: most(decisions).map((e) => ({ ...e.key, count: e.count })),
    compare: other ? { name: other.name, ...await regressionSummary(store, other, batch, o.listed ?? 200) } : null
  };
}

// src/report/write-report.ts
import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

// src/report/item-html.ts
import { relative, sep } from "node:path";

// src/report/page-style.ts
import { createHash } from "node:crypto";
var REPORT_CSS = `body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222;background:#fff}
h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ddd;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.15em .5em;text-align:left;vertical-align:top}
td.n{text-align:right}.m{color:#777}.p{color:#16622c}.f{color:#a11}.u{color:#777}
#items{table-layout:fixed;width:100%}.w1{width:10%}.w2{width:22%}.w3{width:12%}.w4{width:36%}.w5{width:8%}.w6{width:7%}#items td,#items th{overflow-wrap:anywhere}#items td>:first-child{margin-top:0}#items h1,#items h2,#items h3{font-size:1.05em}
pre,code{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.9em}ul{margin:0;padding-left:1.1em}`;
var REPORT_CSS_HASH = `'sha256-${createHash("sha256").update(REPORT_CSS).digest("base64")}'`;
var REPORT_CSP = `default-src 'none'; style-src ${REPORT_CSS_HASH}; img-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'`;

// src/report/render-head.ts
var line = (s) => printable(s).replace(/\n/g, "\\n");
var pct = (x) => `${(x * 100).toFixed(1)}%`;
function table(head, rows) {
  return html`<table><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table>`;
}
function compareSection(c, batchName) {
  const [a, b] = [line(c.name), line(batchName)];
  const turns = (title, id, list) => list.length === 0 ? html`` : html`<h3>${title}</h3><table id="${id}"><thead><tr><th>Item</th><th>Scorer</th><th>${a}</th><th>${b}</th></tr></thead><tbody>${list.map(
    (t) => html`<tr><td><a href="#i-${encodeURIComponent(t.id)}">${line(t.id)}</a></td><td>${line(t.scorer)}</td><td>${t.a ? line(`${t.a.pass ? "passed" : "failed"}: ${t.a.reason}`) : "no verdict"}</td><td>${line(`${t.b.pass ? "passed" : "failed"}: ${t.b.reason}`)}</td></tr>`
  )}</tbody></table>`;
  return html`<section id="regressions"><h2>Regressions against ${a}</h2><p>${c.paired} items in both batches, paired by id; scorers matched by name.</p>
${table(
    ["Scorer", "Regressed", "Fixed", "Both pass", "Both fail", "Unscored in either", "More than chance?"],
    c.scorers.map(
      (s) => html`<tr><td>${line(s.scorer)}${s.versionsDiffer ? html` <span class="m">(versions differ: other settings)</span>` : ""}</td>${[s.regressed, s.fixed, s.bothPass, s.bothFail, s.unscored].map((n) => html`<td class="n">${n}</td>`)}<td>${s.words}</td></tr>`
    )
  )}
${turns(`Regressed: passed in ${a}, fail in ${b}`, "regressed", c.regressed)}${turns(`Fixed: failed in ${a}, pass in ${b}`, "fixed", c.fixed)}${c.more ? html`<p class="m">More turned than listed here: <code>resq compare</code> lists them all.</p>` : ""}</section>`;
}
function renderHead(batch, s, madeAt, serveUrl) {
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
<p class="m">Batch ${line(batch.id)}, created ${batch.createdAt}${batch.cancelledAt ? `, cancelled ${batch.cancelledAt}` : ""}; this report made ${madeAt}.</p>
<section id="counts"><h2>Counts and cost</h2>
${table(["Items", ...states.map(([k]) => k)], [html`<tr><td class="n">${s.items}</td>${states.map(([, n]) => html`<td class="n">${n}</td>`)}</tr>`])}
<p>Approved cost: ${s.approvedCost}${s.budget !== null ? ` of a budget of ${s.budget}` : ""}.</p></section>
<section id="pass-rates"><h2>Pass rates</h2>${s.passRates.length === 0 ? html`<p class="m">No verdicts: the batch was not scored.</p>` : table(
    ["Scorer", "Passed", "Failed", "Unscored", "Pass rate", "95% interval (Wilson)"],
    s.passRates.map(
      (r) => html`<tr><td>${line(r.scorer)}</td><td class="n">${r.passed}</td><td class="n">${r.failed}</td><td class="n">${r.unscored}</td><td class="n">${r.rate === null ? "\u2014" : pct(r.rate)}</td><td>${r.interval ? `${pct(r.interval.low)} \u2013 ${pct(r.interval.high)}` : "\u2014"}</td></tr>`
    )
  )}</section>
<section id="failures"><h2>Failures by code</h2>${s.failures.length === 0 ? html`<p class="m">No item failed.</p>` : table(["Code", "Items"], s.failures.map((f) => html`<tr><td>${line(f.code)}</td><td class="n">${f.count}</td></tr>`))}</section>
<section id="decisions"><h2>Decisions and who made them</h2>${s.decisions.length === 0 ? html`<p class="m">No pause was decided.</p>` : table(["Pause", "Decision", "By", "Times"], s.decisions.map((d) => html`<tr><td>${line(d.tool)}</td><td>${line(d.words)}</td><td>${line(d.decider)}</td><td class="n">${d.count}</td></tr>`))}</section>
${s.compare ? compareSection(s.compare, batch.name) : ""}
<section id="items-section"><h2>Items</h2>
<p class="m">A cut text ends with how many characters are left out (+N); on a cut answer, +N links to the whole answer in resq serve (${line(serveUrl)}). Verdicts: ✓ passed, ✗ failed, ? unscored.</p>
<table id="items"><colgroup><col class="w1"><col class="w2"><col class="w3"><col class="w4">${s.scorers.map(() => html`<col class="w6">`)}<col class="w5"></colgroup>
<thead><tr><th>Item</th><th>Question</th><th>Expected</th><th>Answer</th>${s.scorers.map((n) => html`<th>${line(n)}</th>`)}<th>Files</th></tr></thead><tbody>
`.text;
}
var REPORT_TAIL = "</tbody></table></section>\n</body></html>\n";

// src/report/item-html.ts
var ANSWER_MAX = 4e3;
function cutText(text, n) {
  if (text.length <= n) return { text, left: 0 };
  let end = Math.max(0, n);
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  return { text: text.slice(0, end), left: text.length - end };
}
var HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
function visibleControls(text) {
  return text.replace(HIDDEN, escapeControls);
}
var clamp = (x, lo, hi) => Math.max(lo, Math.min(hi, Math.floor(x)));
function servePage(place, id) {
  return `${place.serveUrl}/b/${encodeURIComponent(place.batchName)}/i/${encodeURIComponent(id)}`;
}
function fileHref(reportDir, path) {
  return relative(reportDir, path).split(sep).map(encodeURIComponent).join("/");
}
function shown(s, n) {
  const c = cutText(s, n);
  return c.left > 0 ? `${printable(c.text)}\u2026 (+${c.left.toLocaleString("en-US")})` : printable(c.text);
}
function verdictCell(v, reasonMax) {
  if (!v) return html`<td>`;
  const [cls, mark] = v.pass === true ? ["p", "\u2713"] : v.pass === false ? ["f", "\u2717"] : ["u", "?"];
  const reason = reasonMax > 0 && v.reason ? ` ${line(cutText(v.reason, reasonMax).text)}` : "";
  return html`<td class=${cls}>${mark}${reason}`;
}
function filesCell(row, reportDir) {
  return html`${row.files.map((f) => {
    const name = line(f.name ?? f.role ?? f.id);
    return f.status === "downloaded" && f.path ? html`<a href="${fileHref(reportDir, f.path)}">${name}</a> ` : html`${name} <span class=m>(${f.status})</span> `;
  })}`;
}
function failureLine(item, chars) {
  if (item.state !== "failed" && item.state !== "error") return html``;
  return html`<p class=f>${item.state}${item.errorCode ? ` (${line(item.errorCode)})` : ""}${item.error ? `: ${line(cutText(item.error, Math.max(chars, 40)).text)}` : ""}</p>`;
}
var MARKDOWN_ROOM = 160;
function answerCell(row, place, chars) {
  const { item } = row;
  const failure = failureLine(item, chars);
  if (item.text === null) return failure.text !== "" ? failure : html`<span class=m>no answer (${item.state})</span>`;
  const c = cutText(item.text, chars);
  const body = chars >= MARKDOWN_ROOM || c.left === 0 ? new Markup(renderMarkdown(visibleControls(c.text))) : html`${line(c.text.replace(/\s+/g, " "))}`;
  if (c.left === 0) return html`${failure}${body}`;
  return html`${failure}${body}… <a href="${servePage(place, item.id)}">+${c.left.toLocaleString("en-US")}</a>`;
}
function rowWith(row, verdicts, scorers, place, n) {
  const { item } = row;
  const expected = item.expected === null || item.expected === void 0 ? null : typeof item.expected === "string" ? item.expected : JSON.stringify(item.expected);
  return html`<tr id="i-${encodeURIComponent(item.id)}"><td>${line(item.id)}<td>${shown(item.question, n.question)}<td>${expected === null ? "" : shown(expected, n.expected)}<td>${answerCell(row, place, n.answer)}${scorers.map((name) => verdictCell(verdicts.get(name), n.reason))}<td>${filesCell(row, place.reportDir)}\n`.text;
}
var REASON_ROOM = 600;
function itemRow(row, verdicts, scorers, place, allowance) {
  const reason = allowance < REASON_ROOM ? 0 : clamp(allowance / 12, 0, 300);
  const bare = Buffer.byteLength(rowWith(row, verdicts, scorers, place, { question: 0, expected: 0, answer: 0, reason }));
  const free = Math.max(0, allowance - bare);
  const question = clamp(free * 0.3, 0, 2e3);
  const expected = clamp(free * 0.15, 0, 1e3);
  const rest = free - Math.min(question, row.item.question.length) - Math.min(expected, JSON.stringify(row.item.expected ?? "").length);
  return rowWith(row, verdicts, scorers, place, { question, expected, answer: clamp(rest / 1.2, 0, ANSWER_MAX), reason });
}

// src/report/write-report.ts
var REPORT_MAX_BYTES = 199e5;
async function writeReport(store, batch, o) {
  const path = resolve(o.output);
  const maxBytes = o.maxBytes ?? REPORT_MAX_BYTES;
  const place = { batchName: batch.name, serveUrl: (o.serveUrl ?? "http://127.0.0.1:8642").replace(/\/+$/, ""), reportDir: dirname(path) };
  const summary = await gatherReport(store, batch, { compare: o.compare ?? null, ...o.pageSize ? { pageSize: o.pageSize } : {} });
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  const fh = await open(tmp, "wx", 420);
  let bytes = 0;
  let items = 0;
  let chunk = "";
  const flush = async () => {
    if (chunk === "") return;
    await fh.write(chunk);
    chunk = "";
  };
  const put = async (s) => {
    chunk += s;
    bytes += Buffer.byteLength(s);
    if (chunk.length >= 1 << 16) await flush();
  };
  try {
    await put(renderHead(batch, summary, o.madeAt ?? isoNow(), place.serveUrl));
    for await (const { row, verdicts } of rowsWithVerdicts(store, batch, o.pageSize)) {
      const left = Math.max(1, summary.items - items);
      await put(itemRow(row, verdicts, summary.scorers, place, (maxBytes - bytes - REPORT_TAIL.length) / left));
      items++;
    }
    await put(REPORT_TAIL);
    await flush();
    await fh.sync();
    await fh.close();
    await rename(tmp, path);
  } catch (e) {
    await fh.close().catch(() => void 0);
    await unlink(tmp).catch(() => void 0);
    throw e;
  }
  return { path, bytes, items };
}
export {
  REPORT_CSP,
  REPORT_MAX_BYTES,
  gatherReport,
  rowsWithVerdicts,
  writeReport
};
//# sourceMappingURL=report-FZGWBYZV.mjs.map
