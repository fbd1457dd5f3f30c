import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  idempotencyKey
} from "./chunk-Q6TQJGNT.mjs";
import {
  AlreadyAnsweredError,
  InputError,
  ItemNotHeldError,
  PauseMovedError
} from "./chunk-4EMWZ36I.mjs";
import {
  budgetOf
} from "./chunk-M4QEDMWX.mjs";
import {
  deciderName
} from "./chunk-IVLJ7PFV.mjs";
import {
  planCost
} from "./chunk-O4EQ2A5A.mjs";

// src/runner/operations/answer.ts
function optionIds(input) {
  const opts = input.options;
  if (!Array.isArray(opts)) return [];
  return [...new Set(opts.flatMap((o) => o && typeof o === "object" && typeof o.id === "string" ? [o.id] : []))];
}
function repeatedIds(ids) {
  return [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
}
function answerFor(tool, input, reply) {
  if (tool === "ask_choice") {
    if (reply.kind === "approve") throw new InputError(`ask_choice needs --choose ID[,ID] or --decline (offered: ${optionIds(input).join(", ")})`);
    const note = reply.note ? { note: reply.note } : {};
    if (reply.kind === "decline") return { answer: { decision: "declined", ...note }, cost: 0 };
    const offered = optionIds(input);
    const unknown = reply.ids.filter((id) => !offered.includes(id));
    if (unknown.length > 0) throw new InputError(`--choose: ${unknown.join(", ")} not offered (offered: ${offered.join(", ")})`);
    if (reply.ids.length === 0) throw new InputError("--choose: give at least one option id");
    const twice = repeatedIds(reply.ids);
    if (twice.length > 0) throw new InputError(`--choose: ${twice.join(", ")} given more than once: name each option once`);
    if (reply.ids.length > 1 && input.allowMultiple !== true)
      throw new InputError("--choose: this question allows only one option");
    return { answer: { decision: "chosen", chosen: reply.ids, ...note }, cost: 0 };
  }
  if (reply.kind === "choose") throw new InputError(`${tool} takes --approve or --decline, not --choose`);
  const approved = reply.kind === "approve";
  const cost = tool === "confirm_scope" && approved ? planCost(input) ?? 0 : 0;
  return { answer: { approved }, cost };
}
async function pauseOfRun(store, batch, itemId, runId) {
  const run = await store.getRun(runId);
  const action = run?.requiredAction;
  if (!run || !action || run.batchId !== batch.id || run.itemId !== itemId) return null;
  return { runId, tool: action.tool, input: action.input, cost: planCost(action.input) };
}
async function pauseWaiting(store, batch, itemId) {
  const item = await store.getItem(batch.id, itemId);
  if (!item) throw new InputError(`batch "${batch.name}" has no item "${itemId}"`);
  const pause = item.state === "held" && item.runId ? await pauseOfRun(store, batch, itemId, item.runId) : null;
  if (!pause) throw await whyNotHeld(store, batch, itemId);
  return pause;
}
async function whyNotHeld(store, batch, itemId) {
  const item = await store.getItem(batch.id, itemId);
  if (!item) return new InputError(`batch "${batch.name}" has no item "${itemId}"`);
  const last = (await store.decisionsForItem(batch.id, itemId)).at(-1);
  if (last && item.state !== "queued") return new AlreadyAnsweredError(itemId, last.by, last.person, last.decidedAt, item.state);
  return new InputError(`item "${itemId}" is ${item.state}, not held: there is nothing to answer`);
}
async function whyRefused(store, batch, itemId, seenRunId) {
  const item = await store.getItem(batch.id, itemId);
  if (item?.state === "held" && item.runId && item.runId !== seenRunId) {
    const now = await pauseOfRun(store, batch, itemId, item.runId);
    const seen = await pauseOfRun(store, batch, itemId, seenRunId);
    const bare = (p) => ({ runId: p.runId, tool: p.tool, cost: p.cost });
    const d = (await store.decisionsForItem(batch.id, itemId)).find((x) => x.runId === seenRunId);
    const answeredBy = d ? { who: deciderName(d), at: d.decidedAt } : null;
    if (now) return new PauseMovedError(itemId, seen && bare(seen), bare(now), answeredBy);
  }
  return whyNotHeld(store, batch, itemId);
}
async function answerHeldItem(store, batch, itemId, reply, who) {
  if (typeof who.runId !== "string" || who.runId === "") throw new InputError(`name the pause of "${itemId}" you answer (its run id)`);
  const item = await store.getItem(batch.id, itemId);
  if (!item) throw new InputError(`batch "${batch.name}" has no item "${itemId}"`);
  const seen = await pauseOfRun(store, batch, itemId, who.runId);
  if (!seen) throw new InputError(`run "${who.runId}" is no pause of item "${itemId}" (resq show lists its runs and pauses)`);
  if (item.state !== "held" || item.runId !== who.runId) throw await whyRefused(store, batch, itemId, who.runId);
  const { answer, cost } = answerFor(seen.tool, seen.input, reply);
  const person = who.person?.trim() || null;
  const budget = budgetOf(batch.policy);
  let recorded;
  try {
    recorded = await store.answerHeld(
      batch.id,
      item.id,
      { runId: seen.runId, tool: seen.tool, input: seen.input, answer, by: "person", person, reason: reply.note ?? null, cost },
      idempotencyKey(batch.id, item.id, item.step + 1, item.attempt),
      budget === null ? void 0 : { budget, allowOver: who.overBudget === true }
    );
  } catch (e) {
    if (e instanceof ItemNotHeldError) throw await whyRefused(store, batch, itemId, who.runId);
    throw e;
  }
  return { batch: batch.name, item: item.id, tool: seen.tool, runId: seen.runId, cost, overBudget: recorded.overBudget, answer, by: "person", person };
}

export {
  answerFor,
  pauseWaiting,
  whyNotHeld,
  whyRefused,
  answerHeldItem
};
//# sourceMappingURL=chunk-2XYF3HAU.mjs.map
