import type { SimClock } from './clock.js';
import type { CounterBook } from './counters.js';
import type { FaultPlan } from './faults.js';
import type { RequestLedger } from './ledger.js';
import type { SimJournal } from './journal.js';
import type { ModelJobs } from './model-jobs.js';
import type { RunEngine } from './run-engine.js';
import type { SimStore } from './store.js';
import type { TimerSet } from './timers.js';
import type { SimOptions } from './types.js';

/** Options with every default filled in. */
export type ResolvedOptions = Required<SimOptions>;

/** Everything the route handlers share. */
export interface SimDeps {
  opts: ResolvedOptions;
  store: SimStore;
  engine: RunEngine;
  models: ModelJobs;
  counters: CounterBook;
  clock: SimClock;
  timers: TimerSet;
  faults: FaultPlan;
  /** Requests per idempotency key, for GET /_sim/ledger. */
  ledger: RequestLedger;
  /** The state file's journal (null without a state file): acknowledged changes are written there before the reply. */
  journal: SimJournal | null;
  /** Base URL ending in /api/v1. */
  baseUrl(): string;
  /** Scheme, host and port. */
  origin(): string;
}

/** Fills in the defaults of {@link SimOptions}. */
export function resolveOptions(o: SimOptions = {}): ResolvedOptions {
  return {
    port: o.port ?? 0,
    host: o.host ?? '127.0.0.1',
    keys: o.keys ?? { 'sim-key-alice': 'alice', 'sim-key-bob': 'bob' },
    defaultDurationMs: o.defaultDurationMs ?? 300,
    runTimes: o.runTimes ?? true,
    streamMaxMs: o.streamMaxMs ?? 120_000,
    keepAliveMs: o.keepAliveMs ?? 15_000,
    maxRunningPerAccount: o.maxRunningPerAccount ?? Number.POSITIVE_INFINITY,
    modelJobMs: o.modelJobMs ?? 2_000,
    seed: o.seed ?? 1,
    statePath: o.statePath ?? null,
    serveState: o.serveState ?? false,
  };
}
