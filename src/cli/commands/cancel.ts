import type { Argv } from 'yargs';
import type { CommandContext } from '../cli.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq cancel`. */
export interface CancelArgs {
  batch: string;
  db: string;
  json: boolean;
  sim?: boolean;
  baseUrl?: string;
  cancelRoute?: string;
}

/** What `resq cancel` did. */
export interface CancelReport {
  batch: string;
  /** Queued items that will never be sent. */
  queued: number;
  /** Runs in flight cancelled at the service. */
  cancelled: string[];
  /** Runs the service would not cancel (no cancel route): they finish on their own. */
  left: string[];
  /** Why runs were left, when they were. */
  reason: string | null;
}

/**
 * `resq cancel BATCH`: nothing queued is sent any more (state `cancelled`); workers attached
 * to the batch, on any machine, see it at their next heartbeat, stop admitting and leave;
 * runs in flight are cancelled at the service. A service without a cancel route (404, 405)
 * is said plainly and those runs are left to finish.
 */
export async function cancelBatch(a: CancelArgs, io: CliIo): Promise<number> {
  const [{ openBatch }, { openService }, { CancelUnsupportedError }] = await Promise.all([
    import('../open-batch.js'),
    import('../service.js'),
    import('../../api/errors.js'),
  ]);
  const { store, batch } = await openBatch(a.db, a.batch);
  try {
    const queued = await store.cancelBatch(batch.id);
    const report: CancelReport = { batch: batch.name, queued, cancelled: [], left: [], reason: null };
    const inFlight = await store.listItems(batch.id, { states: ['submitting', 'running', 'waiting'] });
    const withRun = inFlight.filter((it) => it.state === 'running' && it.runId);
    if (withRun.length > 0) {
      const sim = a.sim ?? (!a.baseUrl && batch.settings.service === 'sim');
      const service = await openService({ sim, baseUrl: sim ? null : (a.baseUrl ?? batch.baseUrl ?? null) }, { env: io.env, dbPath: a.db });
      try {
        const route = a.cancelRoute ?? batch.settings.cancelRoute ?? undefined;
        const now = Date.now();
        for (const it of withRun) {
          if (report.reason) {
            report.left.push(it.runId!);
            continue;
          }
          try {
            await service.client.cancelRun(it.runId!, route ? { route } : {});
            report.cancelled.push(it.runId!);
            // Held by no live worker: nobody else will record its end.
            if (it.owner === null || (it.leaseUntil ?? 0) < now) await store.markCancelled(batch.id, it.id);
          } catch (e) {
            if (!(e instanceof CancelUnsupportedError)) throw e;
            report.reason = e.message;
            report.left.push(it.runId!);
          }
        }
      } finally {
        await service.close();
      }
    }
    // Unsent answers and unknown submissions of no live worker: nothing more goes out for them.
    for (const it of inFlight)
      if (!(it.state === 'running' && it.runId) && (it.owner === null || (it.leaseUntil ?? 0) < Date.now())) await store.markCancelled(batch.id, it.id);
    if (a.json) io.stdout.write(`${JSON.stringify({ type: 'cancel', ...report })}\n`);
    else {
      io.stdout.write(`batch ${batch.name} cancelled: ${queued} queued item${queued === 1 ? '' : 's'} will not be sent; ${report.cancelled.length} run${report.cancelled.length === 1 ? '' : 's'} in flight cancelled at the service\n`);
      if (report.left.length > 0)
        io.stdout.write(`${report.left.length} run(s) left to finish on their own: ${report.reason} (give the route with --cancel-route, or cancel_route in the pipeline)\n`);
      io.stdout.write('workers attached to the batch stop admitting at their next heartbeat; `resq retry BATCH --items …` runs cancelled items again\n');
    }
    return report.left.length > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    await store.close();
  }
}

/** Registers `resq cancel`. */
export function cancelCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'cancel <batch>',
    'send nothing more from a batch and cancel its runs in flight at the service',
    (a) =>
      a
        .positional('batch', { type: 'string', demandOption: true })
        .option('sim', { type: 'boolean', describe: 'use the built-in simulator' })
        .option('base-url', { type: 'string', describe: 'service base URL (default: the batch\'s)' })
        .option('cancel-route', { type: 'string', describe: 'where runs are cancelled, {id} for the run id (default /runs/{id}/cancel, or the pipeline\'s cancel_route)' }),
    async (argv) => {
      ctx.code = await cancelBatch(argv as unknown as CancelArgs, ctx.io);
    },
  );
}
