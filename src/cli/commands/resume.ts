import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import type { Policy } from '../../policy/index.js';
import { applyOverrides, type Overrides } from '../batch-overrides.js';
import type { CommandContext } from '../cli.js';
import type { CliIo } from '../io.js';
import { wholeNumber } from '../whole-number.js';

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
}

/** Registers `resq resume`. */
export function resumeCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'resume [batch]',
    'continue a batch, or join it from another process or machine (the newest when no name is given)',
    (a) =>
      a
        .positional('batch', { type: 'string', describe: 'batch name or id' })
        .option('base-url', { type: 'string', describe: 'service base URL ending in /api/v1 (default: the batch\'s, else $RESQ_BASE_URL)' })
        .option('sim', { type: 'boolean', describe: 'use the built-in simulator' })
        .option('concurrency', { type: 'number', describe: 'most runs in flight over all workers (default: the batch\'s)' })
        .option('policy', { type: 'string', describe: 'replace the batch\'s auto-answer policy' })
        .option('out', { type: 'string', describe: 'folder for this worker\'s downloads (default: the batch\'s)' })
        .option('limit', { type: 'number', describe: 'submit only the next N queued items now' })
        .option('wait', { type: 'boolean', default: true, describe: 'when nothing is left to claim, wait for other workers (--no-wait: leave)' }),
    async (argv) => {
      ctx.code = await resumeBatchCommand(argv as unknown as ResumeArgs, ctx.io);
    },
  );
}

/** `resq resume`: finds the batch, applies overrides, joins it as one more worker. Returns the exit code. */
export async function resumeBatchCommand(a: ResumeArgs, io: CliIo): Promise<number> {
  // Loaded when the command runs (see cli.ts).
  const [{ checkUnchanged }, { attachWithService }, { openBatch }] = await Promise.all([
    import('../../runner/load-batch.js'),
    import('../attach.js'),
    import('../open-batch.js'),
  ]);
  wholeNumber('concurrency', a.concurrency, 1, 10_000);
  wholeNumber('limit', a.limit, 1, Number.MAX_SAFE_INTEGER);
  const policy = a.policy ? await (await import('../../config/policy-file.js')).loadPolicyFile(a.policy) : undefined;
  const { store, batch: found } = await openBatch(a.db, a.batch);
  try {
    await checkUnchanged(found, found.sourcePath);
    const overrides: Overrides = {
      ...(a.concurrency !== undefined ? { concurrency: a.concurrency } : {}),
      ...(policy !== undefined ? { policy } : {}),
      ...(a.out !== undefined ? { out: resolve(a.out) } : {}),
      ...(a.baseUrl !== undefined ? { baseUrl: a.baseUrl } : {}),
    };
    const merged = applyOverrides(found, overrides);
    if (merged.changes.length > 0) await store.updateBatchSettings(found.id, merged.settings, merged.policy, merged.baseUrl);
    const batch = (await store.findBatch(found.id)) ?? found;
    if (!a.json) for (const c of merged.changes) io.stderr.write(`${c}\n`);
    // A --sim batch resumes on the simulator whose state was kept beside the database.
    const sim = a.sim ?? (!merged.baseUrl && batch.settings.service === 'sim');
    return await attachWithService({
      store,
      batch,
      service: { sim, baseUrl: merged.baseUrl ?? null, simStateMustExist: sim && batch.settings.service === 'sim' },
      policy: (batch.policy as Policy | null) ?? null,
      json: a.json,
      dbPath: a.db,
      limit: a.limit,
      wait: a.wait,
      io,
    });
  } finally {
    await store.close();
  }
}
