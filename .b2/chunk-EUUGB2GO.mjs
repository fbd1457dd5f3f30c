import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  done,
  pickRenderer
} from "./chunk-FEF6I5IO.mjs";
import {
  oneLine
} from "./chunk-5GEFFECR.mjs";
import {
  maskLocation
} from "./chunk-755LHRXT.mjs";

// src/cli/models-progress.ts
function modelProgress() {
  const fields = (c, inFlight, credits) => ({ inFlight, failed: c.failed + c.error, credits });
  return {
    barFormat: "in flight {inFlight} | failed {failed} | credits {credits}",
    read(e) {
      switch (e.type) {
        case "start": {
          const unknown = e.unknown ? `, ${e.unknown} with unknown outcome${e.resubmitUnknown ? " (re-sent with their key)" : ""}` : "";
          const line = `batch ${e.batch} (model ${e.model}): ${e.total} rows, ${done(e.counts)} already finished, ${e.resumed} re-attached${unknown}`;
          return { kind: "start", line, aboveBar: true, total: e.total, done: done(e.counts), fields: fields(e.counts, 0, 0) };
        }
        case "progress":
          return { kind: "bar", done: done(e.counts), fields: fields(e.counts, e.inFlight, e.credits) };
        case "end":
          return { kind: "bar", done: done(e.counts), fields: fields(e.counts, 0, e.credits) };
        case "warning":
          return { kind: "problem", line: `warning: ${e.message}` };
        case "file-problem":
          return { kind: "problem", line: `file ${e.fileId} of row ${e.itemId}: ${e.status}: ${e.reason}` };
        case "cap":
          return { kind: "detail", line: `in-flight cap now ${e.cap} (${e.reason})` };
        default:
          return null;
      }
    }
  };
}
function pickModelsRenderer(json, io) {
  return pickRenderer(json, io, modelProgress());
}
function formatModelStatus(s, where) {
  const c = s.counts;
  const parts = [
    `${c.completed} succeeded`,
    c.failed ? `${c.failed} failed` : "",
    c.error ? `${c.error} refused` : "",
    c.running ? `${c.running} running` : "",
    c.submitting ? `${c.submitting} unknown` : "",
    c.queued ? `${c.queued} not sent` : ""
  ].filter(Boolean);
  const lines = [`batch ${s.batch} (model ${s.model}${s.mode ? `, mode ${s.mode}` : ""}): ${s.total} rows \u2014 ${parts.join(", ")}`];
  const unreported = s.credits.unreported ? ` (${s.credits.unreported} finished runs did not report credits)` : "";
  lines.push(`credits spent: ${s.credits.spent}${unreported}`);
  if (s.polls > 0) lines.push(`reads of running jobs: ${s.polls}`);
  if (s.unknownSubmission.length > 0)
    lines.push(
      `submission outcome unknown (a run may exist; re-send with the stored key: --resubmit-unknown): ${s.unknownSubmission.slice(0, 10).join(", ")}${s.unknownSubmission.length > 10 ? " \u2026" : ""}`
    );
  if (s.failures.length > 0) lines.push("failed or refused rows:");
  for (const f2 of s.failures.slice(0, 10)) lines.push(`  ${oneLine(`${f2.id}: ${f2.error ?? "failed"}`, 200)}`);
  const f = s.files;
  const nFiles = f.pending + f.downloaded + f.failed + f.expired + f.missing;
  if (nFiles > 0)
    lines.push(`files: ${f.downloaded} downloaded, ${f.pending} pending, ${f.failed} failed, ${f.expired} expired, ${f.missing} missing`);
  lines.push(`database: ${maskLocation(where.db)}`);
  if (where.out && nFiles > 0) lines.push(`files folder: ${where.out}`);
  if (where.output) lines.push(`results: ${where.output}`);
  return lines.join("\n");
}

export {
  pickModelsRenderer,
  formatModelStatus
};
//# sourceMappingURL=chunk-EUUGB2GO.mjs.map
