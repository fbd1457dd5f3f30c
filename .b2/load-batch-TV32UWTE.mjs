import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  defaultBatchName
} from "./chunk-CHVFPQGZ.mjs";
import {
  isLarge,
  readRowBatches
} from "./chunk-GYGZWNHT.mjs";
import "./chunk-CO4W3ONN.mjs";
import {
  duplicateIdProblem
} from "./chunk-UZQXFT2K.mjs";
import "./chunk-6ELOTNCY.mjs";
import {
  hashFile
} from "./chunk-UPSBM6NF.mjs";
import "./chunk-ADUNF5BB.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import {
  escapeControls
} from "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/runner/load-batch.ts
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
var MAX_PROBLEMS = 1e3;
async function loadBatch(o) {
  const id = randomUUID();
  const name = o.name ?? defaultBatchName(o.questions);
  const large = await isLarge(o.questions);
  const loader = await o.store.beginBatchLoad({
    id,
    name,
    kind: "runs",
    sourcePath: resolve(o.questions),
    // Filled in once the file has been read (and hashed on the way).
    sourceSha256: "",
    baseUrl: o.baseUrl,
    settings: o.settings,
    policy: o.policy
  }, { bulk: large });
  const problems = [];
  const notices = [];
  let invalid = 0;
  let seq = 0;
  const note = (p) => {
    if (invalid++ < MAX_PROBLEMS) problems.push(p);
  };
  let duplicates = 0;
  const refused = (dups) => {
    duplicates += dups.length;
    for (const d of dups)
      note(duplicateIdProblem(o.questions, d.item.id, d.item.line, d.firstLine));
  };
  try {
    const read = await readRowBatches(o.questions, { checkIds: false, offThread: large });
    for await (const b of read.batches) {
      notices.push(...b.notices);
      for (const p of b.problems) note(p);
      if (b.ids.length === 0) continue;
      refused(await loader.addColumns(b, seq));
      const before = seq;
      seq += b.ids.length;
      if (o.onRows && Math.floor(seq / 1e4) > Math.floor(before / 1e4)) o.onRows(seq);
    }
    refused(await loader.flush());
    if (duplicates > 0) problems.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
    if (invalid > problems.length)
      problems.push({ file: o.questions, reason: `\u2026 and ${invalid - problems.length} more invalid rows` });
    if (invalid > 0 && !o.skipInvalid) throw new InputError(problems);
    if (seq === 0) throw new InputError([{ file: o.questions, reason: "no valid question to run" }]);
    await loader.commit(problems, read.sha256() ?? await hashFile(o.questions));
  } catch (e) {
    await loader.rollback();
    throw e;
  }
  const batch = await o.store.findBatch(id);
  if (!batch) throw new Error("batch vanished after load");
  return { batch, invalid: problems, notices };
}
async function appendToBatch(o) {
  const { batch, questions } = o;
  if (batch.kind !== "runs") throw new InputError(`batch "${batch.name}" is a model batch: --append grows question sets only`);
  const appender = await o.store.beginBatchAppend(batch.id);
  const problems = [];
  const changes = [];
  const notices = [];
  let invalid = 0;
  let changed = 0;
  try {
    const read = await readRowBatches(questions, { checkIds: true, offThread: await isLarge(questions) });
    for await (const b of read.batches) {
      notices.push(...b.notices);
      for (const p of b.problems) if (invalid++ < MAX_PROBLEMS) problems.push(p);
      if (b.ids.length === 0) continue;
      for (const c of await appender.addColumns(b)) if (changed++ < MAX_PROBLEMS) changes.push(changedProblem(questions, batch.name, c));
    }
    if (changed > 0) {
      if (changed > changes.length) changes.push({ file: questions, reason: `\u2026 and ${changed - changes.length} more changed rows` });
      throw new InputError(changes);
    }
    if (invalid > problems.length) problems.push({ file: questions, reason: `\u2026 and ${invalid - problems.length} more invalid rows` });
    if (invalid > 0 && !o.skipInvalid) throw new InputError(problems);
    const { kept } = appender.tally();
    if (kept < batch.totalItems)
      throw new InputError(
        `${questions}: ${batch.totalItems - kept} of the ${batch.totalItems} items of batch "${batch.name}" are no longer in the file; --append only adds rows: put them back, or start a new batch with --batch NEW_NAME`
      );
    const done = await appender.commit(problems, read.sha256() ?? await hashFile(questions));
    const grown = await o.store.findBatch(batch.id);
    if (!grown) throw new Error("batch vanished after append");
    return { batch: grown, ...done, invalid: problems, notices };
  } catch (e) {
    await appender.rollback();
    throw e;
  }
}
function changedProblem(file, batchName, c) {
  const columns = c.field === "meta" ? changedColumns(c.storedMeta, c.meta) : "";
  const field = columns ? `meta ${columns}` : c.field;
  return {
    file,
    line: c.line,
    field,
    reason: `changed since batch "${batchName}" was started (item "${escapeControls(c.id)}", line ${c.storedLine} then); --append adds new rows only: restore this one, or start a new batch with --batch NEW_NAME`
  };
}
function changedColumns(before, after) {
  const a = JSON.parse(before);
  const b = JSON.parse(after);
  const keys = [.../* @__PURE__ */ new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return keys.map((k) => `"${escapeControls(k)}"`).join(", ");
}
export {
  appendToBatch,
  loadBatch
};
//# sourceMappingURL=load-batch-TV32UWTE.mjs.map
