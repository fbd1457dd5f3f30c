import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  checkPolicy,
  rulesOf
} from "./chunk-2KEABKLD.mjs";
import "./chunk-O6UYGKUI.mjs";
import "./chunk-SYF23C3W.mjs";
import "./chunk-UUEOY5IK.mjs";
import {
  isoNow
} from "./chunk-64FYAIQV.mjs";
import {
  validateQuestionSet
} from "./chunk-CO4W3ONN.mjs";
import "./chunk-UZQXFT2K.mjs";
import "./chunk-6ELOTNCY.mjs";
import "./chunk-UPSBM6NF.mjs";
import "./chunk-ADUNF5BB.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import {
  budgetOf
} from "./chunk-M4QEDMWX.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import {
  planCost
} from "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/forecast/reader.ts
import { resolve } from "node:path";

// src/forecast/hindsight.ts
function missOf(k, actual) {
  const off = actual - k.estimate;
  return { ...k, actual, off, offShare: k.estimate === 0 ? null : off / k.estimate, inside: actual >= k.low && actual <= k.high };
}
async function pausesToPeople(store, batchId) {
  return (await store.batchPauses(batchId)).filter((p) => p.decision === null || p.decision.by === "person").length;
}
async function readHindsight(store, batch) {
  const last = await store.lastForecastOf(batch);
  if (!last) return null;
  const n = await store.itemCounts(batch.id);
  const ended = n.queued + n.submitting + n.running + n.waiting + n.held === 0;
  const base = { batch: batch.name, madeAt: last.madeAt, learnedFrom: last.learnedFrom, ended };
  if (!ended) return { ...base, cost: null, held: null };
  return {
    ...base,
    cost: last.cost ? missOf(last.cost, await store.approvedCost(batch.id)) : null,
    held: last.held ? missOf(last.held, await pausesToPeople(store, batch.id)) : null
  };
}

// src/forecast/estimate.ts
var Z90 = 1.2815515655446004;
function quantile(sorted, q) {
  if (sorted.length === 0) return null;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
function summarize(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = sorted.reduce((s, v) => s + v, 0) / n;
  const sd = n < 2 ? 0 : Math.sqrt(sorted.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1));
  return { n, mean, sd, p10: quantile(sorted, 0.1), median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), min: sorted[0], max: sorted[n - 1] };
}
function sumSd(s, count) {
  return s.sd * Math.sqrt(count + count * count / s.n);
}
function sumOf(s, count) {
  const estimate = count * s.mean;
  const half = Z90 * sumSd(s, count);
  return { estimate, low: Math.max(count * s.min, estimate - half), high: Math.min(count * s.max, estimate + half) };
}
function normalCdf(x) {
  const t = 1 / (1 + 0.3275911 * Math.abs(x) / Math.SQRT2);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
function forecast(i) {
  const cost = summarize(i.costs);
  const holds = summarize(i.holds);
  const secs = summarize(i.seconds);
  const spent = i.spent ?? 0;
  const totalCost = cost ? sumOf(cost, i.questions) : null;
  const batchCost = totalCost ? { estimate: spent + totalCost.estimate, low: spent + totalCost.low, high: spent + totalCost.high } : null;
  let budget = null;
  if (batchCost && cost && i.budget !== null && i.budget > 0) {
    const sd = sumSd(cost, i.questions);
    const chanceOver = sd === 0 ? batchCost.estimate > i.budget ? 1 : 0 : 1 - normalCdf((i.budget - batchCost.estimate) / sd);
    budget = { budget: i.budget, share: batchCost.estimate / i.budget, lowShare: batchCost.low / i.budget, highShare: batchCost.high / i.budget, chanceOver };
  }
  const waves = Math.ceil(i.questions / Math.max(1, i.cap));
  return {
    questions: i.questions,
    sample: i.costs.length,
    costPerQuestion: cost ? { median: cost.median, p90: cost.p90, mean: cost.mean } : null,
    totalCost,
    batchCost,
    budget,
    held: holds ? { ...sumOf(holds, i.questions), perQuestion: holds.mean } : null,
    wallSeconds: secs ? { estimate: waves * secs.median, low: waves * secs.p10, high: waves * secs.p90, waves, perQuestion: secs } : null
  };
}

// src/forecast/sample.ts
var RAN_STATES = ["running", "waiting", "held", "completed", "failed", "error"];
async function batchSample(store, batch, policy) {
  const ran = await store.queryItems(batch.id, { states: RAN_STATES });
  const stats = await store.itemStats(batch.id);
  const pauses = await store.batchPauses(batch.id);
  const held = /* @__PURE__ */ new Map();
  const approved = /* @__PURE__ */ new Map();
  for (const x of checkPolicy(rulesOf(policy), pauses).replay) {
    if (x.verdict === "hold") held.set(x.itemId, (held.get(x.itemId) ?? 0) + 1);
    approved.set(x.itemId, (approved.get(x.itemId) ?? 0) + x.cost);
  }
  const out = { costs: [], holds: [], seconds: [], pauses };
  for (const it of ran) {
    const s = stats.get(it.id);
    out.costs.push(approved.get(it.id) ?? 0);
    out.holds.push(held.get(it.id) ?? 0);
    if (s && s.runSeconds > 0) out.seconds.push(s.runSeconds);
  }
  return out;
}

// src/forecast/reader.ts
async function readForecast(store, r) {
  const set = await validateQuestionSet(r.file, { maxProblems: 5 });
  if (set.invalid > 0) throw new InputError(set.problems);
  const match = set.sha256 !== r.from.sourceSha256 ? "none" : resolve(r.file) === resolve(r.from.sourcePath) ? "name" : "content";
  const queued = match !== "none" && !r.all ? (await store.itemCounts(r.from.id)).queued : 0;
  const rest = queued > 0;
  let questions = rest ? queued : set.rows;
  if (r.limit !== void 0) questions = Math.min(questions, r.limit);
  const policy = r.policy === void 0 ? r.from.policy ?? null : r.policy;
  const learned = [...new Map([r.from, ...r.also ?? []].map((b) => [b.id, b])).values()];
  const samples = await Promise.all(learned.map((b) => batchSample(store, b, policy)));
  const empty = learned.filter((_, i) => samples[i].costs.length === 0).map((b) => `"${b.name}"`);
  if (empty.length > 0) throw new InputError(`batch ${empty.join(", ")} has no item that ran: nothing to forecast from`);
  const [costs, holds, seconds] = ["costs", "holds", "seconds"].map((k) => samples.flatMap((x) => x[k]));
  const open = samples[0].pauses.filter((p) => p.decision === null);
  const now = { spent: await store.approvedCost(r.from.id), heldPauses: open.length, heldCost: open.reduce((s, p) => s + (planCost(p.input) ?? 0), 0) };
  const spent = rest ? now.spent : 0;
  const cap = r.cap ?? r.from.settings.concurrency;
  const budget = r.budget ?? budgetOf(policy);
  const f = forecast({ questions, costs, holds, seconds, cap, budget, spent });
  const lastForecast = await readHindsight(store, r.from);
  const heldSoFar = rest ? await pausesToPeople(store, r.from.id) : 0;
  await store.keepForecast({
    madeAt: r.madeAt ?? isoNow(),
    filePath: resolve(r.file),
    fileSha256: set.sha256,
    forBatchId: rest ? r.from.id : null,
    learnedFrom: learned.map((b) => b.name),
    questions,
    cost: f.batchCost,
    held: f.held && { estimate: heldSoFar + f.held.estimate, low: heldSoFar + f.held.low, high: heldSoFar + f.held.high }
  });
  return {
    ...f,
    lastForecast,
    file: r.file,
    from: r.from.name,
    rest,
    match,
    batchFile: r.from.sourcePath,
    learnedFrom: learned.map((b, i) => ({ name: b.name, questions: samples[i].costs.length })),
    now,
    spent,
    fileRows: set.rows,
    policy: r.policy === void 0 ? "reference" : "given",
    cap
  };
}
export {
  readForecast
};
//# sourceMappingURL=reader-J72BGPZG.mjs.map
