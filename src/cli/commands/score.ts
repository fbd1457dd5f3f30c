import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { ScoreProgress } from '../../score/score-batch.js';
import type { ScorerSpec, ScorerTotals } from '../../score/types.js';
import type { BatchRecord, Store } from '../../store/index.js';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import type { ProgressKind } from '../progress.js';

/** Flags of `resq score`. */
export interface ScoreArgs {
  batch: string;
  db: string;
  scorers: string;
  rescore?: boolean;
  failUnder?: string;
  /** Where an `agent` scorer's judging runs go; left out: the batch's own service. */
  sim?: boolean;
  baseUrl?: string;
}

/**
 * `--fail-under R`: a pass rate from 0 to 1 (`0.9`) or a percentage (`90%`).
 * @throws {InputError} naming the flag.
 */
function parseFailUnder(text: string | undefined): number | null {
  if (text === undefined) return null;
  const t = text.trim();
  const pct = t.endsWith('%');
  const n = Number(pct ? t.slice(0, -1) : t);
  const rate = pct ? n / 100 : n;
  if (t === '' || t === '%' || !Number.isFinite(rate) || rate < 0 || rate > 1) throw new InputError('--fail-under: give a pass rate from 0 to 1 (0.9) or a percentage (90%)');
  return rate;
}

/** A pass rate for a person: `84.2%`, or `-` when nothing was judged. */
const shownRate = (r: number | null): string => (r === null ? '-' : `${(Math.round(r * 1000) / 10).toFixed(1)}%`);

/** One scorer's line: its counts and pass rate. */
function totalsLine(t: ScorerTotals, rate: number | null): string {
  return `${t.scorer}: passed ${t.passed}, failed ${t.failed}, unscored ${t.unscored}, pass rate ${shownRate(rate)}`;
}

/** How `resq score`'s progress reads on the one renderer: a bar per scorer. */
function scoreProgress(): ProgressKind<ScoreProgress> {
  return {
    barFormat: 'items judged',
    read: (e) =>
      e.done === 0 ? { kind: 'start', line: `scoring: up to ${e.total} item${e.total === 1 ? '' : 's'} to judge`, aboveBar: true, total: e.total, done: 0, fields: {} } : { kind: 'bar', done: e.done, total: e.total, fields: {} },
  };
}

/**
 * `resq score BATCH --scorers FILE`: judges every completed item lacking a verdict of each
 * scorer's version (`--rescore`: all of them) and prints each scorer's counts and pass rate.
 * Local and command scorers send nothing to the service. Exit 4 when a scorer's pass rate is
 * under `--fail-under` (none judged counts as under), 0 otherwise, 2 on bad input.
 */
export async function scoreHandler(a: ScoreArgs, io: CliIo): Promise<number> {
  const failUnder = parseFailUnder(a.failUnder);
  const [{ parseScorersFile }, { scoreBatch, passRate }, { openBatch }, { pickRenderer }] = await Promise.all([
    import('../../score/scorers-file.js'),
    import('../../score/score-batch.js'),
    import('../open-batch.js'),
    import('../progress.js'),
  ]);
  // The file first: a bad one opens nothing.
  const scorers = await parseScorersFile(a.scorers);
  const { store, batch } = await openBatch(a.db, a.batch);
  const progress = pickRenderer<ScoreProgress>(false, io, scoreProgress());
  const stop = new AbortController();
  const unhook = io.onStop(() => stop.abort());
  try {
    // Agent scorers judge through a batch of their own (score/agent-judging.ts); the others here.
    const agents = scorers.filter((s) => s.kind === 'agent');
    const local = scorers.filter((s) => s.kind !== 'agent');
    const r = local.length > 0 ? await scoreBatch({ store, batchId: batch.id, scorers: local, rescore: a.rescore ?? false, onProgress: (p) => progress.onEvent(p), signal: stop.signal }) : { judged: 0 };
    progress.stop();
    const judging = agents.length > 0 ? await judgeAgents(a, io, { store, batch, scorers: agents, signal: stop.signal }) : null;
    if (stop.signal.aborted) return EXIT.interrupted;
    let below = false;
    for (const t of await store.scoreTotals(batch.id, scorers.map((s) => ({ name: s.name, version: s.version })))) {
      const rate = passRate(t);
      if (failUnder !== null && (rate === null || rate < failUnder)) below = true;
      io.stdout.write(`${totalsLine(t, rate)}\n`);
    }
    for (const line of judging?.lines ?? []) io.stdout.write(`${line}\n`);
    const judged = r.judged + (judging?.recorded ?? 0);
    io.stderr.write(`judged ${judged} verdict${judged === 1 ? '' : 's'}\n`);
    if (below) {
      io.stderr.write(`a pass rate is under ${shownRate(failUnder)} (--fail-under)\n`);
      return EXIT.belowPassRate;
    }
    return EXIT.ok;
  } catch (e) {
    progress.stop();
    if (stop.signal.aborted) return EXIT.interrupted;
    throw e;
  } finally {
    unhook();
    await store.close();
  }
}

/** Runs the agent scorers' judgings to their end: what they recorded, and what judging cost. */
async function judgeAgents(a: ScoreArgs, io: CliIo, o: { store: Store; batch: BatchRecord; scorers: ScorerSpec[]; signal: AbortSignal }): Promise<{ recorded: number; lines: string[] }> {
  const [{ judgeOnCli }, { judgingLines }, { judgingCost }] = await Promise.all([import('../judge-session.js'), import('../text/judging-line.js'), import('../../score/judge-batch.js')]);
  const j = await judgeOnCli({ ...o, rescore: a.rescore ?? false, dbPath: a.db, io, service: { sim: a.sim, baseUrl: a.baseUrl } });
  const cost = (await judgingCost(o.store, o.batch)) ?? { runs: 0, cost: 0 };
  return { recorded: j.recorded, lines: judgingLines(j, cost, a.db) };
}

/** Registers `resq score`. */
export function scoreCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'score <batch>',
    "judge a batch's completed answers with the scorers of a file, without asking the service again (exit 4 under --fail-under)",
    (x) =>
      x
        .positional('batch', { type: 'string', demandOption: true, describe: 'the batch (name or id)' })
        .option('scorers', { type: 'string', demandOption: true, describe: 'the scorers file (YAML): `scorers:` each with a name and a kind' })
        .option('rescore', { type: 'boolean', default: false, describe: 'judge every completed item again, not only those without a verdict of this scorer version' })
        .option('fail-under', { type: 'string', describe: 'exit 4 when any scorer\'s pass rate is under this (0.9 or 90%)' })
        .option('sim', { type: 'boolean', describe: 'agent scorers: judge on the built-in simulator (default: the batch\'s service)' })
        .option('base-url', { type: 'string', describe: 'agent scorers: the service base URL (default: the batch\'s, else $RESQ_BASE_URL)' }),
    async (argv) => {
      ctx.code = await scoreHandler(argv as unknown as ScoreArgs, ctx.io);
    },
  );
}
