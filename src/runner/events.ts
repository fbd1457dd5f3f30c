import type { ItemState } from '../store/index.js';

/** Counts of a batch's items by state. */
export type StateCounts = Record<ItemState, number>;

/** What the runner reports while it works. The CLI renders these; tests and notebooks read them. */
export type RunnerEvent =
  | { type: 'start'; batch: string; batchId: string; total: number; counts: StateCounts; resumed: number }
  | { type: 'item'; id: string; state: ItemState; runId: string | null; detail?: string }
  | { type: 'decision'; id: string; tool: string; by: 'policy'; answer: Record<string, unknown> | null; reason: string }
  | { type: 'cap'; cap: number; reason: string }
  /**
   * Sent once, before any run, when the batch's concurrency needs more open files than this
   * process may hold: about `needed` for `concurrency`, `limit` allowed, so `runs` at once here.
   */
  | { type: 'descriptors'; concurrency: number; needed: number; limit: number; runs: number }
  | { type: 'retry-later'; id: string; delayMs: number; reason: string }
  | { type: 'warning'; message: string }
  /**
   * `ratePerS` and `etaS`: the batch's rate and ETA as `resq status` and the page read them (the
   * library's read model, src/read/rate.ts), null until known; the ETA leaves out `etaLeavesOut`
   * queued items that wait behind a held item of their thread.
   */
  | { type: 'progress'; counts: StateCounts; inFlight: number; cap: number; total: number; ratePerS: number | null; etaS: number | null; etaLeavesOut: number }
  | { type: 'end'; counts: StateCounts; interrupted: boolean; stalled: number; fatal: string | null }
  | { type: 'joined'; workerId: string; others: { id: string; host: string; pid: number }[] }
  | { type: 'waiting'; inFlight: number; workers: { id: string; host: string; pid: number }[] };
