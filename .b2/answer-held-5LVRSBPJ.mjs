import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  alignColumns
} from "./chunk-YFKNHOIT.mjs";
import {
  refusalLine
} from "./chunk-N33QDDMU.mjs";
import {
  EXIT
} from "./chunk-RVC6YWNH.mjs";
import "./chunk-CZMGSLWJ.mjs";
import "./chunk-5GEFFECR.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/cli/commands/answer-held.ts
var costText = (c) => c === null ? "\u2014" : String(c);
function costWords(reply, r) {
  if (reply.kind === "decline") return `their cost ${r.totalCost} is not spent`;
  const over = r.answered.some((x) => x.overBudget) ? " (over the batch budget, as you confirmed)" : "";
  return `total cost ${r.spent}${over}`;
}
async function answerHeldHandler(store, batch, a, io) {
  const [{ selectHeld }, { budgetOf }, { answerHeldItems, checkReplyFits }, { readNextStep }, { decisionWords }, { systemClock }, { oneLine, printable }] = await Promise.all([
    import("./held-selection-C23KPINQ.mjs"),
    import("./spend-JE5P7SZW.mjs"),
    import("./answer-bulk-V27I4JMW.mjs"),
    import("./batch-status-MHQWPTOJ.mjs"),
    import("./decider-VZA3T4BX.mjs"),
    import("./clock-3AZLLKWN.mjs"),
    import("./printable-ZMYS3Y2K.mjs")
  ]);
  const name = printable(batch.name);
  if (a.dryRun) {
    const sel = await selectHeld(store, batch, a.filter);
    if (a.reply) checkReplyFits(sel.items, a.reply);
    if (a.json) {
      io.stdout.write(`${JSON.stringify({ dryRun: true, items: sel.items.map(({ id, tool, cost, holdReason }) => ({ id, tool, cost, holdReason })), count: sel.items.length, totalCost: sel.totalCost, notHeld: sel.notHeld })}
`);
      return EXIT.ok;
    }
    const rows = sel.items.map((it) => [oneLine(it.id, 40), oneLine(it.tool, 24), oneLine(it.untrustedCost ?? costText(it.cost), 60), oneLine(it.holdReason ?? "", 80)]);
    const verb = a.reply ? `would ${a.reply.kind}` : "would answer";
    const out2 = [sel.items.length === 0 ? `no held item of ${name} matches` : `${verb} ${sel.items.length} held item(s) of ${name}, total cost ${sel.totalCost}:`];
    const budget = a.reply?.kind === "approve" ? budgetOf(batch.policy) : null;
    const approved = budget === null ? 0 : await store.budgetSpent(batch.id);
    if (budget !== null && sel.totalCost > 0 && approved + sel.totalCost > budget)
      out2.push(`this takes the batch's approved cost from ${approved} to ${approved + sel.totalCost}, past its budget ${budget}: approving needs --over-budget`);
    if (rows.length > 0) out2.push(...alignColumns([["id", "tool", "cost", "held because"], ...rows], [2]));
    for (const id of sel.notHeld) out2.push(`not held now: ${oneLine(id, 80)}`);
    out2.push("dry run: nothing recorded, nothing sent");
    io.stdout.write(`${out2.join("\n")}
`);
    return EXIT.ok;
  }
  let r;
  try {
    r = await answerHeldItems(store, batch, a.filter, a.reply, { person: a.person, overBudget: a.overBudget });
  } catch (e) {
    const line = refusalLine(e, batch.name, a.db);
    if (!line) throw e;
    io.stderr.write(line);
    return EXIT.usage;
  }
  const next = r.answered.length > 0 ? await readNextStep(store, batch, (io.clock ?? systemClock).now(), { db: a.db }) : null;
  if (a.json) {
    io.stdout.write(`${JSON.stringify({ ...r, next })}
`);
    return EXIT.ok;
  }
  const out = [];
  for (const x of r.answered) out.push(`answered ${oneLine(x.id, 60)} (${oneLine(x.tool, 24)}, cost ${costText(x.cost)}): ${decisionWords(x.answer)}`);
  for (const s of r.skipped) out.push(`skipped ${oneLine(s.id, 60)}: ${oneLine(s.reason, 200)}`);
  const by = r.person ? ` by ${printable(r.person)}` : "";
  const skippedBy = r.skipped.length ? `; skipped ${r.skipped.length} (${r.skipped.slice(0, 5).map((s) => `${oneLine(s.id, 40)}: ${s.by ? `answered by ${oneLine(s.by, 60)}` : "not held"}`).join(", ")}${r.skipped.length > 5 ? ", \u2026" : ""})` : "";
  const how = r.answered.length === 0 ? "" : next ? `; not sent yet (no worker running), to send them: ${next.command}` : "; the worker carrying the batch sends them now";
  if (r.answered.length === 0 && r.skipped.length === 0) out.push(`no held item of ${name} matches: nothing recorded`);
  else out.push(`answered ${r.answered.length} held item(s) of ${name}${by}, ${costWords(a.reply, r)}${a.reply?.note ? ` \u2014 note: ${oneLine(a.reply.note, 200)}` : ""}${skippedBy}${how}`);
  io.stdout.write(`${out.join("\n")}
`);
  return EXIT.ok;
}
export {
  answerHeldHandler
};
//# sourceMappingURL=answer-held-5LVRSBPJ.mjs.map
