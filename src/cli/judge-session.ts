import type { AgentJudgingResult, JudgingProgress } from '../score/agent-judging.js';
import type { ScorerSpec } from '../score/types.js';
import type { BatchRecord, Store } from '../store/index.js';
import { type ServiceFlags, sessionConnector } from './attach.js';
import type { CliIo } from './io.js';
import { leaseMsFromEnv } from './lease-env.js';
import { judgingToGo, type ProgressKind, pickRenderer } from './progress.js';

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
      return { kind: 'start', line: judgingToGo({ ...e, batch: name }), aboveBar: true, total: e.total, done: e.done, fields: {} };
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
