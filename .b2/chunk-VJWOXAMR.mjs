import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  appendJudgings,
  judgedRefOf,
  readVerdict
} from "./chunk-VUJC3A3Q.mjs";
import {
  isoNow
} from "./chunk-64FYAIQV.mjs";
import {
  oneLine
} from "./chunk-5GEFFECR.mjs";
import {
  TERMINAL_STATES
} from "./chunk-MH23QIYG.mjs";

// src/score/judgings.ts
var PAGE = 1e3;
function judgingVerdict(j, scoredAt) {
  const ref = judgedRefOf(j);
  if (!ref || !TERMINAL_STATES.includes(j.state)) return null;
  const why = j.error ? `: ${oneLine(j.error, 200)}` : "";
  const reading = j.state === "completed" ? readVerdict(j.text) : { pass: null, score: null, reason: `the judging run ${j.state === "error" ? "was refused" : j.state}${why}` };
  return { item: ref.item, verdict: { scorer: ref.scorer, version: ref.version, ...reading, scoredAt, by: `agent:${j.runId ?? j.id}` } };
}
async function recordJudging(store, parentId, j, clock) {
  const v = judgingVerdict(j, j.finishedAt ?? isoNow(clock));
  if (!v) return false;
  await store.recordVerdicts(parentId, v.item, [v.verdict]);
  return true;
}
async function recordEnded(store, parentId, judge, clock) {
  let n = 0;
  for (let after = -1; ; ) {
    const page = await store.listItems(judge.id, { states: TERMINAL_STATES, afterSeq: after, limit: PAGE });
    if (page.length === 0) return n;
    for (const ok of await Promise.all(page.map((j) => recordJudging(store, parentId, j, clock)))) if (ok) n++;
    after = page[page.length - 1].seq;
  }
}
async function appendLacking(store, parent, judge, scorers, o) {
  let appended = 0;
  for (const spec of scorers.filter((s) => s.kind === "agent")) {
    const ref = { name: spec.name, version: spec.version };
    for (let after = -1; ; ) {
      o.signal?.throwIfAborted();
      const page = await store.itemsToScore(parent.id, ref, { rescore: o.rescore, afterSeq: after, limit: PAGE });
      if (page.length === 0) break;
      appended += await appendJudgings(store, judge, spec, page, o.round);
      after = page[page.length - 1].seq;
    }
  }
  return appended;
}
var JudgingRecorder = class {
  #store;
  #parentId;
  #judge;
  #clock;
  #pending = [];
  /** Judgings ended, of {@link total}. */
  done;
  total;
  /** Verdicts recorded on the judged batch. */
  recorded;
  constructor(store, parentId, judge, clock, start) {
    this.#store = store;
    this.#parentId = parentId;
    this.#judge = judge;
    this.#clock = clock;
    this.done = start.done;
    this.total = judge.totalItems;
    this.recorded = start.recorded;
  }
  get progress() {
    return { done: this.done, total: this.total };
  }
  /** A judging of the companion batch ended (this process's runner said so): its verdict is recorded. */
  ended(itemId) {
    this.done++;
    this.#pending.push(
      this.#store.getItem(this.#judge.id, itemId).then(async (j) => {
        if (j && await recordJudging(this.#store, this.#parentId, j, this.#clock)) this.recorded++;
      })
    );
  }
  /** Every verdict asked for is recorded, and those of judgings another worker ended meanwhile (recording one again changes nothing). */
  async settle() {
    await Promise.all(this.#pending);
    await recordEnded(this.#store, this.#parentId, this.#judge, this.#clock);
  }
};
async function startRecorder(store, parentId, judge, clock) {
  const recorded = await recordEnded(store, parentId, judge, clock);
  const counts = await store.itemCounts(judge.id);
  let done = 0;
  for (const s of TERMINAL_STATES) done += counts[s];
  return new JudgingRecorder(store, parentId, judge, clock, { done, recorded });
}

export {
  appendLacking,
  startRecorder
};
//# sourceMappingURL=chunk-VJWOXAMR.mjs.map
