import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  judgeItem,
  judgeLocally,
  judgedBy,
  verdictOf
} from "./chunk-AU72P42T.mjs";
import "./chunk-QHE4PU7B.mjs";
import "./chunk-2A6FAXNZ.mjs";
import "./chunk-UUEOY5IK.mjs";
import {
  isoNow,
  systemClock
} from "./chunk-64FYAIQV.mjs";
import "./chunk-ADUNF5BB.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/score/score-batch.ts
var PROGRAMS_AT_ONCE = 4;
var isPure = (s) => s.kind !== "command" && s.kind !== "agent" && s.kind !== "files";
async function pageOfAll(o, after, size) {
  const first = o.scorers[0];
  const items = await o.store.itemsToScore(o.batchId, { name: first.name, version: first.version }, { rescore: true, afterSeq: after, limit: size });
  if (items.length === 0) return { work: [], end: null };
  const last = items[items.length - 1].seq;
  const have = /* @__PURE__ */ new Map();
  if (!o.rescore)
    for (let from = after; ; ) {
      const judged = await o.store.verdictsPage(o.batchId, { afterSeq: from, limit: size });
      for (const j of judged) if (j.seq <= last) have.set(j.seq, new Set(j.verdicts.map((v) => `${v.scorer}\0${v.version}`)));
      if (judged.length < size || judged[judged.length - 1].seq >= last) break;
      from = judged[judged.length - 1].seq;
    }
  const work = items.map((item) => {
    const h = have.get(item.seq);
    return { item, specs: h ? o.scorers.filter((s) => !h.has(`${s.name}\0${s.version}`)) : o.scorers };
  });
  return { work: have.size > 0 ? work.filter((w) => w.specs.length > 0) : work, end: items.length < size ? null : last };
}
async function pageOfEach(o, after, size) {
  const lists = await Promise.all(o.scorers.map((s) => o.store.itemsToScore(o.batchId, { name: s.name, version: s.version }, { rescore: false, afterSeq: after, limit: size })));
  let end = null;
  for (const l of lists) if (l.length >= size) end = Math.min(end ?? Infinity, l[l.length - 1].seq);
  const bySeq = /* @__PURE__ */ new Map();
  lists.forEach((l, k) => {
    for (const item of l) {
      if (end !== null && item.seq > end) break;
      const w = bySeq.get(item.seq);
      if (w) w.specs.push(o.scorers[k]);
      else bySeq.set(item.seq, { item, specs: [o.scorers[k]] });
    }
  });
  return { work: [...bySeq.values()].sort((a, b) => a.item.seq - b.item.seq), end };
}
async function scoreBatch(o) {
  const size = o.pageSize ?? 5e3;
  const clock = o.clock ?? systemClock;
  const refs = o.scorers.map((s) => ({ name: s.name, version: s.version }));
  const total = (await o.store.itemCounts(o.batchId)).completed;
  const fresh = o.rescore || o.scorers.length < 2 || (await o.store.verdictsPage(o.batchId, { afterSeq: -1, limit: 1 })).length === 0;
  const judgedBefore = fresh ? 0 : Math.max(...(await o.store.scoreTotals(o.batchId, refs)).map((t) => t.passed + t.failed));
  const nextPage = o.rescore ? pageOfAll : o.scorers.length < 2 || judgedBefore >= total / 2 ? pageOfEach : pageOfAll;
  const base = { store: o.store, batchId: o.batchId, clock, strict: true, ...o.signal ? { signal: o.signal } : {} };
  let judged = 0;
  let done = 0;
  let after = -1;
  o.onProgress?.({ done, total });
  for (; ; ) {
    o.signal?.throwIfAborted();
    const { work, end } = await nextPage(o, after, size);
    if (work.length === 0 && end === null) break;
    const at = isoNow(clock);
    const out = new Array(work.length);
    const slow = [];
    work.forEach((w, i) => {
      if (!w.specs.every(isPure)) return void slow.push(i);
      out[i] = { itemId: w.item.id, seq: w.item.seq, verdicts: w.specs.map((s) => verdictOf(s, judgeLocally(s, { id: w.item.id, question: w.item.question, expected: w.item.expected, text: w.item.text }), at, judgedBy(s))) };
    });
    for (let i = 0; i < slow.length; i += PROGRAMS_AT_ONCE) {
      const part = slow.slice(i, i + PROGRAMS_AT_ONCE);
      const verdicts = await Promise.all(part.map((k) => judgeItem(work[k].item, work[k].specs, base)));
      part.forEach((k, j) => out[k] = { itemId: work[k].item.id, seq: work[k].item.seq, verdicts: verdicts[j] });
    }
    await o.store.recordVerdictsMany(o.batchId, out);
    for (const r of out) judged += r.verdicts.length;
    done += work.length;
    o.onProgress?.({ done, total: Math.max(total, done) });
    if (end === null) break;
    after = end;
  }
  return { judged, totals: await o.store.scoreTotals(o.batchId, refs) };
}
function passRate(t) {
  const n = t.passed + t.failed;
  return n === 0 ? null : t.passed / n;
}
export {
  passRate,
  scoreBatch
};
//# sourceMappingURL=score-batch-RIRPA3UG.mjs.map
