import { createHash } from 'node:crypto';
import type { ClientLogEvent, ServiceClient } from '../api/index.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkBaseUrl } from '../base-url.js';
import { ConfigError } from '../errors.js';
import type { Sim } from '../sim/index.js';
import type { ServiceChoiceResult } from '../service-choice.js';
import { commandHint } from '../text/command-hint.js';
import { isPostgresUrl } from '../text/postgres-url.js';

/** Where requests go: the built-in simulator or a real base URL with the key from the environment. */
export interface ServiceChoice {
  sim?: boolean;
  baseUrl?: string | null;
  /** The base URL is the one stored with the batch (nothing given): a missing key is said for it. */
  storedBaseUrl?: boolean;
}

/** The library's choice ({@link chooseService}) as what {@link openService} takes. */
export function choiceFor(c: ServiceChoiceResult): ServiceChoice {
  return { sim: c.sim, baseUrl: c.baseUrl, ...(c.from === 'stored' ? { storedBaseUrl: true } : {}) };
}

/** An open connection to the service (and the simulator behind it, with --sim). */
export interface Service {
  client: ServiceClient;
  baseUrl: string;
  kind: 'sim' | 'url';
  /** Set by whoever wants the client's retries and reconnects (e.g. --json output). */
  onLog: ((e: ClientLogEvent) => void) | null;
  /** The simulator runs in this very process: each connection holds two of its open files. */
  sameProcess: boolean;
  /**
   * One cheap read (GET /threads) before anything is submitted or shown as in flight: an
   * unreachable service or a refused key is said at once, within the client's retries.
   */
  check(): Promise<void>;
  close(): Promise<void>;
}

function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, '@');
  }
}

/** Where `--sim` keeps the simulator's state for a database: beside it (a server's database: the working folder). */
export function simStatePath(dbPath: string): string | null {
  // A database on a server has no folder of its own: the state goes in the working folder, named for the database.
  if (isPostgresUrl(dbPath)) return `resq-sim-${createHash('sha256').update(withoutPassword(dbPath)).digest('hex').slice(0, 12)}.json`;
  return `${dbPath}.sim.json`;
}

/** Says that another process keeps this database's simulator, and how several processes share one. */
function simInUse(e: { holder: { pid: number; host: string }; statePath: string }, dbPath: string): ConfigError {
  const db = isPostgresUrl(dbPath) ? withoutPassword(dbPath) : dbPath;
  return new ConfigError(
    `the built-in simulator of ${db} is in use by another resq process (pid ${e.holder.pid} on ${e.holder.host}); ` +
      'two simulators on one state file would lose each other\'s runs. To work one --sim batch from several processes, ' +
      `serve its simulator in a terminal of its own: \`${commandHint(['resq', 'sim', '--db', db])}\`; every --sim process on that database then shares it. ` +
      `(If that process is gone from another host, remove ${e.statePath}.lock.)`,
  );
}

const HOW_TO =
  'Set RESQ_BASE_URL (the service base URL, ending in /api/v1) and RESQ_API_KEY, ' +
  'or pass --base-url URL; or add --sim to use the built-in simulator (no account needed).';

/** Checks a base URL by the one set of rules (src/base-url.ts). Returns it normalised. */
function baseUrlOf(raw: string): string {
  const r = checkBaseUrl(raw);
  if (!r.ok) throw new ConfigError(`base URL ${r.reason}. ${HOW_TO}`);
  return r.baseUrl;
}

/**
 * Decides where to send requests without opening anything: refuses to guess. No base
 * URL and no --sim is an error that says how to set them, never a silent fallback.
 */
export function resolveService(choice: ServiceChoice, env: NodeJS.ProcessEnv): { kind: 'sim' } | { kind: 'url'; baseUrl: string; apiKey: string } {
  if (choice.sim) return { kind: 'sim' };
  const raw = choice.baseUrl ?? env.RESQ_BASE_URL;
  if (!raw) throw new ConfigError(`no service configured. ${HOW_TO}`);
  const baseUrl = baseUrlOf(raw);
  const apiKey = env.RESQ_API_KEY;
  if (!apiKey && choice.storedBaseUrl)
    throw new ConfigError(`RESQ_API_KEY is not set: the batch runs on its stored base URL ${baseUrl}, which needs the API key in RESQ_API_KEY`);
  if (!apiKey) throw new ConfigError(`RESQ_API_KEY is not set. ${HOW_TO}`);
  return { kind: 'url', baseUrl, apiKey };
}

/** Opens the service: starts the in-process simulator for --sim. */
export async function openService(
  choice: ServiceChoice,
  opts: {
    connections?: number;
    env: NodeJS.ProcessEnv;
    /** The database in use: `--sim` keeps the simulator's state beside it (so a batch can resume). */
    dbPath?: string;
    /** Resuming a `--sim` batch: its simulator state must be there, or the runs are unknown. */
    simStateMustExist?: boolean;
  },
): Promise<Service> {
  const r = resolveService(choice, opts.env);
  // Loaded here, not at the top: checking a choice (and every command that never opens the
  // service) needs neither the client nor the simulator, and only --sim needs the simulator.
  const { ServiceClient } = await import('../api/index.js');
  let sim: Sim | null = null;
  let baseUrl: string;
  let apiKey: string;
  if (r.kind === 'sim') {
    const { startSim, sharedSim, SimStateInUseError } = await import('../sim/index.js');
    // Beside the database, the simulator's runs outlive this process: Ctrl-C, `resq answer`,
    // then `resq resume --sim` finds them where they were.
    // Only beside a database that exists: `resq threads list --sim` in an empty folder leaves nothing behind.
    const statePath = opts.dbPath && (isPostgresUrl(opts.dbPath) || existsSync(opts.dbPath)) ? simStatePath(opts.dbPath) : null;
    if (opts.simStateMustExist && (!statePath || !existsSync(statePath)))
      throw new ConfigError(
        `the batch ran on the built-in simulator, but its state (${statePath ? resolve(statePath) : 'beside the database'}) is not there, ` +
          // A server's database keeps it in the folder its --sim processes ran in: said, so a worker started elsewhere knows where to go.
          `so its runs are unknown${opts.dbPath && isPostgresUrl(opts.dbPath) ? ' (a PostgreSQL batch\'s simulator state is kept in the folder its --sim processes ran in: resume from there)' : ''}; ` +
          `start a new batch, or serve a simulator and pass its URL as --base-url: ${commandHint(['resq', 'sim'], { db: opts.dbPath })}`,
      );
    const shared = statePath ? sharedSim(statePath) : null;
    if (shared) {
      // `resq sim --db` serves this database's simulator: every --sim process shares it.
      ({ url: baseUrl, key: apiKey } = shared);
    } else {
      sim = await startSim(statePath ? { statePath } : {}).catch((e: unknown) => {
        throw e instanceof SimStateInUseError ? simInUse(e, opts.dbPath ?? '') : e;
      });
      baseUrl = sim.url;
      apiKey = sim.keys[0] ?? '';
    }
  } else {
    baseUrl = r.baseUrl;
    apiKey = r.apiKey;
  }
  const client = new ServiceClient({
    baseUrl,
    apiKey,
    connections: opts.connections ?? 128,
    onLog: (e) => service.onLog?.(e),
  });
  const service: Service = {
    client,
    baseUrl,
    kind: r.kind,
    onLog: null,
    sameProcess: sim !== null,
    check: async () => {
      await client.listThreads();
    },
    close: async () => {
      await client.close();
      await sim?.close();
    },
  };
  return service;
}
