/**
 * Who a batch tells, and when: stored in the batch's settings (`settings.notify`) so every
 * worker on every machine, and `resq serve`, uses the same. Absent: the batch tells no one
 * (and no outbox rows are written for it). Never a secret (the signing secret is read from
 * RESQ_NOTIFY_SECRET by whoever sends).
 */
export interface NotifySettings {
  /** Receivers' URLs (POST), in the order given. */
  urls: string[];
  /** A shell command given each event's JSON on stdin, or null. */
  command: string | null;
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

/** The receivers in words, never their URLs' paths: `2 URLs (hooks.slack.com, 127.0.0.1:8080) and a command, json`. */
export function describeReceivers(n: NotifySettings | undefined): string {
  if (!n) return 'none';
  const hosts = n.urls.map((u) => new URL(u).host);
  const parts = [hosts.length ? `${hosts.length} URL${hosts.length === 1 ? '' : 's'} (${hosts.join(', ')})` : '', n.command ? 'a command' : ''].filter(Boolean);
  return `${parts.join(' and ')}, ${n.format}`;
}
