import { userInfo } from 'node:os';
import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { PersonReply } from '../../runner/index.js';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq answer`. */
export interface AnswerArgs {
  batch: string;
  /** The held item's id; absent with --held. */
  item?: string;
  db: string;
  json: boolean;
  approve?: boolean;
  decline?: boolean;
  choose?: string;
  note?: string;
  /** Who answers, recorded with the answer. @default the OS user name */
  by?: string;
  /** Answer every held item the filters select (each its own decision). */
  held?: boolean;
  tool?: string;
  'max-cost'?: number;
  'min-cost'?: number;
  where?: string[];
  text?: string;
  items?: string;
  'dry-run'?: boolean;
  /** The pause answered (its run id, as status, show and the page give it); without it, the pause waiting now, said. */
  run?: string;
  /** Approve even though it takes the batch past its batch_budget. */
  'over-budget'?: boolean;
}

/** The flags that only a bulk decision (--held) takes. */
const BULK_FLAGS = ['tool', 'max-cost', 'min-cost', 'where', 'text', 'items', 'dry-run'] as const;

/** The OS user's name, or null when the system cannot say (no passwd entry in a container). */
function osUserName(): string | null {
  try {
    return userInfo().username || null;
  } catch {
    return null;
  }
}

/** `resq answer BATCH ITEM …`: records a person's answer; returns the exit code. */
export async function answerHandler(a: AnswerArgs, io: CliIo): Promise<number> {
  if (a.held) return answerBulkHandler(a, io);
  const extra = BULK_FLAGS.filter((f) => a[f] !== undefined && a[f] !== false);
  if (extra.length > 0) throw new InputError(`--${extra[0]} selects held items: give it with --held (resq answer BATCH --held …)`);
  if (a.item === undefined) throw new InputError('name the held item (resq answer BATCH ITEM …), or give --held to answer every held item a filter selects');
  const item = a.item;
  const reply = replyOf(a);
  if (!reply) throw new InputError('give exactly one of --approve, --decline, --choose ID[,ID]');
  // Loaded when the command runs (see cli.ts); the answer module alone, not the runner's barrel.
  const [{ answerHeldItem, pauseWaiting }, { readNextStep }, { decisionWords }, { systemClock }, { openBatch }, { printable }] = await Promise.all([
    import('../../runner/operations/answer.js'),
    import('../../read/batch-status.js'),
    import('../../read/decider.js'),
    import('../../clock.js'),
    import('../open-batch.js'),
    import('../../text/printable.js'),
  ]);
  const person = a.by?.trim() || osUserName();
  const { store, batch } = await openBatch(a.db, a.batch);
  try {
    let runId = a.run?.trim();
    if (!runId) {
      // No pause named: the one waiting now, said (with its cost) before it is answered.
      const now = await pauseWaiting(store, batch, item);
      runId = now.runId;
      if (!a.json) io.stdout.write(`answering the pause waiting now: run ${printable(runId)} (${printable(now.tool)}${now.cost !== null ? `, cost ${now.cost}` : ''})\n`);
    }
    let r;
    try {
      r = await answerHeldItem(store, batch, item, reply, { person, runId, overBudget: a['over-budget'] === true });
    } catch (e) {
      const { refusalLine } = await import('../answer-refusal.js');
      const line = refusalLine(e, batch.name, a.db);
      if (!line) throw e;
      io.stderr.write(line);
      return EXIT.usage;
    }
    const next = await readNextStep(store, batch, (io.clock ?? systemClock).now(), { db: a.db });
    const how = next
      ? `not sent yet (no worker running), to send it: ${next.command}`
      : 'the worker carrying the batch sends it now';
    io.stdout.write(
      a.json
        ? `${JSON.stringify({ ...r, next })}\n`
        : `recorded for ${printable(batch.name)}/${printable(item)}${r.person ? ` (by ${printable(r.person)})` : ''}: ${decisionWords(r.answer)}${r.overBudget ? ' — over the batch budget, as you confirmed' : ''}${reply.note ? ` — note: ${printable(reply.note)}` : ''}; ${how}\n`,
    );
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** The reply the flags give; null unless exactly one of --approve, --decline, --choose is given. */
function replyOf(a: AnswerArgs): PersonReply | null {
  const given = [a.approve, a.decline, a.choose !== undefined].filter(Boolean).length;
  if (given !== 1) return null;
  const note = a.note ? { note: a.note } : {};
  return a.approve
    ? { kind: 'approve', ...note }
    : a.decline
      ? { kind: 'decline', ...note }
      : { kind: 'choose', ids: (a.choose ?? '').split(',').map((s) => s.trim()).filter(Boolean), ...note };
}

/** `resq answer BATCH --held …`: checks the flags, then answers (or lists) every held item they select. */
async function answerBulkHandler(a: AnswerArgs, io: CliIo): Promise<number> {
  if (a.item !== undefined) throw new InputError(`--held answers the held items the filters select: drop the item id "${a.item}", or drop --held`);
  if (a.run !== undefined) throw new InputError('--run names the pause of one item: drop it with --held (each item is answered for the pause the selection lists)');
  const reply = replyOf(a);
  const given = [a.approve, a.decline, a.choose !== undefined].filter(Boolean).length;
  if (given > 1 || (!reply && !a['dry-run'])) throw new InputError('give exactly one of --approve, --decline, --choose ID[,ID] (or --dry-run to list what would be answered)');
  const { checkHeldFilter, parseWhere } = await import('../../read/held-selection.js');
  const where = (a.where ?? []).map((w) => parseWhere(String(w)));
  const ids = a.items?.split(',').map((s) => s.trim()).filter(Boolean);
  const filter = {
    ...(a.tool !== undefined ? { tool: String(a.tool) } : {}),
    ...(a['min-cost'] !== undefined ? { minCost: a['min-cost'] } : {}),
    ...(a['max-cost'] !== undefined ? { maxCost: a['max-cost'] } : {}),
    ...(where.length ? { where } : {}),
    ...(a.text ? { text: a.text } : {}),
    ...(ids ? { ids } : {}),
  };
  // Checked (one line naming the flag, NaN from yargs for a cost that is no number included) before the database opens.
  checkHeldFilter(filter);
  const [{ openBatch }, { answerHeldHandler }] = await Promise.all([import('../open-batch.js'), import('./answer-held.js')]);
  const { store, batch } = await openBatch(a.db, a.batch);
  try {
    return await answerHeldHandler(store, batch, { db: a.db, json: a.json, filter, reply, person: a.by?.trim() || osUserName(), dryRun: a['dry-run'] === true, overBudget: a['over-budget'] === true }, io);
  } finally {
    await store.close();
  }
}

/** Registers `resq answer`. */
export function answerCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'answer <batch> [item]',
    "answer a held item's pause, or with --held every held item a filter selects (sent on the next run/resume, or at once if a runner is attached)",
    (a) =>
      a
        .positional('batch', { type: 'string', demandOption: true, describe: 'batch name or id' })
        .positional('item', { type: 'string', describe: 'the held item\'s id (resq status lists the held ones); leave it out with --held' })
        .option('held', { type: 'boolean', describe: 'answer every held item the filters below select, each with its own decision; one answered meanwhile by someone else is skipped and named' })
        .option('tool', { type: 'string', describe: 'with --held: only pauses on this tool (confirm_scope, ask_choice, request_quality_image, …)' })
        .option('min-cost', { type: 'number', describe: 'with --held: only plans costing at least N (items whose pause names no cost are left out)' })
        .option('max-cost', { type: 'number', describe: 'with --held: only plans costing at most N (items whose pause names no cost are left out)' })
        .option('where', { type: 'string', array: true, nargs: 1, describe: 'with --held: only items whose meta field equals VALUE (meta.KEY=VALUE; give it again for more)' })
        .option('text', { type: 'string', describe: 'with --held: only items with this text (any case) in the id, question or hold reason' })
        .option('items', { type: 'string', describe: 'with --held: only these item ids (comma-separated); any not held now is skipped and named' })
        .option('dry-run', { type: 'boolean', describe: 'with --held: list what would be answered (id, tool, cost, hold reason, total cost); records and sends nothing' })
        .option('approve', { type: 'boolean', describe: 'approve (confirm_scope, request_quality_image)' })
        .option('decline', { type: 'boolean', describe: 'decline' })
        .option('choose', { type: 'string', describe: 'option id(s) for ask_choice, comma-separated' })
        .option('note', { type: 'string', describe: 'why: recorded with the decision (--approve, --decline or --choose), shown by show, the page and the export; sent to the service with an ask_choice answer' })
        .option('by', { type: 'string', describe: 'who answers, recorded with the answer (default: your OS user name)' })
        .option('run', { type: 'string', describe: 'the pause you answer (its run id, as status and show give it): refused if the item paused again since; without it, the pause waiting now, said with its cost' })
        .option('over-budget', { type: 'boolean', describe: 'approve even though it takes the batch past its batch_budget (refused without it, naming the totals)' }),
    async (argv) => {
      ctx.code = await answerHandler(argv as unknown as AnswerArgs, ctx.io);
    },
  );
}
