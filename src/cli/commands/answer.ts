import { userInfo } from 'node:os';
import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { PersonReply } from '../../runner/index.js';
import type { CommandContext } from '../command-context.js';
import { dbFlag } from '../db-path.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq answer`. */
export interface AnswerArgs {
  batch: string;
  item: string;
  db: string;
  json: boolean;
  approve?: boolean;
  decline?: boolean;
  choose?: string;
  note?: string;
  /** Who answers, recorded with the answer. @default the OS user name */
  by?: string;
}

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
  const given = [a.approve, a.decline, a.choose !== undefined].filter(Boolean).length;
  if (given !== 1) throw new InputError('give exactly one of --approve, --decline, --choose ID[,ID]');
  const note = a.note ? { note: a.note } : {};
  const reply: PersonReply = a.approve
    ? { kind: 'approve', ...note }
    : a.decline
      ? { kind: 'decline', ...note }
      : { kind: 'choose', ids: (a.choose ?? '').split(',').map((s) => s.trim()).filter(Boolean), ...note };
  // Loaded when the command runs (see cli.ts); the answer module alone, not the runner's barrel.
  const [{ answerHeldItem }, { readNextStep }, { decisionWords }, { systemClock }, { openBatch }, { printable }] = await Promise.all([
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
    const r = await answerHeldItem(store, batch, a.item, reply, { person });
    const next = await readNextStep(store, batch, (io.clock ?? systemClock).now());
    const how = next
      ? `not sent yet (no worker running): \`${printable(next.command)}${dbFlag(a.db)}\` sends it`
      : 'the worker carrying the batch sends it now';
    io.stdout.write(
      a.json
        ? `${JSON.stringify({ ...r, next })}\n`
        : `recorded for ${printable(batch.name)}/${printable(a.item)}${r.person ? ` (by ${printable(r.person)})` : ''}: ${decisionWords(r.answer)}${reply.note ? ` — note: ${printable(reply.note)}` : ''}; ${how}\n`,
    );
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** Registers `resq answer`. */
export function answerCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'answer <batch> <item>',
    "answer a held item's pause (sent on the next run/resume, or at once if a runner is attached)",
    (a) =>
      a
        .positional('batch', { type: 'string', demandOption: true, describe: 'batch name or id' })
        .positional('item', { type: 'string', demandOption: true, describe: 'the held item\'s id (resq status lists the held ones)' })
        .option('approve', { type: 'boolean', describe: 'approve (confirm_scope, request_quality_image)' })
        .option('decline', { type: 'boolean', describe: 'decline' })
        .option('choose', { type: 'string', describe: 'option id(s) for ask_choice, comma-separated' })
        .option('note', { type: 'string', describe: 'why: recorded with the decision whichever you give (--approve, --decline or --choose), shown by show, the page and the export; with an ask_choice answer it is also sent to the service' })
        .option('by', { type: 'string', describe: 'who answers, recorded with the answer (default: your OS user name)' }),
    async (argv) => {
      ctx.code = await answerHandler(argv as unknown as AnswerArgs, ctx.io);
    },
  );
}
