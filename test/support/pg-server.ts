import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { waitUntil } from './wait-until.js';

/**
 * A real, throwaway PostgreSQL 15 for tests: its own data directory in a temp dir, a free
 * loopback port, trust authentication, fsync off. Binaries from Debian's `postgresql`
 * package. The server refuses to run as root, so as root (CI) every command runs as the
 * `postgres` user through runuser and the temp dir is handed to that user.
 */

const exec = promisify(execFile);

/** Where Debian's `postgresql` package puts the server's binaries. */
export const PG_BIN = '/usr/lib/postgresql/15/bin';

/** Whether the PostgreSQL 15 server binaries are installed. */
export function pgAvailable(): boolean {
  return ['postgres', 'initdb', 'pg_ctl', 'createdb'].every((b) => existsSync(join(PG_BIN, b)));
}

export interface PgServer {
  /** URL of the `postgres` database. */
  url: string;
  port: number;
  /** The temp dir holding the data directory, socket and log (removed by stop). */
  dataDir: string;
  /**
   * Creates a database, empty or as a copy of `template` (a database nobody is connected to:
   * one a test migrated once, so each test's copy needs no migrations); returns its URL.
   */
  createDatabase(name: string, template?: string): Promise<string>;
  /** Runs psql with these arguments against the server (as the `postgres` user); returns stdout. */
  psql(args: readonly string[]): Promise<string>;
  /** Shuts the server down, keeping its data (a restart or an outage). */
  halt(): Promise<void>;
  /** Starts a halted server again on the same port; resolves once it accepts connections. */
  resume(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** What a test may do with a server it does not own (no halt, resume or stop of the server). */
export type PgClientSide = Pick<PgServer, 'url' | 'port' | 'createDatabase' | 'psql'>;

/** Options of {@link startPgServer}. */
export interface PgServerOptions {
  /** The server's `max_connections` (PostgreSQL's default, 100, when not given). */
  maxConnections?: number;
}

const asRoot = (): boolean => process.getuid?.() === 0;

/** Runs one of the server's binaries, as the `postgres` user when we are root. */
async function run(bin: string, args: readonly string[], timeoutMs = 60_000): Promise<string> {
  const [cmd, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, [...args]];
  try {
    // No stdin (CI has none; nothing here may prompt), a clean locale for initdb.
    const { stdout } = await exec(cmd, argv, {
      timeout: timeoutMs,
      env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8', PGTZ: 'UTC' },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (e) {
    const err = e as Error & { stderr?: string; stdout?: string };
    throw new Error(`${bin} ${args.join(' ')} failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`, { cause: e });
  }
}

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** `psql` from the server's own bin dir when there, else the one on PATH. */
function psqlBin(): string {
  const own = join(PG_BIN, 'psql');
  return existsSync(own) ? own : 'psql';
}

/** The client side of the server listening on this loopback port: URLs, createdb and psql. */
export function pgClientSide(port: number): PgClientSide {
  const urlOf = (db: string): string => `postgres://postgres@127.0.0.1:${port}/${db}`;
  return {
    url: urlOf('postgres'),
    port,
    createDatabase: async (name, template) => {
      // Over a connection rather than a createdb process: store suites make one per test.
      for (const n of [name, template ?? name])
        if (!/^[a-z_][a-z0-9_]*$/.test(n)) throw new Error(`test database name ${JSON.stringify(n)}: use lower-case letters, digits and _`);
      const admin = new pg.Client({ connectionString: urlOf('postgres') });
      await admin.connect();
      try {
        const sql = template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`;
        // A template's last session may still be ending on the server (its client closed
        // already): PostgreSQL refuses the copy until it is gone (55006), so it is asked again.
        await waitUntil(async () => {
          try {
            await admin.query(sql);
            return true;
          } catch (err) {
            if ((err as { code?: string }).code !== '55006') throw err;
            return false;
          }
        }, `template ${template} free to copy`, 10_000, 20);
      } finally {
        await admin.end();
      }
      return urlOf(name);
    },
    psql: (args) => run(psqlBin(), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-X', '-A', '-t', ...args]),
  };
}

/**
 * Starts a fresh server (initdb, pg_ctl start -w). About a second on a warm machine; the
 * caller must `stop()` it (afterAll).
 */
export async function startPgServer(o: PgServerOptions = {}): Promise<PgServer> {
  if (!pgAvailable()) throw new Error(`PostgreSQL 15 is not installed (${PG_BIN}); apt-get install postgresql`);
  const dir = mkdtempSync(join(tmpdir(), 'resq-pg-'));
  const data = join(dir, 'data');
  if (asRoot()) {
    const { stdout } = await exec('id', ['-u', 'postgres']);
    const { stdout: gid } = await exec('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  let started = false;
  let port = 0;
  const connections = o.maxConnections ? ` -c max_connections=${o.maxConnections}` : '';
  const optsOf = (p: number): string => `-p ${p} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off${connections}`;
  const start = (): Promise<string> => run(join(PG_BIN, 'pg_ctl'), ['-D', data, '-o', optsOf(port), '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start'], 90_000);
  const stopServer = async (): Promise<void> => {
    if (started) {
      started = false;
      await run(join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run(join(PG_BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'], 120_000);
    // A port found free may be taken before the server binds it: try a few.
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      try {
        await start();
        started = true;
        break;
      } catch (e) {
        if (attempt >= 2) throw e;
      }
    }
  } catch (e) {
    await stopServer();
    throw e;
  }
  return {
    ...pgClientSide(port),
    dataDir: dir,
    halt: async () => {
      if (!started) return;
      await run(join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      started = false;
    },
    resume: async () => {
      if (started) return;
      await start();
      started = true;
    },
    stop: stopServer,
  };
}
