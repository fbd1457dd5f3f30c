import type { AgentJudgingResult, JudgingProgress } from '../score/agent-judging.js';
import type { ScorerSpec } from '../score/types.js';
import type { BatchRecord, Store } from '../store/index.js';
import { commandHint } from '../text/command-hint.js';
import { escapeControls } from '../text/escape-text.js';
import { type ServiceFlags, sessionConnector } from './attach.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { leaseMsFromEnv } from './lease-env.js';
import { judgingLine } from './text/judging-line.js';
import { type ProgressKind, pickRenderer } from './progress.js';

/** What the agent judge is run with from a command line. */
export interface JudgeOnCli {
  store: Store;
  batch: BatchRecord;
  /** The scorers file's `agent` scorers. */
  scorers: readonly ScorerSpec[];
  rescore: boolean;
  dbPath: string;
  io: CliIo;
  /** Where judging runs go (`--sim`, `--base-url`); left out: the batch's own service. */
  service: ServiceFlags;
  signal: AbortSignal;
}

/** How the judging's progress reads on the one renderer: judgings ended of those in the companion batch. */
function judgingProgress(name: string): ProgressKind<JudgingProgress> {
  let started = false;
  return {
    barFormat: 'judgings',
    read: (e) => {
      if (started) return { kind: 'bar', done: e.done, total: e.total, fields: {} };
      started = true;
      const line = `judging with the agent: ${e.total - e.done} of ${e.total} judging${e.total === 1 ? '' : 's'} to go (batch ${escapeControls(name)})`;
      return { kind: 'start', line, aboveBar: true, total: e.total, done: e.done, fields: {} };
    },
  };
}

/**
 * Runs the agent judge on a batch with progress on stderr (`resq score` with an `agent`
 * scorer): the companion batch is driven to its end here, as a worker of its own.
 */
export async function judgeOnCli(o: JudgeOnCli): Promise<AgentJudgingResult> {
  const { judgeByAgent } = await import('../score/agent-judging.js');
  const progress = pickRenderer<JudgingProgress>(false, o.io, judgingProgress(`${o.batch.name}.judge`));
  const leaseMs = leaseMsFromEnv(o.io.env);
  try {
    return await judgeByAgent({
      store: o.store,
      parent: o.batch,
      scorers: o.scorers,
      rescore: o.rescore,
      service: sessionConnector(o.service, o.io.env, o.dbPath, (line) => progress.note(line)),
      signal: o.signal,
      hint: { db: o.dbPath },
      ...(leaseMs !== undefined ? { leaseMs } : {}),
      onEvent: (e) => {
        if (e.type === 'notice' || e.type === 'warning') progress.note(e.message);
      },
      onProgress: (p) => progress.onEvent(p),
    });
  } finally {
    progress.stop();
  }
}

/** What judging cost and what waits: `judging: N runs, cost C (batch X.judge)`, and the held judgings with the command that answers them. */
export function judgingLines(r: Pick<AgentJudgingResult, 'judge' | 'held'>, cost: { runs: number; cost: number }, db: string): string[] {
  const name = r.judge.name;
  const lines = [judgingLine(name, cost)];
  if (r.held > 0) lines.push(`${r.held} judging${r.held === 1 ? '' : 's'} held for a person (left unscored); to answer: ${commandHint(['resq', 'answer', name], { db })}`);
  return lines;
}

/**
 * After `resq run` / `resq resume --score` (or a batch with stored scorers) ended, its `agent`
 * scorers judge what completed, through the same judge batch as `resq score`. Nothing when the
 * run was interrupted or refused. Returns the exit code (130 when judging was interrupted).
 */
export async function judgeAfterRun(o: { store: Store; batchName: string; scorers: readonly ScorerSpec[] | null | undefined; dbPath: string; io: CliIo; service: ServiceFlags; code: number }): Promise<number> {
  if (o.code !== EXIT.ok && o.code !== EXIT.failed && o.code !== EXIT.held) return o.code;
  const batch = await o.store.findBatch(o.batchName);
  const agents = (o.scorers ?? batch?.settings.scorers ?? []).filter((s) => s.kind === 'agent');
  if (!batch || agents.length === 0) return o.code;
  const stop = new AbortController();
  const unhook = o.io.onStop(() => stop.abort());
  try {
    const j = await judgeOnCli({ store: o.store, batch, scorers: agents, rescore: false, dbPath: o.dbPath, io: o.io, service: o.service, signal: stop.signal });
    const { judgingCost } = await import('../score/judge-batch.js');
    for (const line of judgingLines(j, (await judgingCost(o.store, batch)) ?? { runs: 0, cost: 0 }, o.dbPath)) o.io.stderr.write(`${line}\n`);
    return stop.signal.aborted ? EXIT.interrupted : o.code;
  } finally {
    unhook();
  }
}
