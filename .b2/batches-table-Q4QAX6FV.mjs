import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  alignColumns
} from "./chunk-YFKNHOIT.mjs";
import {
  oneLine
} from "./chunk-5GEFFECR.mjs";
import {
  isGoneHere
} from "./chunk-IVI4HKH5.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/cli/text/batches-table.ts
function batchLine(o) {
  const f = o.files;
  return {
    name: o.batch.name,
    kind: o.batch.kind,
    created: o.batch.createdAt,
    items: o.batch.totalItems,
    counts: o.counts,
    cost: o.approvedCost,
    files: f.pending + f.downloaded + f.failed + f.expired + f.missing,
    filesOnDisk: f.downloaded,
    // Live ones: a worker of this host whose process ended is not.
    workers: o.workers.filter((w) => !isGoneHere(w)).length,
    cancelled: o.batch.cancelledAt !== null
  };
}
function countsText(l) {
  const c = l.counts;
  const parts = [
    `${c.completed} done`,
    c.failed + c.error ? `${c.failed + c.error} failed` : "",
    c.held ? `${c.held} held` : "",
    c.submitting + c.running + c.waiting ? `${c.submitting + c.running + c.waiting} in flight` : "",
    c.queued ? `${c.queued} queued` : "",
    c.cancelled ? `${c.cancelled} cancelled` : ""
  ];
  return parts.filter(Boolean).join(", ");
}
function formatBatches(lines) {
  if (lines.length === 0) return "no batches yet (start one with resq run)";
  const rows = lines.map((l) => [
    oneLine(l.name, 30),
    l.kind,
    l.created.slice(0, 16).replace("T", " "),
    String(l.items),
    countsText(l) + (l.cancelled ? " (cancelled)" : ""),
    l.cost ? String(l.cost) : "-",
    l.files ? `${l.filesOnDisk}/${l.files}` : "-",
    l.workers ? String(l.workers) : "-"
  ]);
  const head = ["batch", "kind", "created", "items", "state", "cost", "files", "workers"];
  return alignColumns([head, ...rows]).join("\n");
}
export {
  batchLine,
  formatBatches
};
//# sourceMappingURL=batches-table-Q4QAX6FV.mjs.map
