import type { Argv } from 'yargs';
import type { NotifyFlags } from './notify-settings.js';

/** The notification flags of `run`, `resume` and `models batch` (stored with the batch, but the command: this process's own). */
export function notifyOptions<T>(y: Argv<T>): Argv<T> {
  return y
    .option('notify', { type: 'string', array: true, describe: 'POST each event (JSON) to this URL; repeat for several (stored with the batch)' })
    .option('notify-command', { type: 'string', describe: 'run this shell command for each event this process sends, its JSON on stdin (not stored: give it to each worker that should run it)' })
    .option('notify-format', { choices: ['json', 'slack'] as const, describe: 'json (default) or slack (an incoming-webhook message)' })
    .option('notify-include', { type: 'string', array: true, describe: '"question": also send held items\' question and meta' })
    .option('notify-digest', { type: 'string', describe: 'at most one held-items digest per batch this often (default 5m)' })
    .option('notify-remind', { type: 'string', describe: 'remind of items still held after this long (default 1h; off)' })
    .option('notify-stalled', { type: 'string', describe: 'tell when the batch made no progress this long (default 15m; off)' })
    .option('page-url', { type: 'string', describe: 'public address of the team\'s web view, for links (default $RESQ_PAGE_URL)' }) as Argv<T>;
}

/** The flags as yargs parsed them. */
export function notifyFlagsOf(a: NotifyFlags): NotifyFlags {
  return {
    notify: a.notify,
    notifyCommand: a.notifyCommand,
    notifyFormat: a.notifyFormat,
    notifyInclude: a.notifyInclude,
    notifyDigest: a.notifyDigest,
    notifyRemind: a.notifyRemind,
    notifyStalled: a.notifyStalled,
    pageUrl: a.pageUrl,
  };
}

/**
 * How this process sends: the secret from its environment, `command`, the notify command its
 * own command line gave it (a worker's; `resq serve` gives none; neither is ever stored), and
 * `db`, the database, for the events' hints.
 */
export function sendOptionsFromEnv(env: NodeJS.ProcessEnv, leaseMs: number | undefined, command: string | null = null, db?: string): { secret: string | null; command: string | null; leaseMs?: number; db?: string } {
  return { secret: env.RESQ_NOTIFY_SECRET || null, command, ...(leaseMs !== undefined ? { leaseMs } : {}), ...(db ? { db } : {}) };
}
