import type { Argv } from 'yargs';
import { ConfigError } from '../../errors.js';
import type { Policy } from '../../policy/index.js';
import { openService } from '../service.js';

/** Registers `resq resume`. */
export function resumeCommand(y: Argv): Argv {
  return y.command(
    'resume [batch]',
    'continue an interrupted batch (the newest when no name is given)',
    (a) =>
      a
        .positional('batch', { type: 'string', describe: 'batch name or id' })
        .option('base-url', { type: 'string', describe: 'service base URL ending in /api/v1 (default $RESQ_BASE_URL)' })
        .option('sim', { type: 'boolean', describe: 'use the built-in simulator' }),
    async (argv) => {
      const a = argv as unknown as { batch?: string; db: string; json: boolean; baseUrl?: string; sim?: boolean };
      // Loaded when the command runs (see cli.ts).
      const [{ checkUnchanged }, { attachAndRun }, { openBatch }] = await Promise.all([
        import('../../runner/index.js'),
        import('../attach.js'),
        import('../open-batch.js'),
      ]);
      const { store, batch } = await openBatch(a.db, a.batch);
      try {
        await checkUnchanged(batch, batch.sourcePath);
        if (batch.settings.service === 'sim' && !a.baseUrl)
          throw new ConfigError(
            `batch ${batch.name} ran on the in-process simulator (--sim), whose runs ended with that process, ` +
              'so it cannot be resumed. For resumable runs without an account, serve the simulator with ' +
              '`resq sim` and pass its URL with --base-url.',
          );
        const service = await openService(
          { sim: a.sim ?? false, baseUrl: a.baseUrl ?? batch.baseUrl ?? null },
          { connections: Math.max(128, batch.settings.concurrency * 2 + batch.settings.download.concurrency + 16) },
        );
        try {
          process.exitCode = await attachAndRun({
            store,
            batch,
            service,
            policy: (batch.policy as Policy | null) ?? null,
            json: a.json,
            dbPath: a.db,
            outDir: batch.settings.download.out,
          });
        } finally {
          await service.close();
        }
      } finally {
        await store.close();
      }
    },
  );
}
