import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import type { Overrides } from '../../runner/batch-overrides.js';
import type { CommandContext } from '../command-context.js';
import type { CliIo } from '../io.js';
import { wholeNumber } from '../whole-number.js';
import type { NotifyFlags } from '../notify-settings.js';
import { notifyFlagsOf, notifyOptions, sendOptionsFromEnv } from '../notify-flags.js';

/** Flags of `resq resume`. */
export interface ResumeArgs {
  batch?: string;
  db: string;
  json: boolean;
  baseUrl?: string;
  sim?: boolean;
  concurrency?: number;
  policy?: string;
  out?: string;
  limit?: number;
  wait: boolean;
  /** A scorers file: replaces the batch's (stored), and this worker runs its command scorers. */
  score?: string;
}

/** Registers `resq resume`. */
export function resumeCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'resume [batch]',
    'continue a batch, or join it from another process or machine (the newest when no name is given)',
    (a) =>
      notifyOptions(a)
        .positional('batch', { type: 'string', describe: 'batch name or id' })
        .option('base-url', { type: 'string', describe: 'service base URL ending in /api/v1 (default: the batch\'s, else $RESQ_BASE_URL)' })
        .option('sim', { type: 'boolean', describe: 'use the built-in simulator' })
        .option('concurrency', { type: 'number', describe: 'most runs in flight over all workers (default: the batch\'s)' })
        .option('policy', { type: 'string', describe: 'replace the batch\'s auto-answer policy' })
        .option('score', { type: 'string', describe: 'scorers file (YAML): judge each answer as it completes (replaces the batch\'s)' })
        .option('out', { type: 'string', describe: 'folder for this worker\'s downloads (default: the batch\'s)' })
        .option('limit', { type: 'number', describe: 'submit only the next N queued items now' })
        .option('wait', { type: 'boolean', default: true, describe: 'when nothing is left to claim, wait for other workers (--no-wait: leave)' }),
    async (argv) => {
      ctx.code = await resumeHandler(argv as unknown as ResumeArgs & NotifyFlags, ctx.io);
    },
  );
}

/** `resq resume`: parse, find the batch, then the library's batch session joins it as one more worker. Returns the exit code. */
export async function resumeHandler(a: ResumeArgs & NotifyFlags, io: CliIo): Promise<number> {
  // Loaded when the command runs (see cli.ts).
  const [{ driveSession }, { openBatch }] = await Promise.all([import('../attach.js'), import('../open-batch.js')]);
  wholeNumber('concurrency', a.concurrency, 1, 10_000);
  wholeNumber('limit', a.limit, 1, Number.MAX_SAFE_INTEGER);
  const policy = a.policy ? await (await import('../../config/policy-file.js')).loadPolicyFile(a.policy) : undefined;
  const scorers = a.score !== undefined ? await (await import('../../score/scorers-file.js')).parseScorersFile(a.score) : null;
  // A PostgreSQL server starting up or restarting, or failing in passing later, is waited on, said on stderr.
  const { leaseMsFromEnv } = await import('../lease-env.js');
  const leaseMs = leaseMsFromEnv(io.env);
  const notifySettings = await import('../notify-settings.js');
  notifySettings.checkNotifyFlags(notifyFlagsOf(a), io.env);
  const { batchSentNothing: sentNothing } = await import('../../runner/sent-nothing.js');
  const { store, batch } = await openBatch(a.db, a.batch, 'runs', { onWait: (m) => io.stderr.write(`${m}\n`), ...(leaseMs !== undefined ? { leaseMs } : {}) });
  try {
    const notify = notifySettings.notifyFromFlags(notifyFlagsOf(a), io.env, batch.settings.notify);
    const overrides: Overrides = {
      ...(notify ? { notify } : {}),
      ...(a.concurrency !== undefined ? { concurrency: a.concurrency } : {}),
      ...(policy !== undefined ? { policy } : {}),
      ...(scorers ? { scorers } : {}),
      ...(a.baseUrl !== undefined ? { baseUrl: a.baseUrl } : {}),
    };
    // A --sim batch resumes on the simulator whose state was kept beside the database; one that
    // sent nothing yet (a dry run) has no runs to lose, and starts its simulator state now.
    const service = { sim: a.sim, baseUrl: a.baseUrl, simStateMustExist: batch.settings.service === 'sim' && !(await sentNothing(store, batch.id)) };
    return await driveSession({
      store,
      dbPath: a.db,
      json: a.json,
      io,
      service,
      session: {
        batch,
        overrides,
        ...(a.out !== undefined ? { out: resolve(a.out) } : {}),
        ...(a.limit !== undefined ? { limit: a.limit } : {}),
        wait: a.wait,
        notify: sendOptionsFromEnv(io.env, leaseMs, notifySettings.notifyCommandOf(a), a.db),
        scorers,
      },
    });
  } finally {
    await store.close();
  }
}
