import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  selectHeld
} from "./chunk-LBCVOCDB.mjs";
import {
  answerFor,
  answerHeldItem,
  whyNotHeld,
  whyRefused
} from "./chunk-2XYF3HAU.mjs";
import "./chunk-Q6TQJGNT.mjs";
import {
  AlreadyAnsweredError,
  InputError,
  OverBudgetError,
  PauseMovedError
} from "./chunk-4EMWZ36I.mjs";
import {
  budgetOf
} from "./chunk-M4QEDMWX.mjs";
import {
  deciderName
} from "./chunk-IVLJ7PFV.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/runner/operations/answer-bulk.ts
function skippedFor(id, e) {
  if (e instanceof AlreadyAnsweredError) {
    const name = deciderName(e);
    return { id, reason: `already answered by ${name} at ${e.answeredAt} (now ${e.state})`, by: name, at: e.answeredAt };
  }
  if (e instanceof PauseMovedError) return { id, reason: e.message, by: e.seenAnsweredBy?.who ?? null, at: e.seenAnsweredBy?.at ?? null, pause: e.now };
  if (e instanceof InputError || e instanceof OverBudgetError) return { id, reason: e.message, by: null, at: null };
  return void 0;
}
function checkReplyFits(items, reply) {
  const misfits = [];
  for (const it of items) {
    try {
      answerFor(it.tool, it.input, reply);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      misfits.push(`${it.id} (${it.tool}: ${e.message})`);
    }
  }
  if (misfits.length === 0) return;
  const shown = misfits.slice(0, 5).join("; ");
  const more = misfits.length > 5 ? `; and ${misfits.length - 5} more` : "";
  throw new InputError(`the answer does not fit ${misfits.length} of the ${items.length} selected item(s): ${shown}${more}. Nothing recorded: narrow the selection (--tool, or the page's tool filter)`);
}
async function checkBulkBudget(store, batch, items, reply, overBudget) {
  const budget = budgetOf(batch.policy);
  if (budget === null || overBudget) return;
  const cost = items.reduce((n, it) => n + answerFor(it.tool, it.input, reply).cost, 0);
  if (cost <= 0) return;
  const approved = await store.budgetSpent(batch.id);
  if (approved + cost > budget) throw new OverBudgetError(`${items.length} held item(s)`, approved, cost, budget);
}
async function answerSelected(store, batch, items, skipped, reply, o) {
  checkReplyFits(items, reply);
  await checkBulkBudget(store, batch, items, reply, o.overBudget === true);
  const person = o.person?.trim() || null;
  await o.onSelected?.(items);
  const answered = [];
  let spent = 0;
  for (const it of items) {
    try {
      const r = await answerHeldItem(store, batch, it.id, reply, { person, runId: it.runId, overBudget: o.overBudget === true });
      answered.push({ id: it.id, runId: it.runId, tool: it.tool, cost: it.cost, overBudget: r.overBudget, answer: r.answer });
      spent += r.cost;
    } catch (e) {
      const s = skippedFor(it.id, e);
      if (!s) throw e;
      skipped.push(s);
    }
  }
  return { batch: batch.name, person, answered, skipped, totalCost: answered.reduce((n, a) => n + (a.cost ?? 0), 0), spent };
}
async function answerHeldItems(store, batch, filter, reply, o = {}) {
  const selection = await selectHeld(store, batch, filter);
  const skipped = [];
  for (const id of selection.notHeld) skipped.push(skippedFor(id, await whyNotHeld(store, batch, id)));
  return answerSelected(store, batch, selection.items, skipped, reply, o);
}
async function answerListedPauses(store, batch, listed, reply, o = {}) {
  const want = /* @__PURE__ */ new Map();
  for (const p of listed) if (!want.has(p.id)) want.set(p.id, p.runId);
  const selection = await selectHeld(store, batch, { ids: [...want.keys()] });
  const items = selection.items.filter((it) => want.get(it.id) === it.runId);
  const taken = new Set(items.map((it) => it.id));
  const skipped = [];
  for (const [id, runId] of want) if (!taken.has(id)) skipped.push(skippedFor(id, await whyRefused(store, batch, id, runId)));
  return answerSelected(store, batch, items, skipped, reply, o);
}
export {
  answerHeldItems,
  answerListedPauses,
  checkReplyFits
};
//# sourceMappingURL=answer-bulk-V27I4JMW.mjs.map
