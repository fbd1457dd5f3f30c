/** Options of {@link PollPlan}. */
export interface PollPlanOptions {
  /** Longest gap between reads of a running job: the interface's "every few seconds". @default 3000 */
  intervalMs?: number;
  /** Longest short gap, used around the expected end of a job (5 % of the expected duration, at least 50 ms, below this). @default 500 */
  stepMs?: number;
  /** First read of a job while no job has finished yet, and the earliest first read ever. @default 1000 */
  minFirstMs?: number;
  /** How many finished jobs the estimate remembers. @default 64 */
  window?: number;
}

/**
 * When to read running model jobs. Reading collects the result, so a job read late holds
 * its concurrency slot for nothing; reading often costs requests. The plan learns how
 * long the batch's jobs take (a low quantile of the age at which they were first seen
 * finished), reads each job first just before that age, then at gaps growing from a short
 * step to `intervalMs`. Before any job finished, the first read is at `minFirstMs` and the
 * gaps grow from `stepMs`, so long jobs settle at one read per `intervalMs` either way.
 * Pure arithmetic; the caller sleeps.
 */
export class PollPlan {
  readonly #interval: number;
  readonly #step: number;
  readonly #minFirst: number;
  readonly #window: number;
  readonly #ages: number[] = [];

  constructor(o: PollPlanOptions = {}) {
    this.#interval = o.intervalMs ?? 3000;
    this.#step = Math.min(o.stepMs ?? 500, this.#interval);
    this.#minFirst = Math.min(o.minFirstMs ?? 1000, this.#interval);
    this.#window = o.window ?? 64;
  }

  /** Expected age of a job when it finishes, or null before any finished. */
  get estimateMs(): number | null {
    if (this.#ages.length === 0) return null;
    const sorted = [...this.#ages].sort((a, b) => a - b);
    // A low quantile: with jobs of mixed lengths, reading the short ones late costs more than an early read.
    return sorted[Math.floor((sorted.length - 1) * 0.2)] ?? null;
  }

  /** The short gap: small against the jobs' length, so a finished job waits little for its read. */
  #currentStep(): number {
    const est = this.estimateMs;
    return est === null ? this.#step : Math.min(this.#step, Math.max(50, est * 0.05));
  }

  /** Wait before the first read of a job admitted `ageMs` ago. */
  firstDelay(ageMs: number): number {
    const est = this.estimateMs;
    const target = est === null ? this.#minFirst : Math.max(this.#minFirst, est - this.#currentStep());
    return Math.max(0, target - ageMs);
  }

  /** Gap after the `reads`-th read (1-based) that still saw the job running. */
  nextDelay(reads: number): number {
    return Math.min(this.#interval, this.#currentStep() * 1.5 ** Math.max(0, reads - 1));
  }

  /** Records the age at which a job admitted by this process was first seen finished. */
  observe(doneAgeMs: number): void {
    if (!Number.isFinite(doneAgeMs) || doneAgeMs < 0) return;
    this.#ages.push(doneAgeMs);
    if (this.#ages.length > this.#window) this.#ages.shift();
  }
}
