// How resq reaches PostgreSQL through a connection pooler (PgBouncer in transaction pooling):
// read from the URL's own parameters. Pure: no driver loaded, so the CLI may use the hint.
import { InputError } from '../../errors.js';
import { oneLine } from '../../text/printable.js';

/** A PostgreSQL URL as resq connects with it. */
export interface PgTarget {
  /** The URL handed to the driver: resq's own parameters (`pooler`, `direct`) taken out. */
  url: string;
  /**
   * `?pooler=transaction`: each transaction may run on another server connection. No named
   * prepared statements, no startup parameters the pooler refuses, no session state
   * (settings are SET LOCAL, advisory locks per transaction), no LISTEN through it.
   */
  pooler: boolean;
  /** `?direct=HOST[:PORT]`: the same database, user and password on PostgreSQL itself, for LISTEN; else null. */
  directUrl: string | null;
}

/** The parameters resq reads from a PostgreSQL URL and does not hand to the driver. */
const OWN = ['pooler', 'direct'] as const;

/**
 * Reads resq's pooler parameters from a PostgreSQL URL: `pooler=transaction` (or `session`,
 * the same as none: a session pooler keeps a client's server connection) and
 * `direct=HOST[:PORT]`. A URL the WHATWG parser cannot read is handed on as it is.
 * @throws InputError for a `pooler` or `direct` value it does not know (one line, the URL not in it).
 */
export function parsePgTarget(url: string): PgTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url, pooler: false, directUrl: null };
  }
  const mode = u.searchParams.get('pooler');
  const direct = u.searchParams.get('direct');
  if (mode !== null && mode !== 'transaction' && mode !== 'session')
    throw new InputError(`--db: pooler=${oneLine(mode, 40)} is not a pooling mode resq knows: pooler=transaction (PgBouncer's pool_mode = transaction) or pooler=session`);
  for (const k of OWN) u.searchParams.delete(k);
  const clean = u.toString();
  if (direct === null) return { url: clean, pooler: mode === 'transaction', directUrl: null };
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(direct);
  if (!m || (m[2] !== undefined && (Number(m[2]) < 1 || Number(m[2]) > 65_535)))
    throw new InputError(`--db: direct=${oneLine(direct, 80)} is not HOST or HOST:PORT (PostgreSQL itself, behind the pooler: same database, user and password)`);
  const d = new URL(clean);
  d.hostname = m[1]!;
  d.port = m[2] ?? '5432';
  return { url: clean, pooler: mode === 'transaction', directUrl: d.toString() };
}

/** What PostgreSQL or PgBouncer says when resq speaks session-level PostgreSQL to a transaction pooler. */
const SYMPTOMS: ReadonlySet<string> = new Set(['42P05', '26000']);

/**
 * The hint for an error that shows a transaction pooler in front of a URL without
 * `pooler=transaction`: a named prepared statement found (42P05) or missing (26000) on a
 * server connection another client used, or a startup parameter PgBouncer refuses. Else null.
 */
export function poolerHint(err: unknown): string | null {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  const msg = err instanceof Error ? err.message : '';
  if (!SYMPTOMS.has(code) && !/unsupported startup parameter/i.test(msg)) return null;
  return 'is the database behind a pooler in transaction mode (PgBouncer)? Add ?pooler=transaction to the URL (README: "Several workers, several machines")';
}
