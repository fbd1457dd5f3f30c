import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  decide
} from "./chunk-SYF23C3W.mjs";
import {
  planCost,
  recordedCost
} from "./chunk-O4EQ2A5A.mjs";

// src/policy/replay-order.ts
var msOf = (iso) => iso ? Date.parse(iso) : Number.NaN;
function replaySteps(pauses) {
  const keyed = [];
  for (const [index, p] of pauses.entries()) {
    const d = p.decision;
    const decided = { ms: msOf(d?.decidedAt), seq: d?.seq ?? 0 };
    if (d?.by === "policy") keyed.push({ kind: "arrive", index, rank: 0, ...decided });
    else keyed.push({ kind: "arrive", index, rank: 1, ms: msOf(p.pausedAt), seq: 0 });
    if (d?.by === "person") keyed.push({ kind: "person", index, rank: 0, ...decided });
  }
  if (keyed.some((k) => Number.isNaN(k.ms))) {
    return pauses.flatMap((p, index) => p.decision?.by === "person" ? [{ kind: "arrive", index }, { kind: "person", index }] : [{ kind: "arrive", index }]);
  }
  keyed.sort((a, b) => a.ms - b.ms || a.rank - b.rank || a.seq - b.seq || a.index - b.index);
  return keyed.map(({ kind, index }) => ({ kind, index }));
}

// src/policy/check.ts
function verdictOf(answer) {
  if (answer["decision"] === "chosen") {
    const chosen = Array.isArray(answer["chosen"]) ? answer["chosen"].map((c) => String(c)) : [];
    return { verdict: "choose", chosen };
  }
  if (answer["decision"] === "declined" || answer["approved"] === false) return { verdict: "decline", chosen: [] };
  return { verdict: "approve", chosen: [] };
}
var sameChoice = (a, b) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);
var emptyCounts = () => ({
  pauses: 0,
  would: { approve: 0, decline: 0, choose: 0, hold: 0 },
  actualBy: { policy: 0, person: 0, none: 0 },
  agrees: 0,
  differs: 0,
  actualCost: 0,
  wouldCost: 0
});
function rulesOf(policy) {
  if (!policy?.confirm_scope || policy.confirm_scope.batch_budget === void 0) return policy;
  const { batch_budget: _, ...rule } = policy.confirm_scope;
  return { ...policy, confirm_scope: rule };
}
var verdictOfDecision = (d) => d.kind === "hold" ? { verdict: "hold", chosen: [] } : verdictOf(d.answer);
var same = (a, b) => a.verdict === b.verdict && (a.verdict !== "choose" || sameChoice(a.chosen, b.chosen));
function checkPolicy(policy, pauses) {
  const byTool = /* @__PURE__ */ new Map();
  const total = emptyCounts();
  const differences = [];
  const replay = [];
  const rules = rulesOf(policy);
  const replayed = /* @__PURE__ */ new Map();
  const personDone = /* @__PURE__ */ new Set();
  let approved = 0;
  const actualCostOf = (p) => recordedCost(p.decision?.cost ?? 0);
  for (const step of replaySteps(pauses)) {
    const p = pauses[step.index];
    if (step.kind === "person") {
      personDone.add(step.index);
      if (replayed.get(step.index)?.verdict === "hold") approved += actualCostOf(p);
      continue;
    }
    const d = decide(policy, { tool: p.tool, input: p.input }, { approvedCost: approved });
    const would = d.kind === "hold" ? { verdict: "hold", chosen: [], reason: d.reason, cost: 0 } : { ...verdictOf(d.answer), reason: d.reason, cost: d.cost };
    replayed.set(step.index, would);
    approved += would.cost;
    if (would.verdict === "hold" && personDone.has(step.index)) approved += actualCostOf(p);
    const actual = p.decision ? verdictOf(p.decision.answer) : { verdict: "hold", chosen: [] };
    const actualCost = actualCostOf(p);
    const wouldCost = would.verdict === "hold" && p.decision?.by === "person" ? actualCost : would.cost;
    const agrees = same(would, actual);
    for (const c of [total, byTool.get(p.tool) ?? byTool.set(p.tool, emptyCounts()).get(p.tool)]) {
      c.pauses++;
      c.would[would.verdict]++;
      c.actualBy[p.decision?.by ?? "none"]++;
      c.actualCost += actualCost;
      c.wouldCost += wouldCost;
      if (agrees) c.agrees++;
      else c.differs++;
    }
    replay.push({ itemId: p.itemId, verdict: would.verdict, cost: wouldCost });
    if (!agrees) {
      const byRules = rules === policy ? null : verdictOfDecision(decide(rules, { tool: p.tool, input: p.input }, { approvedCost: 0 }));
      differences.push({
        itemId: p.itemId,
        runId: p.runId,
        tool: p.tool,
        cost: planCost(p.input),
        actual: { ...actual, by: p.decision?.by ?? null, person: p.decision?.person ?? null },
        would: { verdict: would.verdict, chosen: would.chosen, reason: would.reason },
        cause: byRules && same(byRules, actual) ? "budget" : "rules"
      });
    }
  }
  const tools = [...byTool].map(([tool, c]) => ({ tool, ...c })).sort((a, b) => a.tool.localeCompare(b.tool));
  const fromBudget = differences.filter((x) => x.cause === "budget").length;
  return { tools, total, differences, replay, causes: { budget: fromBudget, rules: differences.length - fromBudget } };
}

// src/policy/propose.ts
var plural = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;
function proposeRule(pauses) {
  const decided = pauses.filter((p) => p.decision?.by === "person");
  const policy = {};
  const notes = [];
  const of = (tool) => decided.filter((p) => p.tool === tool).map((p) => ({ p, v: verdictOf(p.decision.answer) }));
  const plans = of("confirm_scope");
  if (plans.length) {
    const cost = (p) => {
      const c = planCost(p.input);
      return c !== null && c >= 0 ? c : 0;
    };
    const approved = plans.filter((x) => x.v.verdict === "approve").map((x) => cost(x.p));
    const declined = plans.filter((x) => x.v.verdict !== "approve").map((x) => cost(x.p));
    const lowestDeclined = declined.length ? Math.min(...declined) : Infinity;
    const below = approved.filter((c) => c < lowestDeclined);
    const max = below.length ? Math.max(...below) : 0;
    const separable = below.length === approved.length;
    const otherwise = declined.length && separable ? "decline" : "hold";
    policy.confirm_scope = { approve_max_cost: max, otherwise };
    notes.push(
      `confirm_scope: ${plural(approved.length, "plan")} approved, ${declined.length} declined: ` + (separable ? `approve up to ${max}, ${otherwise} above` : `approved and declined costs overlap: approve up to ${max} (below every declined plan), hold the rest`)
    );
  }
  const picks = of("ask_choice");
  if (picks.length) {
    const counts = /* @__PURE__ */ new Map();
    for (const x of picks) for (const id of x.v.chosen) counts.set(id, (counts.get(id) ?? 0) + 1);
    const prefer = [...counts].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    const allDeclined = picks.every((x) => x.v.verdict === "decline");
    policy.ask_choice = { prefer, otherwise: allDeclined ? "decline" : "hold" };
    notes.push(
      allDeclined ? `ask_choice: ${plural(picks.length, "question")}, every one declined: decline` : `ask_choice: ${plural(picks.length, "question")}: prefer ${prefer.map((id) => `${id} (${counts.get(id)}\xD7)`).join(", ")}, hold when none is offered`
    );
  }
  const images = of("request_quality_image");
  if (images.length) {
    const kinds = new Set(images.map((x) => x.v.verdict));
    const one = kinds.size === 1 ? [...kinds][0] : null;
    policy.request_quality_image = one === "approve" ? "approve" : one === "decline" ? "decline" : "hold";
    notes.push(`request_quality_image: ${plural(images.length, "image")}: ${one ? `every one ${one}d` : "people differed: hold"}`);
  }
  const others = decided.filter((p) => !["confirm_scope", "ask_choice", "request_quality_image"].includes(p.tool));
  if (others.length) {
    policy.unknown = "hold";
    const tools = [...new Set(others.map((p) => p.tool))];
    notes.push(`${tools.join(", ")}: ${plural(others.length, "pause")} of tools resq cannot answer by policy: hold`);
  }
  return { policy, notes, from: decided.length };
}

export {
  rulesOf,
  checkPolicy,
  proposeRule
};
//# sourceMappingURL=chunk-2KEABKLD.mjs.map
