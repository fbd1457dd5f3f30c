import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  readQuestionSet
} from "./chunk-CO4W3ONN.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";

// src/tables/row-batches.ts
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { Worker } from "node:worker_threads";
var OFF_THREAD_BYTES = 16 * 2 ** 20;
var BATCH_ROWS = 512;
var WINDOW = 16;
async function readRowBatches(path, opts = {}) {
  const off = opts.offThread ?? "auto";
  const useWorker = off === "auto" ? await isLarge(path) : off;
  return useWorker ? readInWorker(path, opts) : readHere(path, opts);
}
async function isLarge(path) {
  const s = await stat(path).catch(() => null);
  return s !== null && s.isFile() && s.size >= OFF_THREAD_BYTES;
}
function readHere(path, opts) {
  const tap = { hash: createHash("sha256"), complete: false };
  let sha = null;
  const notices = [];
  async function* batches() {
    const rows = readQuestionSet(path, { format: opts.format, checkIds: opts.checkIds ?? true, tap, onNotice: (t) => notices.push(t) });
    yield* batchesOf(rows, opts.batchRows ?? BATCH_ROWS, notices);
    sha = tap.complete ? tap.hash.digest("hex") : null;
  }
  return { batches: batches(), sha256: () => sha };
}
async function* batchesOf(results, size, notices = []) {
  let b = emptyBatch();
  for await (const r of results) {
    if (notices.length > 0) b.notices.push(...notices.splice(0));
    if (!r.ok) {
      b.problems.push(r.problem);
      continue;
    }
    const row = r.row;
    b.ids.push(row.id);
    b.lines.push(row.line);
    b.questions.push(row.question);
    b.threads.push(row.thread);
    b.metas.push(JSON.stringify(row.meta));
    b.expecteds.push(row.expected === void 0 ? null : JSON.stringify(row.expected));
    if (b.ids.length >= size) {
      yield b;
      b = emptyBatch();
    }
  }
  if (notices.length > 0) b.notices.push(...notices.splice(0));
  if (b.ids.length > 0 || b.problems.length > 0 || b.notices.length > 0) yield b;
}
function emptyBatch() {
  return { ids: [], lines: [], questions: [], threads: [], metas: [], expecteds: [], problems: [], notices: [] };
}
var ENTRY = new URL("./row-batch-worker.mjs", import.meta.url);
function readInWorker(path, opts) {
  let sha = null;
  const input = {
    path,
    format: opts.format,
    checkIds: opts.checkIds ?? true,
    batchRows: opts.batchRows ?? BATCH_ROWS,
    window: WINDOW
  };
  async function* batches() {
    const worker = new Worker(ENTRY, { workerData: input, resourceLimits: { maxYoungGenerationSizeMb: 16 } });
    const inbox = [];
    let failure = null;
    let wake = null;
    const notify = () => {
      wake?.();
      wake = null;
    };
    worker.on("message", (m) => {
      inbox.push(m);
      notify();
    });
    worker.on("error", (e) => {
      failure ??= e;
      notify();
    });
    worker.on("exit", (code) => {
      failure ??= new Error(`the question reader thread stopped (exit code ${code}) before the end of ${path}`);
      notify();
    });
    try {
      for (; ; ) {
        const m = inbox.shift();
        if (!m) {
          if (failure) throw failure;
          await new Promise((resolve) => wake = resolve);
          continue;
        }
        if (m.type === "batch") {
          worker.postMessage("more");
          yield m.batch;
        } else if (m.type === "end") {
          sha = m.sha256;
          return;
        } else {
          throw m.problems?.length ? new InputError(m.problems) : Object.assign(new Error(m.message), { stack: m.stack });
        }
      }
    } finally {
      worker.removeAllListeners("exit");
      await worker.terminate();
    }
  }
  return { batches: batches(), sha256: () => sha };
}

export {
  readRowBatches,
  isLarge,
  readHere
};
//# sourceMappingURL=chunk-GYGZWNHT.mjs.map
