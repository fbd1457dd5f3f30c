import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  itemsWithVerdicts,
  scorerVersionsOf,
  verdictByScorer
} from "./chunk-UQ4YZVT5.mjs";
import {
  mcnemarExact
} from "./chunk-EL7BER4H.mjs";

// src/read/pair-by-id.ts
function meet(x, own, other) {
  const partner = other.get(x.id);
  if (partner === void 0) own.set(x.id, x);
  else other.delete(x.id);
  return partner;
}
async function* pairById(as, bs) {
  const ia = as[Symbol.asyncIterator]();
  const ib = bs[Symbol.asyncIterator]();
  const waitingA = /* @__PURE__ */ new Map();
  const waitingB = /* @__PURE__ */ new Map();
  let [aDone, bDone] = [false, false];
  try {
    while (!aDone || !bDone) {
      const ra = aDone ? null : await ia.next();
      if (ra?.done === true) aDone = true;
      else if (ra) {
        const x = ra.value;
        const y = meet(x, waitingA, waitingB);
        if (y !== void 0) yield [x, y];
      }
      const rb = bDone ? null : await ib.next();
      if (rb?.done === true) bDone = true;
      else if (rb) {
        const y = rb.value;
        const x = meet(y, waitingB, waitingA);
        if (x !== void 0) yield [x, y];
      }
    }
  } finally {
    await Promise.all([ia.return?.(), ib.return?.()]);
  }
}

// src/read/regressions.ts
function changeInWords(regressed, fixed, p) {
  if (regressed + fixed === 0) return "no paired item changed its verdict";
  const pText = p < 1e-3 ? "p < 0.001" : `p = ${p.toPrecision(2)}`;
  if (p >= 0.05) return `could be chance (exact McNemar ${pText})`;
  return `more than chance: ${regressed > fixed ? "worse" : "better"} in the second batch (exact McNemar ${pText})`;
}
var PASS = "p";
var FAIL = "f";
var NONE = "-";
function codeOf(v) {
  return v?.pass === true ? PASS : v?.pass === false ? FAIL : NONE;
}
async function* marksOf(store, batch, pageSize, indexOf, seen) {
  for await (const { item, verdicts } of itemsWithVerdicts(store, batch, pageSize)) {
    const codes = [];
    for (const [name, v] of verdicts) {
      const i = indexOf(name);
      while (codes.length < i) codes.push(NONE);
      codes[i] = codeOf(v);
      seen(i, v.version);
    }
    yield { id: item.id, codes: codes.join("") };
  }
}
async function pairVerdicts(store, a, b, pageSize = 500) {
  const names = [];
  const index = /* @__PURE__ */ new Map();
  const indexOf = (name) => {
    let i = index.get(name);
    if (i === void 0) index.set(name, i = names.push(name) - 1);
    return i;
  };
  const tallies = [];
  const tallyOf = (i) => tallies[i] ??= { versionsA: /* @__PURE__ */ new Set(), versionsB: /* @__PURE__ */ new Set(), regressed: 0, fixed: 0, bothPass: 0, bothFail: 0 };
  let paired = 0;
  const sideA = marksOf(store, a, pageSize, indexOf, (i, v) => tallyOf(i).versionsA.add(v));
  const sideB = marksOf(store, b, pageSize, indexOf, (i, v) => tallyOf(i).versionsB.add(v));
  for await (const [x, y] of pairById(sideA, sideB)) {
    paired++;
    for (let i = 0; i < Math.max(x.codes.length, y.codes.length); i++) {
      const pair = `${x.codes[i] ?? NONE}${y.codes[i] ?? NONE}`;
      const t = tallyOf(i);
      if (pair === "pf") t.regressed++;
      else if (pair === "fp") t.fixed++;
      else if (pair === "pp") t.bothPass++;
      else if (pair === "ff") t.bothFail++;
    }
  }
  const scorers = names.map((scorer, i) => {
    const t = tallyOf(i);
    const p = mcnemarExact(t.regressed, t.fixed);
    const [versionsA2, versionsB2] = [[...t.versionsA].sort(), [...t.versionsB].sort()];
    return {
      scorer,
      versionsA: versionsA2,
      versionsB: versionsB2,
      versionsDiffer: versionsA2.length > 0 && versionsB2.length > 0 && versionsA2.join() !== versionsB2.join(),
      regressed: t.regressed,
      fixed: t.fixed,
      bothPass: t.bothPass,
      bothFail: t.bothFail,
      unscored: paired - t.regressed - t.fixed - t.bothPass - t.bothFail,
      p,
      words: changeInWords(t.regressed, t.fixed, p)
    };
  });
  const [versionsA, versionsB] = [scorerVersionsOf(a), scorerVersionsOf(b)];
  const ignore = () => void 0;
  async function* turns(change) {
    const [was, now] = change === "regressed" ? [PASS, FAIL] : [FAIL, PASS];
    for await (const [x, y] of pairById(marksOf(store, a, pageSize, indexOf, ignore), marksOf(store, b, pageSize, indexOf, ignore))) {
      const turned = names.filter((_, i) => x.codes[i] === was && y.codes[i] === now);
      if (turned.length === 0) continue;
      const [va, vb, item] = await Promise.all([store.verdictsOf(a.id, x.id), store.verdictsOf(b.id, y.id), store.getItem(b.id, y.id)]);
      const [oldOnes, newOnes] = [verdictByScorer(va, versionsA), verdictByScorer(vb, versionsB)];
      for (const name of turned) {
        const [old, v] = [oldOnes.get(name), newOnes.get(name)];
        if (v?.pass !== (change === "fixed")) continue;
        yield { id: y.id, scorer: name, change, question: item?.question ?? "", a: old ? pick(old) : null, b: pick(v) };
      }
    }
  }
  return { paired, scorers, turns };
}
function pick(v) {
  return { pass: v.pass, score: v.score, reason: v.reason, version: v.version };
}
async function regressionSummary(store, a, b, limit = 500) {
  const pairing = await pairVerdicts(store, a, b);
  const total = (k) => pairing.scorers.reduce((n, s) => n + s[k], 0);
  const first = async (change) => {
    const out = [];
    if (total(change) === 0) return out;
    for await (const t of pairing.turns(change)) if (out.push(t) >= limit) break;
    return out;
  };
  const regressed = await first("regressed");
  const fixed = await first("fixed");
  return { paired: pairing.paired, scorers: pairing.scorers, regressed, fixed, more: total("regressed") > regressed.length || total("fixed") > fixed.length };
}

export {
  changeInWords,
  pairVerdicts,
  regressionSummary
};
//# sourceMappingURL=chunk-74HQCBTK.mjs.map
