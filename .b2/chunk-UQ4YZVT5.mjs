import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/read/item-verdicts.ts
var VerdictCursor = class {
  #store;
  #batchId;
  #pageSize;
  #page = [];
  #i = 0;
  #after = -1;
  #done = false;
  constructor(store, batchId, pageSize = 500) {
    this.#store = store;
    this.#batchId = batchId;
    this.#pageSize = pageSize;
  }
  /** The verdicts of the item at `seq` (every scorer and version); [] when it has none. */
  async at(seq) {
    for (; ; ) {
      while (this.#i < this.#page.length && this.#page[this.#i].seq < seq) this.#i++;
      if (this.#i < this.#page.length) return this.#page[this.#i].seq === seq ? this.#page[this.#i].verdicts : [];
      if (this.#done) return [];
      this.#page = await this.#store.verdictsPage(this.#batchId, { afterSeq: this.#after, limit: this.#pageSize });
      this.#i = 0;
      if (this.#page.length < this.#pageSize) this.#done = true;
      if (this.#page.length > 0) this.#after = this.#page[this.#page.length - 1].seq;
    }
  }
};
async function* alongsideVerdicts(store, batchId, readPage, seqOf, pageSize = 500) {
  const cursor = store ? new VerdictCursor(store, batchId, pageSize) : null;
  for (let after = -1; ; ) {
    const page = await readPage(after, pageSize);
    for (const row of page) yield { row, verdicts: cursor ? await cursor.at(seqOf(row)) : [] };
    if (page.length < pageSize) return;
    after = seqOf(page[page.length - 1]);
  }
}
function scorerVersionsOf(batch) {
  return new Map((batch.settings.scorers ?? []).map((s) => [s.name, s.version]));
}
function latestByScorer(verdicts, keep) {
  const out = /* @__PURE__ */ new Map();
  for (const v of verdicts) {
    if (!keep(v) || (out.get(v.scorer)?.scoredAt ?? "") > v.scoredAt) continue;
    out.set(v.scorer, v);
  }
  return out;
}
function verdictByScorer(verdicts, versions) {
  return latestByScorer(verdicts, (v) => (versions.get(v.scorer) ?? v.version) === v.version);
}
function scorerNames(refs) {
  return [...new Set(refs.map((r) => r.name))];
}
function verdictsByName(refs, verdicts) {
  const picked = latestByScorer(verdicts, (v) => refs.some((r) => r.name === v.scorer && r.version === v.version));
  const out = {};
  for (const name of scorerNames(refs)) {
    const v = picked.get(name);
    out[name] = v ? { pass: v.pass, score: v.score, reason: v.reason } : { pass: null, score: null, reason: null };
  }
  return out;
}
async function* itemsWithVerdicts(store, batch, pageSize = 500) {
  const versions = scorerVersionsOf(batch);
  const items = alongsideVerdicts(store, batch.id, (afterSeq, limit) => store.listItems(batch.id, { afterSeq, limit }), (i) => i.seq, pageSize);
  for await (const { row, verdicts } of items) yield { item: row, verdicts: verdictByScorer(verdicts, versions) };
}

export {
  alongsideVerdicts,
  scorerVersionsOf,
  verdictByScorer,
  scorerNames,
  verdictsByName,
  itemsWithVerdicts
};
//# sourceMappingURL=chunk-UQ4YZVT5.mjs.map
