// Which service a batch talks to, decided by one rule for every command and the page. Pure:
// it opens nothing and reads no environment of its own (the caller passes RESQ_BASE_URL).

/** What a batch recorded about its service. */
export interface StoredService {
  /** `sim`: the batch ran on the built-in simulator. */
  settings: { service?: 'sim' | 'url' | null };
  /** The base URL stored with the batch, or null. */
  baseUrl: string | null;
}

/** Where a choice may come from, strongest first. */
export interface ServiceSources {
  /** `--sim` as given; undefined: the batch's own choice. */
  sim?: boolean | undefined;
  /** `--base-url` as given. */
  baseUrl?: string | null | undefined;
  /** RESQ_BASE_URL from the environment. */
  envBaseUrl?: string | null | undefined;
  /** The batches the command works on (their stored service); none for a command without one. */
  batches?: readonly StoredService[];
  /** A new batch's URL from its pipeline (the stored URL it will have). */
  planned?: string | null | undefined;
}

/** The service chosen, and why. */
export interface ServiceChoiceResult {
  sim: boolean;
  /** The base URL to use (null with `sim`, or when nothing names one). */
  baseUrl: string | null;
  /** Which source gave it. */
  from: 'sim' | 'flag' | 'env' | 'stored' | 'none';
  /** The stored URL RESQ_BASE_URL was preferred to, when they differ (to say so), else null. */
  overrides: string | null;
}

const trimmed = (u: string): string => u.replace(/\/+$/, '');

/**
 * The one rule: `--sim`, or a batch that ran on the simulator when no `--base-url` is given;
 * else `--base-url`, then RESQ_BASE_URL, then the batch's stored URL (several batches with
 * different stored URLs name none). A choice of nothing is left to the caller to refuse.
 */
export function chooseService(s: ServiceSources): ServiceChoiceResult {
  const batches = s.batches ?? [];
  const flag = s.baseUrl || null;
  const sim = s.sim ?? (!flag && batches.length > 0 && batches.some((b) => b.settings.service === 'sim'));
  if (sim) return { sim: true, baseUrl: null, from: 'sim', overrides: null };
  const storedUrls = [...new Set(batches.map((b) => b.baseUrl).filter((u): u is string => !!u))];
  const stored = storedUrls.length === 1 ? storedUrls[0]! : (s.planned ?? null);
  if (flag) return { sim: false, baseUrl: flag, from: 'flag', overrides: null };
  const env = s.envBaseUrl || null;
  if (env) return { sim: false, baseUrl: env, from: 'env', overrides: stored && trimmed(env) !== trimmed(stored) ? stored : null };
  if (stored) return { sim: false, baseUrl: stored, from: 'stored', overrides: null };
  return { sim: false, baseUrl: null, from: 'none', overrides: null };
}

/** The sentence that says RESQ_BASE_URL is used instead of a batch's stored URL. */
export function overrideNote(c: ServiceChoiceResult): string | null {
  return c.from === 'env' && c.overrides && c.baseUrl ? `RESQ_BASE_URL (${c.baseUrl}) is used, not the batch's stored base URL (${c.overrides})` : null;
}
