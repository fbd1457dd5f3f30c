import type { HeldFilter, SelectedHeld } from '../../read/held-selection.js';
import type { BulkAnswerResult, PersonReply } from '../../runner/index.js';
import type { BatchRecord, Store } from '../../store/index.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { alignColumns } from '../text/columns.js';
import { refusalLine } from '../answer-refusal.js';

/** What `resq answer BATCH --held …` was asked. */
export interface AnswerHeldArgs {
  db: string;
  json: boolean;
  filter: HeldFilter;
  /** Null for a dry run given no decision: it only lists the selection. */
  reply: PersonReply | null;
  person: string | null;
  dryRun: boolean;
  /** Approve even though it takes the batch past its batch_budget. */
  overBudget: boolean;
}

/** A cost as the lines show it (— when the pause names none). */
const costText = (c: number | null): string => (c === null ? '—' : String(c));

/** What a bulk decision did with the money: spent when approved (and over the budget, if so), not spent when declined. */
function costWords(reply: PersonReply, r: BulkAnswerResult): string {
  if (reply.kind === 'decline') return `their cost ${r.totalCost} is not spent`;
  const over = r.answered.some((x) => x.overBudget) ? ' (over the batch budget, as you confirmed)' : '';
  return `total cost ${r.spent}${over}`;
}

/**
 * `resq answer BATCH --held …`: answers every held item the filter selects, each with its own
 * decision (or, with --dry-run, lists them and records nothing); returns the exit code.
 */
export async function answerHeldHandler(store: Store, batch: BatchRecord, a: AnswerHeldArgs, io: CliIo): Promise<number> {
  const [{ selectHeld }, { budgetOf }, { answerHeldItems, checkReplyFits }, { readNextStep }, { decisionWords }, { systemClock }, { oneLine, printable }] = await Promise.all([
    import('../../read/held-selection.js'),
    import('../../read/spend.js'),
    import('../../runner/operations/answer-bulk.js'),
    import('../../read/batch-status.js'),
    import('../../read/decider.js'),
    import('../../clock.js'),
    import('../../text/printable.js'),
  ]);
  const name = printable(batch.name);
  if (a.dryRun) {
    const sel = await selectHeld(store, batch, a.filter);
    if (a.reply) checkReplyFits(sel.items, a.reply);
    if (a.json) {
      io.stdout.write(`${JSON.stringify({ dryRun: true, items: sel.items.map(({ id, tool, cost, holdReason }) => ({ id, tool, cost, holdReason })), count: sel.items.length, totalCost: sel.totalCost, notHeld: sel.notHeld })}\n`);
      return EXIT.ok;
    }
    const rows = sel.items.map((it: SelectedHeld) => [oneLine(it.id, 40), oneLine(it.tool, 24), oneLine(it.untrustedCost ?? costText(it.cost), 60), oneLine(it.holdReason ?? '', 80)]);
    const verb = a.reply ? `would ${a.reply.kind}` : 'would answer';
    const out = [sel.items.length === 0 ? `no held item of ${name} matches` : `${verb} ${sel.items.length} held item(s) of ${name}, total cost ${sel.totalCost}:`];
    // An approval that would go past the budget is said now: the real one needs --over-budget.
    const budget = a.reply?.kind === 'approve' ? budgetOf(batch.policy) : null;
    const approved = budget === null ? 0 : await store.budgetSpent(batch.id);
    if (budget !== null && sel.totalCost > 0 && approved + sel.totalCost > budget)
      out.push(`this takes the batch's approved cost from ${approved} to ${approved + sel.totalCost}, past its budget ${budget}: approving needs --over-budget`);
    // The cost at the right, as numbers are.
    if (rows.length > 0) out.push(...alignColumns([['id', 'tool', 'cost', 'held because'], ...rows], [2]));
    for (const id of sel.notHeld) out.push(`not held now: ${oneLine(id, 80)}`);
    out.push('dry run: nothing recorded, nothing sent');
    io.stdout.write(`${out.join('\n')}\n`);
    return EXIT.ok;
  }
  let r: BulkAnswerResult;
  try {
    r = await answerHeldItems(store, batch, a.filter, a.reply!, { person: a.person, overBudget: a.overBudget });
  } catch (e) {
    const line = refusalLine(e, batch.name, a.db);
    if (!line) throw e;
    io.stderr.write(line);
    return EXIT.usage;
  }
  const next = r.answered.length > 0 ? await readNextStep(store, batch, (io.clock ?? systemClock).now(), { db: a.db }) : null;
  if (a.json) {
    io.stdout.write(`${JSON.stringify({ ...r, next })}\n`);
    return EXIT.ok;
  }
  const out: string[] = [];
  for (const x of r.answered) out.push(`answered ${oneLine(x.id, 60)} (${oneLine(x.tool, 24)}, cost ${costText(x.cost)}): ${decisionWords(x.answer)}`);
  for (const s of r.skipped) out.push(`skipped ${oneLine(s.id, 60)}: ${oneLine(s.reason, 200)}`);
  const by = r.person ? ` by ${printable(r.person)}` : '';
  const skippedBy = r.skipped.length ? `; skipped ${r.skipped.length} (${r.skipped.slice(0, 5).map((s) => `${oneLine(s.id, 40)}: ${s.by ? `answered by ${oneLine(s.by, 60)}` : 'not held'}`).join(', ')}${r.skipped.length > 5 ? ', …' : ''})` : '';
  const how = r.answered.length === 0 ? '' : next ? `; not sent yet (no worker running), to send them: ${next.command}` : '; the worker carrying the batch sends them now';
  if (r.answered.length === 0 && r.skipped.length === 0) out.push(`no held item of ${name} matches: nothing recorded`);
  else out.push(`answered ${r.answered.length} held item(s) of ${name}${by}, ${costWords(a.reply!, r)}${a.reply?.note ? ` — note: ${oneLine(a.reply.note, 200)}` : ''}${skippedBy}${how}`);
  io.stdout.write(`${out.join('\n')}\n`);
  return EXIT.ok;
}
