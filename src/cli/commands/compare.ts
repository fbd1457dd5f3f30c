import { once } from 'node:events';
import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { CompareCounts, ItemComparison } from '../../runner/compare.js';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq compare`. */
export interface CompareArgs {
  a: string;
  b: string;
  db: string;
  json: boolean;
  format?: 'text' | 'jsonl';
}

/** The counts line: what differs between the two batches. */
export function countsLine(nameA: string, nameB: string, n: CompareCounts): string {
  return (
    `${nameA} → ${nameB}: ${n.both} in both (${n.same} the same), ${n.onlyA} only in ${nameA}, ${n.onlyB} only in ${nameB}; ` +
    `state changed ${n.stateChanged}, question changed ${n.questionChanged}, answer changed ${n.answerChanged}, decisions differ ${n.decisionsDiffer}, files changed ${n.filesChanged}`
  );
}

/** One changed item as a line of text (service text already made printable by the caller). */
export function changeLine(c: ItemComparison, nameA: string, nameB: string, p: (s: string) => string): string {
  if (!c.b) return `${p(c.id)}: only in ${nameA}`;
  if (!c.a) return `${p(c.id)}: only in ${nameB}`;
  const parts: string[] = [];
  if (c.stateChanged) parts.push(`${c.a.state} → ${c.b.state}`);
  if (c.questionChanged) parts.push(`question changed: "${p(c.a.question)}" → "${p(c.b.question)}"`);
  if (c.answerChanged) parts.push(`answer changed (${c.diff ? `-${c.diff.filter((l) => l.op === '-').length} +${c.diff.filter((l) => l.op === '+').length} lines` : 'one side has none'})`);
  if (c.decisionsDiffer) parts.push(`decisions differ: [${c.a.decisions.map(p).join('; ')}] → [${c.b.decisions.map(p).join('; ')}]`);
  if (c.filesAdded.length) parts.push(`files added: ${c.filesAdded.map(p).join(', ')}`);
  if (c.filesGone.length) parts.push(`files gone: ${c.filesGone.map(p).join(', ')}`);
  return `${p(c.id)}: ${parts.join('; ')}`;
}

/**
 * `resq compare A B`: the same item ids of two batches side by side. Text: the counts, the
 * verdicts per scorer with the regressed then the fixed items (when either batch was scored),
 * then one line per item that differs. `--json` (or the hidden alias `--format jsonl`): one
 * JSON object per scorer and per turned item, then per item (every item); the counts on stderr.
 */
export async function compareHandler(a: CompareArgs, io: CliIo): Promise<number> {
  const [{ openBatches }, { compareBatches, countComparison, emptyCounts, hasChanges }, { oneLine }, { commandHint }, { pairVerdicts }, { writeVerdicts }] = await Promise.all([
    import('../open-batch.js'),
    import('../../runner/compare.js'),
    import('../../text/printable.js'),
    import('../../text/command-hint.js'),
    import('../../read/regressions.js'),
    import('../text/compare-verdicts.js'),
  ]);
  const { store, batches } = await openBatches(a.db, a.a);
  try {
    const left = batches[0]!;
    const right = await store.findBatch(a.b);
    if (!right) throw new InputError(`no batch named "${oneLine(a.b, 80)}"; the batches: ${commandHint(['resq', 'batches'], { db: a.db })}`);
    const p = (s: string): string => oneLine(s, 200);
    const [nameA, nameB] = [p(left.name), p(right.name)];
    const counts = emptyCounts();
    const jsonl = a.format === 'jsonl' || a.json;
    const lines: string[] = [];
    // Verdicts before the other changes: the items that passed in A and fail in B lead, then those fixed.
    const pairing = await pairVerdicts(store, left, right);
    if (jsonl) await writeVerdicts(io, pairing, nameA, nameB, true, p);
    for await (const c of compareBatches(store, left, right)) {
      countComparison(counts, c);
      if (jsonl) {
        if (!io.stdout.write(`${JSON.stringify({ type: 'item', ...c, changed: hasChanges(c) })}\n`)) await once(io.stdout, 'drain');
      } else if (hasChanges(c)) lines.push(changeLine(c, nameA, nameB, p));
    }
    if (jsonl) io.stderr.write(`${countsLine(nameA, nameB, counts)}\n`);
    else {
      io.stdout.write(`${countsLine(nameA, nameB, counts)}\n`);
      await writeVerdicts(io, pairing, nameA, nameB, false, p);
      if (pairing.scorers.length > 0 && lines.length > 0) io.stdout.write('changes:\n');
      io.stdout.write(lines.map((l) => `  ${l}\n`).join(''));
    }
  } finally {
    await store.close();
  }
  return EXIT.ok;
}

/** Registers `resq compare`. */
export function compareCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'compare <a> <b>',
    'the same item ids of two batches side by side: verdicts (regressed first, then fixed, per scorer with an exact McNemar test), state, question, answer (a diff), decisions, files (--json: one JSON object per scorer, turned item and item; the counts on stderr)',
    (x) =>
      x
        .positional('a', { type: 'string', demandOption: true, describe: 'the first batch (name or id)' })
        .positional('b', { type: 'string', demandOption: true, describe: 'the second batch' })
        .option('format', { choices: ['text', 'jsonl'] as const, default: 'text' as const, hidden: true, describe: 'an alias: --format jsonl is --json' }),
    async (argv) => {
      ctx.code = await compareHandler(argv as unknown as CompareArgs, ctx.io);
    },
  );
}
