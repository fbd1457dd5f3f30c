import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  oneLine
} from "./chunk-5GEFFECR.mjs";
import {
  isRawNumber
} from "./chunk-ADUNF5BB.mjs";
import {
  BatchExistsError,
  InputError
} from "./chunk-4EMWZ36I.mjs";

// src/score/judge-batch.ts
import { randomUUID } from "node:crypto";

// src/score/judge-prompt.ts
var JUDGE_HEADER = "resq judging request (format 1)";
var JUDGE_CAPS = { rubric: 2e3, question: 4e3, expected: 4e3, answer: 16e3 };
var MAX_REASON = 500;
var unscored = (reason) => ({ pass: null, score: null, reason });
function expectedAsText(expected) {
  if (expected === null || expected === void 0) return "(none given)";
  if (typeof expected === "string") return expected;
  if (isRawNumber(expected)) return expected.rawJSON;
  return JSON.stringify(expected) ?? String(expected);
}
function section(name, text, cap) {
  const kept = text.length > cap ? text.slice(0, cap) : text;
  const size = kept.length === text.length ? `${kept.length}` : `${kept.length} of ${text.length}`;
  return `[${name}: ${size} characters]
${kept}
`;
}
function judgePrompt(c) {
  return [
    `${JUDGE_HEADER}
`,
    "You are judging an answer. Read the rubric, the question, the expected answer and the answer below.\n",
    "Reply with a first line that is exactly `VERDICT: PASS` or `VERDICT: FAIL`, then a line giving the reason.\n\n",
    section("rubric", c.rubric, JUDGE_CAPS.rubric),
    section("question", c.question, JUDGE_CAPS.question),
    section("expected answer", expectedAsText(c.expected), JUDGE_CAPS.expected),
    section("answer", c.answer ?? "(no answer text)", JUDGE_CAPS.answer)
  ].join("");
}
var VERDICT_LINE = /^VERDICT: (PASS|FAIL)$/;
function readVerdict(reply) {
  if (reply === null || reply.trim() === "") return unscored("the judge gave no reply");
  const lines = reply.split(/\r\n|\n|\r/);
  const at = lines.findIndex((l) => l.trim() !== "");
  const first = lines[at].trim();
  const m = VERDICT_LINE.exec(first);
  if (!m) return unscored(`the judge's reply has no verdict line (it began: ${oneLine(first, 80)})`);
  const rest = oneLine(lines.slice(at + 1).join(" "), MAX_REASON).replace(/^reason:\s*/i, "");
  const pass = m[1] === "PASS";
  return { pass, score: pass ? 1 : 0, reason: rest === "" ? "the judge gave no reason" : rest };
}

// src/score/judge-batch.ts
var judgeBatchName = (parent) => `${parent.name}.judge`;
var isJudgeBatch = (b) => typeof b.settings.judgeOf === "string";
function judgeItemId(item, spec, round) {
  return `${item.id}|a${item.attempt}|${spec.name}|${spec.version}${round ? `|${round}` : ""}`;
}
function judgedRefOf(item) {
  const j = item.meta.judges;
  if (j === null || typeof j !== "object") return null;
  const { item: id, scorer, version } = j;
  return typeof id === "string" && typeof scorer === "string" && typeof version === "string" ? { item: id, scorer, version } : null;
}
function judgePolicy(parent) {
  const scope = parent?.confirm_scope;
  return {
    // No rule: only a plan that costs nothing goes ahead; any other is declined.
    confirm_scope: scope ?? { approve_max_cost: 0, batch_budget: 0, otherwise: "decline" },
    ask_choice: parent?.ask_choice ?? { prefer: [], otherwise: "decline" },
    request_quality_image: parent?.request_quality_image ?? "decline"
  };
}
async function ensureJudgeBatch(store, parent) {
  const name = judgeBatchName(parent);
  const mine = (b) => {
    if (b.settings.judgeOf !== parent.id) throw new InputError(`batch "${name}" exists and does not judge batch "${parent.name}": rename it to judge this batch with an agent scorer`);
    return b;
  };
  const found = await store.findBatch(name);
  if (found) return mine(found);
  const id = randomUUID();
  const loader = await store.beginBatchLoad({
    id,
    name,
    kind: "runs",
    sourcePath: `judge:${parent.id}`,
    sourceSha256: "",
    baseUrl: parent.baseUrl,
    settings: { ...parent.settings, download: { ...parent.settings.download, enabled: false }, judgeOf: parent.id, notify: void 0, scorers: void 0 },
    policy: judgePolicy(parent.policy ?? null),
    // Its approvals and the judged batch's are held to one budget, together.
    spendsWith: parent.id
  });
  try {
    await loader.commit([], "");
  } catch (e) {
    await loader.rollback();
    const other = e instanceof BatchExistsError ? await store.findBatch(name) : null;
    if (other) return mine(other);
    throw e;
  }
  return mine(await store.findBatch(id));
}
async function appendJudgings(store, judge, spec, items, round) {
  if (items.length === 0) return 0;
  const rubric = String(spec.settings.rubric ?? "");
  const { appended } = await store.appendItems(judge.id, {
    ids: items.map((it) => judgeItemId(it, spec, round)),
    lines: items.map((it) => it.line),
    questions: items.map((it) => judgePrompt({ rubric, question: it.question, expected: it.expected, answer: it.text })),
    threads: items.map(() => null),
    metas: items.map((it) => JSON.stringify({ judges: { item: it.id, scorer: spec.name, version: spec.version } }))
  });
  return appended;
}
async function judgingCost(store, parent) {
  const judge = await store.findBatch(judgeBatchName(parent));
  if (!judge || judge.settings.judgeOf !== parent.id) return null;
  const counts = await store.itemCounts(judge.id);
  const runs = Object.values(counts).reduce((a, b) => a + b, 0) - counts.queued;
  return { runs, cost: await store.approvedCost(judge.id) };
}
async function judgingUnderWay(store, parent, staleMs) {
  if (isJudgeBatch(parent) || !(parent.settings.scorers ?? []).some((s) => s.kind === "agent")) return false;
  const judge = await store.findBatch(judgeBatchName(parent));
  if (!judge || judge.settings.judgeOf !== parent.id) return false;
  const c = await store.itemCounts(judge.id);
  if (c.queued + c.submitting + c.running + c.waiting === 0) return false;
  return (await store.liveWorkers(judge.id, staleMs)).length > 0;
}

export {
  readVerdict,
  judgeBatchName,
  isJudgeBatch,
  judgeItemId,
  judgedRefOf,
  judgePolicy,
  ensureJudgeBatch,
  appendJudgings,
  judgingCost,
  judgingUnderWay
};
//# sourceMappingURL=chunk-VUJC3A3Q.mjs.map
