import type { BatchRecord, BatchSettings, NotifySettings } from '../store/index.js';
import type { ScorerSpec } from '../score/types.js';
import { scorersForStore } from '../score/scorer-specs.js';
import { describeReceivers } from '../read/receivers.js';
import { notifyOver } from '../store/notify-settings.js';

/** What a later `run` or `resume` gave again on the command line (or in its pipeline). */
export interface Overrides {
  concurrency?: number;
  follow?: 'sse' | 'poll';
  /** Only a turned-off download is an override (downloading is the default). */
  download?: false;
  /** The policy given again; `undefined` keeps the batch's. */
  policy?: unknown;
  baseUrl?: string | null;
  /** Receivers and their settings given again; `undefined` keeps the batch's. */
  notify?: NotifySettings;
  /** The scorers given again (`--score`); `undefined` keeps the batch's. */
  scorers?: ScorerSpec[];
}

/** The settings a batch goes on with, and one line per change. */
export interface Merged {
  settings: BatchSettings;
  policy: unknown;
  baseUrl: string | null;
  changes: string[];
}

function describePolicy(p: unknown): string {
  if (p == null) return 'none (every pause held)';
  const tools = Object.keys(p as object);
  return tools.length ? `rules for ${tools.join(', ')}` : 'empty';
}

/**
 * A batch keeps what it was started with (policy, concurrency, base URL, follow mode,
 * download); a flag given again overrides it. The out folder is not among them: a worker's
 * own `--out` is its own (several workers of one batch each download where they run). Pure:
 * the caller records the result and reports the changes.
 */
export function applyOverrides(batch: Pick<BatchRecord, 'settings' | 'policy' | 'baseUrl'>, o: Overrides): Merged {
  const was = batch.settings;
  const settings: BatchSettings = { ...was, download: { ...was.download } };
  const changes: string[] = [];
  if (o.concurrency !== undefined && o.concurrency !== was.concurrency) {
    changes.push(`concurrency: ${was.concurrency} → ${o.concurrency}`);
    settings.concurrency = o.concurrency;
  }
  if (o.follow !== undefined && o.follow !== was.follow) {
    changes.push(`follow: ${was.follow} → ${o.follow}`);
    settings.follow = o.follow;
  }
  if (o.download === false && was.download.enabled) {
    changes.push('download: on → off');
    settings.download.enabled = false;
  }
  const notify = o.notify && notifyOver(o.notify, was.notify);
  if (notify !== undefined && JSON.stringify(notify) !== JSON.stringify(was.notify)) {
    // Said without the receivers' paths (a webhook's path is often its secret).
    changes.push(`notify: ${describeReceivers(was.notify)} → ${describeReceivers(notify)}`);
    settings.notify = notify;
  }
  const named = (s: readonly ScorerSpec[] | undefined): string => (s?.length ? s.map((x) => x.name).join(', ') : 'none');
  const scorers = o.scorers === undefined ? undefined : scorersForStore(o.scorers);
  if (scorers !== undefined && JSON.stringify(scorers) !== JSON.stringify(was.scorers)) {
    changes.push(`scorers: ${named(was.scorers)} → ${named(scorers)}`);
    settings.scorers = scorers;
  }
  let policy = batch.policy;
  if (o.policy !== undefined && JSON.stringify(o.policy) !== JSON.stringify(batch.policy)) {
    changes.push(`policy: replaced (was ${describePolicy(batch.policy)}; now ${describePolicy(o.policy)})`);
    policy = o.policy;
  }
  let baseUrl = batch.baseUrl;
  if (o.baseUrl !== undefined && o.baseUrl !== batch.baseUrl) {
    // A simulated batch has no URL of its own: it ran on `sim`.
    changes.push(`base URL: ${batch.baseUrl ?? (was.service === 'sim' ? 'sim' : '(none)')} → ${o.baseUrl ?? '(none)'}`);
    baseUrl = o.baseUrl;
  }
  return { settings, policy, baseUrl, changes };
}
