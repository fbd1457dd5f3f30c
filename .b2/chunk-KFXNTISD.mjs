import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  describeUnknownFinals
} from "./chunk-H2ILHW7V.mjs";
import {
  answerHint
} from "./chunk-B54UIUN7.mjs";
import {
  oneLine
} from "./chunk-5GEFFECR.mjs";
import {
  maskLocation
} from "./chunk-755LHRXT.mjs";
import {
  rateWords
} from "./chunk-DL5UYYIV.mjs";
import {
  ACTIVE_STATES
} from "./chunk-MH23QIYG.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import {
  escapeControls
} from "./chunk-E7YGSVGC.mjs";
import {
  deciderLine
} from "./chunk-F57UOP2X.mjs";
import {
  costShown
} from "./chunk-O4EQ2A5A.mjs";

// src/cli/summary.ts
var p = escapeControls;
var HELD_LINE = 79;
function heldLine(h) {
  const shown = costShown(h.input);
  const cost = shown === null ? "" : ` cost ${shown}`;
  const opts = h.tool === "ask_choice" && Array.isArray(h.input?.options) ? ` options ${[...new Set(h.input.options.map((o) => String(o?.id)))].join(",")}` : "";
  const run = h.runId ? ` run ${h.runId}` : "";
  const head = `  ${oneLine(`${h.id}: ${h.tool ?? "?"}${cost}${opts}${run}`, HELD_LINE - 2)}`;
  const room = HELD_LINE - head.length - 5;
  return room >= 12 ? `${head} \u2014 "${oneLine(h.question, room)}"` : head;
}
function failedLine(f) {
  const why = [f.errorCode, f.error].filter((x) => x !== null && x !== "").join(": ") || "no reason given";
  return `  ${oneLine(`${f.id} (${f.status}): ${why}`, HELD_LINE - 2)}`;
}
function formatStatus(s, where) {
  const c = s.counts;
  const unknown = where.unknownFinal ?? [];
  const lines = [];
  const active = ACTIVE_STATES.reduce((n, st) => n + c[st], 0);
  const parts = [
    // Runs that ended in a status resq does not know are counted apart from completed.
    `${c.completed - unknown.length} completed`,
    unknown.length ? describeUnknownFinals(unknown) : "",
    c.failed ? `${c.failed} failed` : "",
    c.error ? `${c.error} error` : "",
    c.held ? `${c.held} held` : "",
    c.cancelled ? `${c.cancelled} cancelled` : "",
    c.queued ? `${c.queued} queued` : "",
    s.inFlight ? `${s.inFlight} in flight` : "",
    // Answered (or claimed by a worker that is gone) and not at the service under a live lease.
    active > s.inFlight ? `${active - s.inFlight} waiting to be sent` : ""
  ].filter(Boolean);
  lines.push(`batch ${p(s.name)}: ${s.total} item${s.total === 1 ? "" : "s"} \u2014 ${parts.join(", ")}`);
  lines.push(rateLine(s));
  for (const g of s.waiting) if (g.reason !== "ready") lines.push(oneLine(g.text, 240));
  if (unknown.length > 0) {
    lines.push(`warning: ${unknown.length} run(s) finished with a status resq does not know, kept verbatim (see run_status in resq export):`);
    for (const u of unknown.slice(0, 10)) lines.push(`  ${p(u.id)}: finished with status ${p(u.status)}`);
    if (unknown.length > 10) lines.push(`  \u2026 and ${unknown.length - 10} more`);
  }
  if (s.budget !== null) {
    const judged = s.budgetSpent - s.approvedCost;
    lines.push(`cost approved: ${s.budgetSpent} of the batch budget ${s.budget} (${Math.round(s.budgetSpent / Math.max(s.budget, 1e-9) * 100)}%)${judged > 0 ? `, ${judged} of it by its agent judge` : ""}`);
  } else if (s.approvedCost > 0) lines.push(`cost approved: ${s.approvedCost}`);
  lines.push(...scoreLines(s.scores));
  if (s.notify) {
    const n = s.notify;
    lines.push(`notifications: ${p(n.receivers)}; ${n.undelivered === 0 ? "all delivered" : `${n.undelivered} undelivered`}${n.lastError ? `; last error: ${oneLine(n.lastError, 160)}` : ""}`);
  }
  if (s.workers.length > 0) {
    const gone = s.workers.filter((w) => w.gone).length;
    lines.push(`workers: ${s.workers.length - gone} live${gone > 0 ? `, ${gone} gone` : ""}`);
    for (const w of s.workers)
      lines.push(
        w.gone ? `  pid ${w.pid} on ${p(w.host)}: gone (its process ended), ${w.items} items claimed, free for the other workers to take` : `  pid ${w.pid} on ${p(w.host)}: ${w.items} items claimed, heartbeat ${(w.heartbeatAgeMs / 1e3).toFixed(1)} s ago`
      );
  }
  if (s.invalidRows > 0) {
    lines.push(`rows skipped as invalid (--skip-invalid): ${s.invalidRows}`);
    for (const line of s.skipped.slice(0, 10)) lines.push(`  ${p(line)}`);
    if (s.invalidRows > 10) lines.push(`  \u2026 all of them: ${commandHint(["resq", "export", s.name, "--invalid"], where)}`);
  }
  if (s.held > 0) {
    lines.push(`held for a person: ${s.held}`);
    for (const h2 of s.heldItems.slice(0, 20)) {
      lines.push(heldLine(h2));
      for (const d of h2.decisions) lines.push(`    earlier ${p(d.tool)}: ${oneLine(deciderLine(d), HELD_LINE - 4 - d.tool.length - 10)}`);
    }
    if (s.held > Math.min(20, s.heldItems.length)) lines.push(`  \u2026 and ${s.held - Math.min(20, s.heldItems.length)} more (${commandHint(["resq", "status", s.name, "--json"], where)})`);
    const h = s.heldItems[0];
    if (h) {
      lines.push(`  see the first: ${commandHint(["resq", "show", s.name, h.id], where)}`);
      lines.push(`  ${answerHint(s.name, h.id, h.tool ?? "", where, h.runId, h.input)}`);
    }
  }
  if (s.failedTotal > 0) {
    const all = commandHint(["resq", "export", s.name, "--failed"], where);
    lines.push(`failed or errored: ${s.failedTotal}`);
    for (const f2 of s.failed) lines.push(failedLine(f2));
    if (s.failedTotal > s.failed.length) lines.push(`  \u2026 and ${s.failedTotal - s.failed.length} more; all of them: ${all}`);
    if (s.failed[0]) lines.push(`  see the first: ${commandHint(["resq", "show", s.name, s.failed[0].id], where)}`);
  }
  if (s.unknownSubmission.length > 0)
    lines.push(
      `submission outcome unknown (re-sent with the same key on resume): ${s.unknownSubmission.slice(0, 10).map(p).join(", ")}${s.unknownSubmission.length > 10 ? " \u2026" : ""}`
    );
  const f = s.files;
  const nFiles = f.pending + f.downloaded + f.failed + f.expired + f.missing;
  if (nFiles > 0)
    lines.push(
      `files: ${f.downloaded} downloaded, ${f.pending} pending, ${f.failed} failed, ${f.expired} expired, ${f.missing} missing`
    );
  lines.push(`database: ${maskLocation(where.db)}`);
  if (where.out) lines.push(`files folder: ${where.out}`);
  return lines.join("\n");
}
function rateLine(s) {
  const rate = `rate ${s.ratePerS === null ? "\u2014" : `${s.ratePerS.toFixed(2)} items/s`}`;
  if (s.next) return `${rate}, no ETA: ${p(s.next.text)}`;
  if (s.unfinished === 0) return `${rate}, nothing left to run`;
  const out = s.etaLeavesOut;
  return `${rate}, ETA ${s.etaS === null ? "\u2014" : `${s.etaS} s`}${out > 0 ? `; ETA leaves out ${out} item${out === 1 ? "" : "s"} waiting for a person` : ""}`;
}
function scoreLines(scores) {
  if (scores.length === 0) return [];
  const twice = new Set(scores.filter((r, i) => scores.findIndex((o) => o.name === r.name) !== i).map((r) => r.name));
  return [
    "scores (pass rate over the judged items, 95% Wilson interval; unscored apart):",
    ...scores.map((r) => {
      const name = twice.has(r.name) ? `${r.name} (version ${r.version})` : r.name;
      return `  ${p(name)}: ${r.passed} passed, ${r.failed} failed \u2014 ${rateWords(r)}; ${r.unscored} unscored`;
    })
  ];
}

export {
  heldLine,
  failedLine,
  formatStatus,
  rateLine,
  scoreLines
};
//# sourceMappingURL=chunk-KFXNTISD.mjs.map
