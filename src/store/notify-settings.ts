/**
 * Who a batch tells, and when: stored in the batch's settings (`settings.notify`) so every
 * worker on every machine, and `resq serve`, uses the same. Absent: the batch tells no one
 * (and no outbox rows are written for it). Never a secret (the signing secret is read from
 * RESQ_NOTIFY_SECRET by whoever sends), and never a program: a notify command is given to the
 * process that runs it, on its own command line, and is not stored.
 */
export interface NotifySettings {
  /** Receivers' URLs (POST), in the order given. */
  urls: string[];
  /** `json`: the event document; `slack`: a Slack incoming-webhook message. */
  format: 'json' | 'slack';
  /** Also send each held item's question and meta (never answer text, never a key). */
  includeQuestion: boolean;
  /** The web view's public address (links); null: no links. */
  pageUrl: string | null;
  /** At most one `items.held` digest per batch this often (ms). */
  digestMs: number;
  /** A reminder for items still held this long after their digest (ms); null: none. */
  remindMs: number | null;
  /** `batch.stalled` after no progress this long while items remain (ms); null: never. */
  stalledMs: number | null;
}

/**
 * A batch's settings as read from the database, without any `notify.command` in them: one an
 * older resq stored (dropped by migration 023) or one written into the row by anyone who can
 * write the database is never carried on, shown or run.
 */
export function withoutStoredCommand<T>(settings: T): T {
  const n = (settings as { notify?: unknown } | null)?.notify;
  if (n === null || typeof n !== 'object' || !('command' in n)) return settings;
  const { command: _dropped, ...rest } = n as Record<string, unknown>;
  return { ...settings, notify: rest };
}

/**
 * Settings given again over a batch's: with no URL among them (a worker's own
 * `--notify-command` alone, never stored), the batch's URLs stay.
 */
export function notifyOver(given: NotifySettings, was: NotifySettings | undefined): NotifySettings {
  return given.urls.length === 0 && was ? { ...given, urls: was.urls } : given;
}
