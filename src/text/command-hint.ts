import { isPostgresUrl } from './postgres-url.js';
import { shellLine } from './shell-quote.js';

// The one builder of the commands resq suggests (CLI messages and summaries, the JSON API's
// `next` and hints, the page, notifications): each one pasteable as it is shown.

/** The database a command uses when neither `--db` nor RESQ_DB names one. */
export const DEFAULT_DB = 'resq.db';

/** Where a suggested command must run: the flags that make it act on the same batch. */
export interface HintPlace {
  /** The database as the process was given it; `--db PATH` is added unless it is the default (or a URL). */
  db?: string | null | undefined;
  /**
   * Add `--sim`: the command must be told to use the built-in simulator (only for commands that
   * take the flag). A batch stored as a simulator batch resumes on it by itself, so its resume
   * hints leave the flag out. @default false
   */
  sim?: boolean | undefined;
}

/**
 * A command to suggest, pasteable: `argv` (e.g. `['resq', 'show', batch, item]`) with `--db PATH`
 * when the database is not the default one and `--sim` when the command needs it, every word quoted for a
 * POSIX shell by {@link shellLine} (a batch named `two words;x` stays one word; no control
 * character reaches a terminal). A postgres:// URL is never added (it may hold a password):
 * such a hint relies on RESQ_DB, as the README says.
 */
export function commandHint(argv: readonly string[], place: HintPlace = {}): string {
  return shellLine([...argv, ...hintFlags(place)]);
}

/** The flags {@link commandHint} adds, as words: `--db PATH` and `--sim` where needed. */
export function hintFlags(place: HintPlace): string[] {
  const db = place.db;
  const flags = db && db !== DEFAULT_DB && !isPostgresUrl(db) ? ['--db', db] : [];
  return place.sim ? [...flags, '--sim'] : flags;
}
