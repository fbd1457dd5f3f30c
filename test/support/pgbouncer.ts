import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, type PgServer } from './pg-server.js';

/**
 * A real PgBouncer (Debian's `pgbouncer`, 1.18) in front of a test PostgreSQL, in transaction
 * pooling: its own config in a temp dir, trust authentication, a free loopback port, few
 * server connections (so clients share them, as behind a busy pooler). It refuses to run as
 * root, so as root (CI) it runs as the `postgres` user through runuser, like the server.
 */

const exec = promisify(execFile);

/** Where Debian's `pgbouncer` package puts the program. */
export const PGBOUNCER_BIN = '/usr/sbin/pgbouncer';

/** Whether Debian's PgBouncer is installed. */
export function pgbouncerAvailable(): boolean {
  return existsSync(PGBOUNCER_BIN);
}

export interface PgBouncer {
  port: number;
  /** The URL of database `db` through the pooler (as PostgreSQL's `urlOf` gives it, other port). */
  urlOf(db: string): string;
  /** The pooler's log (what it refused, which client it cut off). */
  log(): string;
  /** Stops the pooler (its pid, from its pidfile) and removes its directory. */
  stop(): Promise<void>;
}

const asRoot = (): boolean => process.getuid?.() === 0;

/** Whether something accepts connections on the loopback port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

/** Options of {@link startPgBouncer}. */
export interface PgBouncerOptions {
  /** Server connections per database and user. @default 4 */
  poolSize?: number;
  /** Startup parameters it lets through unapplied (Debian's default: none, so any it does not know ends the login). @default [] */
  ignoreStartupParameters?: readonly string[];
}

/**
 * Starts PgBouncer in transaction pooling before `pg`; resolves once it accepts connections.
 * The caller must `stop()` it.
 */
export async function startPgBouncer(pg: Pick<PgServer, 'port'>, o: PgBouncerOptions = {}): Promise<PgBouncer> {
  if (!pgbouncerAvailable()) throw new Error(`PgBouncer is not installed (${PGBOUNCER_BIN}); apt-get install pgbouncer`);
  const dir = mkdtempSync(join(tmpdir(), 'resq-pgbouncer-'));
  const port = await freePort();
  const file = (name: string): string => join(dir, name);
  writeFileSync(file('userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    file('pgbouncer.ini'),
    [
      '[databases]',
      `* = host=127.0.0.1 port=${pg.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${file('userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${o.poolSize ?? 4}`,
      'max_client_conn = 500',
      // Every test database is a pool of its own: idle server connections of others are closed
      // for a new one past this, so the test server's 100 connections are never all taken.
      'max_user_connections = 30',
      ...(o.ignoreStartupParameters?.length ? [`ignore_startup_parameters = ${o.ignoreStartupParameters.join(', ')}`] : []),
      `logfile = ${file('pgbouncer.log')}`,
      `pidfile = ${file('pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  if (asRoot()) {
    const uid = Number((await exec('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await exec('id', ['-g', 'postgres'])).stdout.trim());
    for (const f of ['', 'userlist.txt', 'pgbouncer.ini']) chownSync(join(dir, f), uid, gid);
  }
  // -d: it forks and writes its pidfile; stop() ends that pid, nothing found by name.
  const argv = ['-d', file('pgbouncer.ini')];
  const [cmd, args] = asRoot() ? ['runuser', ['-u', 'postgres', '--', PGBOUNCER_BIN, ...argv]] : [PGBOUNCER_BIN, argv];
  const log = (): string => (existsSync(file('pgbouncer.log')) ? readFileSync(file('pgbouncer.log'), 'utf8') : '');
  const pid = (): number | null => (existsSync(file('pgbouncer.pid')) ? Number(readFileSync(file('pgbouncer.pid'), 'utf8').trim()) || null : null);
  const stop = async (): Promise<void> => {
    const p = pid();
    if (p) {
      try {
        process.kill(p, 'SIGTERM');
      } catch {
        // already gone
      }
      for (let i = 0; i < 100 && (await accepts(port)); i++) await new Promise((r) => setTimeout(r, 50));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await exec(cmd, args, { timeout: 30_000 });
    for (let i = 0; !(await accepts(port)); i++) {
      if (i >= 200) throw new Error(`PgBouncer did not listen on ${port}:\n${log()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { port, urlOf: (db) => `postgres://postgres@127.0.0.1:${port}/${db}`, log, stop };
}
