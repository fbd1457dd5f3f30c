/** Options of {@link startSim}. Every field is optional. */
export interface SimOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  port?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  host?: string;
  /** API key → account name. @default { 'sim-key-alice': 'alice', 'sim-key-bob': 'bob' } */
  keys?: Record<string, string>;
  /** Working time of each run when its question has no `@duration`. @default 300 */
  defaultDurationMs?: number;
  /**
   * Send run objects without their times (`created_at`, `finished_at`, `completed_at`,
   * `updated_at`), as a service that gives none would: resq then measures runs itself. @default true
   */
  runTimes?: boolean;
  /** An event stream closes by itself after this long (the spec's "a few minutes"). @default 120_000 */
  streamMaxMs?: number;
  /** Interval of `: keepalive` comment lines on event streams. @default 15_000 */
  keepAliveMs?: number;
  /** Runs in `running` per account above which POST /runs answers 429 `too_many_runs`. @default Infinity */
  maxRunningPerAccount?: number;
  /** Duration of background (GPU or `mode: async`) model jobs. @default 2_000 */
  modelJobMs?: number;
  /** Seed of the random generator that decides fault injection. @default 1 */
  seed?: number;
  /**
   * Keep the whole state in this JSON file: loaded at start when it exists (runs that were
   * going carry on, on the same port when it is free), saved when it changed (at most twice a
   * second; a large state less often) and on close. In between, each acknowledged change is appended to
   * `<statePath>.journal` before the reply, so a killed process loses none of them.
   * `resq … --sim` keeps it beside the database. @default null (memory only)
   */
  statePath?: string | null;
  /**
   * With `statePath`: write this simulator's URL and a key into the state file's lock, so
   * other `--sim` processes on the same database connect to it (`resq sim --db`). @default false
   */
  serveState?: boolean;
}

/** Fault injection settings; probabilities are 0..1 and drawn per request. */
export interface Faults {
  /** Answer 500/502/503 before doing anything. */
  error5xxBefore: number;
  /** Do the side effect (e.g. create the run), then answer 500: the answer is lost. */
  error5xxAfter: number;
  /** Destroy the socket without answering, before the side effect. */
  dropBefore: number;
  /** Do the side effect, then destroy the socket. */
  dropAfter: number;
  /** Answer 429 `rate_limited` with Retry-After. */
  rate429: number;
  /** Retry-After value (seconds) of injected 429s. @default 1 */
  retryAfterSeconds: number;
  /** Close every event stream after this many events, without a `run` event; null = off. */
  sseEndAfterEvents: number | null;
  /** Delay added before every /api/v1 response. */
  latencyMs: number;
  /** Route keys (e.g. `POST /runs`) the probabilistic faults apply to; null = every /api/v1 route. */
  routes: string[] | null;
}

/** What the simulator saw and did; a plain JSON-able snapshot. */
export interface SimCounters {
  /** Runs created by POST /runs (replays of an idempotency key are not counted). */
  runsAdmitted: number;
  /** Runs created by POST /runs/{id}/respond. */
  respondRuns: number;
  /** `<route key>|<idempotency key>` → runs created with it. */
  admissionsByKey: Record<string, number>;
  /** Question text → runs created by POST /runs for it. */
  admissionsByInput: Record<string, number>;
  /** Route key → requests, e.g. `GET /runs/:id`. */
  requestsByRoute: Record<string, number>;
  /** Account → most runs in `running` at the same time. */
  peakConcurrentRuns: Record<string, number>;
  /** Model runs created. */
  modelRunsAdmitted: number;
  /** Idempotency key → model runs created with it. */
  modelRunsByKey: Record<string, number>;
  /** Fault kind → times injected. */
  faultsInjected: Record<string, number>;
  /**
   * For each respond that created a run: ms from the answered run pausing (status
   * `requires_action`) to the respond request arriving. The latest 10,000, oldest first.
   */
  pauseToRespondMs: number[];
}

/** A running simulator. */
export interface Sim {
  /** Base URL ending in /api/v1. */
  url: string;
  /** Scheme, host and port, e.g. http://127.0.0.1:PORT. */
  origin: string;
  /** The valid API keys. */
  keys: string[];
  /** Fault injection controls. */
  faults: { set(f: Partial<Faults>): void; get(): Faults; clear(): void };
  /** The movable clock behind created_at and the 30-day file expiry. */
  clock: { now(): number; advance(ms: number): void };
  /** A snapshot of the counters. */
  counters(): SimCounters;
  /** Sets every counter back to zero. */
  resetCounters(): void;
  /** The simulator's own record of runs, idempotency keys and files (as GET /_sim/ledger gives it). */
  ledger(): SimLedger;
  /** Closes the server, every connection and stream, and clears every timer. */
  close(): Promise<void>;
}

/** A research run as the simulator recorded it. */
export interface LedgerRun {
  id: string;
  account: string;
  threadId: string;
  /** The question as POST /runs received it (the same for every run of a chain). */
  input: string;
  /** The run a respond answered to make this one; null for a run made by POST /runs. */
  parentId: string | null;
  /** The Idempotency-Key of the request that made it, or null when it carried none. */
  idempotencyKey: string | null;
  status: string;
  /** The files it made, in order. */
  fileIds: string[];
}

/** The requests that carried one idempotency key on one route. */
export interface LedgerKey {
  account: string;
  /** Method and concrete path, e.g. `POST /api/v1/runs/<id>/respond`. */
  scope: string;
  key: string;
  /** Requests with the key that reached the route (not those an injected fault answered first). */
  requests: number;
  /** The sha256 (hex) of each distinct body those requests carried, as received. */
  bodies: string[];
  /** The id of the run or model run the key made, or null when none was made. */
  madeId: string | null;
}

/** A file and the bytes GET /files/{id} serves for it. */
export interface LedgerFile {
  id: string;
  /** The research run that made it; null for a model run's file. */
  runId: string | null;
  /** sha256 (hex) of the exact bytes served. */
  sha256: string;
  /** Their length. */
  bytes: number;
}

/** What GET /_sim/ledger answers: the simulator's own record, in order of creation. */
export interface SimLedger {
  runs: LedgerRun[];
  keys: LedgerKey[];
  files: LedgerFile[];
}
