import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  decisionInWords
} from "./chunk-IVLJ7PFV.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/runner/text-diff.ts
var MAX_CELLS = 4e6;
function lineDiff(before, after) {
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out = a.slice(0, head).map((text) => ({ op: " ", text }));
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if (am.length * bm.length > MAX_CELLS) {
    out.push(...am.map((text) => ({ op: "-", text })), ...bm.map((text) => ({ op: "+", text })));
  } else {
    const w = bm.length + 1;
    const lcs = new Uint32Array((am.length + 1) * w);
    for (let i2 = am.length - 1; i2 >= 0; i2--)
      for (let j2 = bm.length - 1; j2 >= 0; j2--)
        lcs[i2 * w + j2] = am[i2] === bm[j2] ? lcs[(i2 + 1) * w + j2 + 1] + 1 : Math.max(lcs[(i2 + 1) * w + j2], lcs[i2 * w + j2 + 1]);
    let i = 0;
    let j = 0;
    while (i < am.length || j < bm.length) {
      if (i < am.length && j < bm.length && am[i] === bm[j]) {
        out.push({ op: " ", text: am[i] });
        i++;
        j++;
      } else if (i < am.length && (j === bm.length || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
        out.push({ op: "-", text: am[i++] });
      } else {
        out.push({ op: "+", text: bm[j++] });
      }
    }
  }
  out.push(...a.slice(a.length - tail).map((text) => ({ op: " ", text })));
  return out;
}

// src/runner/compare.ts
function hasChanges(c) {
  return !c.a || !c.b || c.stateChanged || c.questionChanged || c.answerChanged || c.decisionsDiffer || c.filesAdded.length > 0 || c.filesGone.length > 0;
}
function sideOf(g) {
  return {
    state: g.item.state === "submitting" ? "running" : g.item.state,
    runStatus: g.item.runStatus,
    question: g.item.question,
    text: g.item.text,
    decisions: g.decisions.map(decisionInWords),
    files: g.files.map((f) => f.name ?? f.role ?? f.id).sort()
  };
}
function minus(x, y) {
  const left = /* @__PURE__ */ new Map();
  for (const n of y) left.set(n, (left.get(n) ?? 0) + 1);
  const out = [];
  for (const n of x) {
    const k = left.get(n) ?? 0;
    if (k > 0) left.set(n, k - 1);
    else out.push(n);
  }
  return out;
}
function compareSides(id, a, b) {
  if (!a || !b) return { id, a, b, stateChanged: false, questionChanged: false, answerChanged: false, decisionsDiffer: false, filesAdded: b?.files ?? [], filesGone: a?.files ?? [], diff: null };
  const answerChanged = (a.text ?? "") !== (b.text ?? "");
  return {
    id,
    a,
    b,
    stateChanged: a.state !== b.state,
    questionChanged: a.question !== b.question,
    answerChanged,
    decisionsDiffer: a.decisions.length !== b.decisions.length || a.decisions.some((d, i) => d !== b.decisions[i]),
    filesAdded: minus(b.files, a.files),
    filesGone: minus(a.files, b.files),
    diff: answerChanged && a.text !== null && b.text !== null ? lineDiff(a.text, b.text) : null
  };
}
async function* aggregatesOf(store, batch, pageSize) {
  let after = -1;
  for (; ; ) {
    const page = await store.aggregates(batch.id, after, pageSize);
    yield* page;
    if (page.length < pageSize) return;
    after = page.at(-1).item.seq;
  }
}
async function* compareBatches(store, a, b, pageSize = 500) {
  const right = /* @__PURE__ */ new Map();
  for await (const g of aggregatesOf(store, b, pageSize)) right.set(g.item.id, sideOf(g));
  for await (const g of aggregatesOf(store, a, pageSize)) {
    const other = right.get(g.item.id) ?? null;
    right.delete(g.item.id);
    yield compareSides(g.item.id, sideOf(g), other);
  }
  for (const [id, side] of right) yield compareSides(id, null, side);
}
function countComparison(n, c) {
  if (!c.a) n.onlyB++;
  else if (!c.b) n.onlyA++;
  else {
    n.both++;
    if (!hasChanges(c)) n.same++;
    if (c.stateChanged) n.stateChanged++;
    if (c.questionChanged) n.questionChanged++;
    if (c.answerChanged) n.answerChanged++;
    if (c.decisionsDiffer) n.decisionsDiffer++;
    if (c.filesAdded.length || c.filesGone.length) n.filesChanged++;
  }
}
function emptyCounts() {
  return { both: 0, onlyA: 0, onlyB: 0, same: 0, stateChanged: 0, questionChanged: 0, answerChanged: 0, decisionsDiffer: 0, filesChanged: 0 };
}
async function compareSummary(store, a, b, limit = 1e3) {
  const counts = emptyCounts();
  const changed = [];
  let more = false;
  for await (const c of compareBatches(store, a, b)) {
    countComparison(counts, c);
    if (!hasChanges(c)) continue;
    if (changed.length < limit) changed.push(c);
    else more = true;
  }
  return { counts, changed, more };
}
export {
  compareBatches,
  compareSides,
  compareSummary,
  countComparison,
  emptyCounts,
  hasChanges
};
//# sourceMappingURL=compare-2BYHGYQE.mjs.map
