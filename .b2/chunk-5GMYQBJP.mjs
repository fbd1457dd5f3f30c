import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  alongsideVerdicts,
  verdictsByName
} from "./chunk-UQ4YZVT5.mjs";
import {
  chainSeconds
} from "./chunk-UM7NX3RY.mjs";
import {
  scorersShown
} from "./chunk-DL5UYYIV.mjs";
import {
  decisionNote
} from "./chunk-IVLJ7PFV.mjs";
import {
  recordedCost,
  untrustedCost
} from "./chunk-O4EQ2A5A.mjs";

// src/read/export-rows.ts
function exportFile(f) {
  return { id: f.id, role: f.role, name: f.name, path: f.path, bytes: f.bytes, sha256: f.sha256, status: f.status };
}
function exportStatus(s) {
  return s === "submitting" ? "running" : s;
}
var runSeconds = (times) => chainSeconds(times);
function untrusted(input) {
  const shown = untrustedCost(input);
  return shown === null ? {} : { untrusted_cost: shown };
}
function exportRow(a, scores = {}) {
  const it = a.item;
  return {
    id: it.id,
    question: it.question,
    status: exportStatus(it.state),
    run_status: it.runStatus,
    thread_id: it.threadId,
    run_ids: a.runIds,
    text: it.text,
    decisions: a.decisions.map((d) => ({ tool: d.tool, input: d.input, answer: d.answer, by: d.by, ...d.by === "person" && d.person ? { person: d.person } : {}, reason: d.reason ?? null, note: decisionNote(d), cost: recordedCost(Number(d.cost ?? 0)), ...untrusted(d.input) })),
    files: a.files.map(exportFile),
    error: it.error,
    error_code: it.errorCode,
    cost: a.decisions.reduce((sum, d) => sum + recordedCost(Number(d.cost ?? 0)), 0),
    duration_seconds: runSeconds(a.runTimes),
    created_at: a.runTimes[0]?.createdAt ?? null,
    finished_at: it.finishedAt,
    meta: it.meta,
    scores
  };
}
async function* exportRows(store, batch, sel = {}) {
  const o = typeof sel === "number" ? { pageSize: sel } : sel;
  const states = o.states;
  const pageSize = o.pageSize ?? 500;
  const refs = await scorersShown(store, batch);
  const readPage = (after, limit) => store.aggregates(batch.id, after, limit, states);
  const rows = alongsideVerdicts(refs.length > 0 ? store : null, batch.id, readPage, (a) => a.item.seq, pageSize);
  for await (const { row, verdicts } of rows) yield exportRow(row, refs.length > 0 ? verdictsByName(refs, verdicts) : {});
}

export {
  exportFile,
  exportRows
};
//# sourceMappingURL=chunk-5GMYQBJP.mjs.map
