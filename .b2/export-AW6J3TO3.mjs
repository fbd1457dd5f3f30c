import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  exportRows
} from "./chunk-5GMYQBJP.mjs";
import {
  scorerNames
} from "./chunk-UQ4YZVT5.mjs";
import "./chunk-UM7NX3RY.mjs";
import {
  scorersShown
} from "./chunk-DL5UYYIV.mjs";
import "./chunk-EL7BER4H.mjs";
import {
  FAILED_STATES
} from "./chunk-MH23QIYG.mjs";
import {
  deciderName,
  decisionWords
} from "./chunk-IVLJ7PFV.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/runner/export-csv.ts
var LEAD = ["id", "question"];
var TAIL = [
  "status",
  "run_status",
  "error_code",
  "error",
  "cost",
  "duration_seconds",
  "created_at",
  "finished_at",
  "text",
  "decision_reasons",
  "decided_by",
  "decision_notes",
  "decisions",
  "files",
  "run_ids",
  "thread_id"
];
var FORMULA_START = /^[=+\-@\t\r]/;
function neutralise(cell) {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}
function csvColumns(metaKeys, scorers = []) {
  return [...LEAD, ...metaKeys.map((k) => `meta.${k}`), ...TAIL, ...scorers.flatMap((s) => [`pass_${s}`, `score_${s}`])];
}
function metaCell(v) {
  if (v === void 0 || v === null) return "";
  return typeof v === "string" ? v : JSON.stringify(v);
}
function csvCells(r, metaKeys, scorers = []) {
  const tail = {
    status: r.status,
    run_status: r.run_status ?? "",
    error_code: r.error_code ?? "",
    error: r.error ?? "",
    cost: String(r.cost),
    duration_seconds: r.duration_seconds === null ? "" : String(r.duration_seconds),
    created_at: r.created_at ?? "",
    finished_at: r.finished_at ?? "",
    text: r.text ?? "",
    decision_reasons: JSON.stringify(r.decisions.map((d) => d.reason)),
    // Who decided each pause, in words a spreadsheet shows as they are: `confirm_scope: approved by Ana`.
    decided_by: r.decisions.map((d) => `${d.tool}: ${decisionWords(d.answer)} by ${deciderName({ by: d.by, person: d.person ?? null })}`).join("; "),
    decision_notes: r.decisions.flatMap((d) => d.note ? [`${d.tool}: ${d.note}`] : []).join("; "),
    decisions: JSON.stringify(r.decisions),
    files: JSON.stringify(r.files),
    run_ids: r.run_ids.join(" "),
    thread_id: r.thread_id ?? ""
  };
  const meta = Object.hasOwn(r, "meta") ? r.meta : {};
  const scores = scorers.flatMap((s) => {
    const v = Object.hasOwn(r.scores, s) ? r.scores[s] : void 0;
    return [v?.pass === null || v?.pass === void 0 ? "" : String(v.pass), v?.score === null || v?.score === void 0 ? "" : String(v.score)];
  });
  return [r.id, r.question, ...metaKeys.map((k) => metaCell(Object.hasOwn(meta, k) ? meta[k] : void 0)), ...TAIL.map((c) => tail[c]), ...scores];
}
function quoted(cell) {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}
function csvRecord(cells, o = {}) {
  let line = "";
  for (let i = 0; i < cells.length; i++) line += `${i ? "," : ""}${quoted(o.raw ? cells[i] : neutralise(cells[i]))}`;
  return `${line}${o.excel ? "\r\n" : "\n"}`;
}
var UTF8_BOM = "\uFEFF";
async function* csvExport(store, batch, o = {}) {
  const keys = await store.metaKeys(batch.id);
  const scorers = scorerNames(await scorersShown(store, batch));
  yield `${o.excel ? UTF8_BOM : ""}${csvRecord(csvColumns(keys, scorers), o)}`;
  for await (const row of exportRows(store, batch, o)) yield csvRecord(csvCells(row, keys, scorers), o);
}

// src/runner/operations/export.ts
var INVALID_COLUMNS = ["file", "line", "field", "reason"];
async function* exportLines(store, batch, o = {}) {
  const csv = o.format === "csv";
  const cells = { raw: o.raw === true, excel: o.excel === true };
  if (o.invalid) {
    if (csv) yield `${cells.excel ? UTF8_BOM : ""}${csvRecord(INVALID_COLUMNS, cells)}`;
    for (const p of batch.invalidRows) {
      const row = { file: p.file, line: p.line ?? null, field: p.field ?? null, reason: p.reason };
      yield csv ? csvRecord(INVALID_COLUMNS.map((c) => String(row[c] ?? "")), cells) : `${JSON.stringify(row)}
`;
    }
    return;
  }
  const selection = o.failed ? { states: FAILED_STATES } : {};
  if (csv) {
    yield* csvExport(store, batch, { ...cells, ...selection });
    return;
  }
  for await (const row of exportRows(store, batch, selection)) yield `${JSON.stringify(row)}
`;
}
export {
  exportLines
};
//# sourceMappingURL=export-AW6J3TO3.mjs.map
