import type { Argv } from 'yargs';
import type { NotifyFlags } from '../notify/settings.js';

/** The notification flags of `run`, `resume` and `models batch` (stored with the batch). */
export function notifyOptions<T>(y: Argv<T>): Argv<T> {
  return y
    .option('notify', { type: 'string', array: true, describe: 'POST each event (JSON) to this URL; repeat for several (stored with the batch)' })
    .option('notify-command', { type: 'string', describe: 'run this shell command for each event, its JSON on stdin' })
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

/** How this process sends (the secret from its environment only: never stored); `db`: the database, for the events' hints. */
export function sendOptionsFromEnv(env: NodeJS.ProcessEnv, leaseMs: number | undefined, db?: string): { secret: string | null; leaseMs?: number; db?: string } {
  return { secret: env.RESQ_NOTIFY_SECRET || null, ...(leaseMs !== undefined ? { leaseMs } : {}), ...(db ? { db } : {}) };
}
