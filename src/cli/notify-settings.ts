import { InputError } from '../errors.js';
import type { NotifySettings } from '../store/notify-settings.js';
import { parseDuration } from './durations.js';

/** The defaults: a digest at most every 5 minutes, a reminder after an hour, a stall after 15 minutes. */
export const NOTIFY_DEFAULTS = { digestMs: 5 * 60_000, remindMs: 60 * 60_000, stalledMs: 15 * 60_000 } as const;

/** Notification flags as a command line gives them (all optional). */
export interface NotifyFlags {
  notify?: string | string[] | undefined;
  notifyCommand?: string | undefined;
  notifyFormat?: string | undefined;
  notifyInclude?: string | string[] | undefined;
  notifyDigest?: string | undefined;
  notifyRemind?: string | undefined;
  notifyStalled?: string | undefined;
  pageUrl?: string | undefined;
}

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** A receiver's URL: http or https, with a host; said without its path (a webhook's path is often its secret). */
export function checkReceiverUrl(flag: string, text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new InputError(`--${flag}: not a URL (expected http:// or https://…)`);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) throw new InputError(`--${flag}: expected an http:// or https:// URL, got ${u.protocol}`);
  if (u.username || u.password) throw new InputError(`--${flag}: a user name or password in the URL is not allowed (it would be stored with the batch)`);
  return u.toString();
}

/**
 * The notify command this process was given on its own command line (`--notify-command`), or
 * null. Never stored: it runs only in this process. Refuses an empty one.
 */
export function notifyCommandOf(f: Pick<NotifyFlags, 'notifyCommand'>): string | null {
  if (f.notifyCommand === undefined) return null;
  if (!f.notifyCommand.trim()) throw new InputError('--notify-command: give a command (it gets each event\'s JSON on stdin)');
  return f.notifyCommand;
}

/**
 * What the flags ask the batch to store, or undefined when they change nothing (a later
 * `resume` keeps the batch's). `--notify` replaces the stored URLs; `--notify-command` alone
 * keeps them (the command is this process's, not stored) and, on a batch that tells no one
 * yet, stores the settings with no URL so its events are written. `env` gives RESQ_PAGE_URL.
 * Refuses a bad URL, command, format, include or duration with one line naming the flag.
 */
export function notifyFromFlags(f: NotifyFlags, env: NodeJS.ProcessEnv, was?: NotifySettings): NotifySettings | undefined {
  const urls = list(f.notify).map((u) => checkReceiverUrl('notify', u));
  const command = notifyCommandOf(f);
  const tuned = [f.notifyFormat, f.notifyInclude, f.notifyDigest, f.notifyRemind, f.notifyStalled, f.pageUrl].some((v) => v !== undefined);
  if (urls.length === 0 && command === null && !was) {
    if (tuned) throw new InputError('--notify: give a receiver URL (or --notify-command) for the notification settings to apply to');
    return undefined;
  }
  if (urls.length === 0 && !tuned && was) return undefined;
  const format = f.notifyFormat ?? was?.format ?? 'json';
  if (format !== 'json' && format !== 'slack') throw new InputError(`--notify-format: expected json or slack, got "${format}"`);
  const include = list(f.notifyInclude);
  for (const i of include) if (i !== 'question') throw new InputError(`--notify-include: only "question" can be included, got "${i}"`);
  const pageText = f.pageUrl ?? env.RESQ_PAGE_URL;
  const pageUrl = pageText ? checkReceiverUrl(f.pageUrl !== undefined ? 'page-url' : 'page-url (RESQ_PAGE_URL)', pageText).replace(/\/+$/, '') : (was?.pageUrl ?? null);
  return {
    urls: urls.length > 0 ? urls : (was?.urls ?? []),
    format,
    includeQuestion: include.length > 0 || (f.notifyInclude === undefined && (was?.includeQuestion ?? false)),
    pageUrl,
    digestMs: f.notifyDigest !== undefined ? parseDuration('notify-digest', f.notifyDigest, false)! : (was?.digestMs ?? NOTIFY_DEFAULTS.digestMs),
    remindMs: f.notifyRemind !== undefined ? parseDuration('notify-remind', f.notifyRemind, true) : was ? was.remindMs : NOTIFY_DEFAULTS.remindMs,
    stalledMs: f.notifyStalled !== undefined ? parseDuration('notify-stalled', f.notifyStalled, true) : was ? was.stalledMs : NOTIFY_DEFAULTS.stalledMs,
  };
}

/**
 * The flags' own values checked (URLs, format, include, durations, page URL), before anything
 * is opened: `resume` merges them with the batch's stored settings only once it has read them,
 * and a bad value must be refused before the database is opened (or upgraded).
 */
export function checkNotifyFlags(f: NotifyFlags, env: NodeJS.ProcessEnv): void {
  notifyFromFlags(f, env, { urls: [], format: 'json', includeQuestion: false, pageUrl: null, ...NOTIFY_DEFAULTS });
}

