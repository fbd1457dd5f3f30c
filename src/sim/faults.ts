import type { Faults } from './types.js';
import { seededRandom } from './rng.js';

/** The default (no faults) settings. */
export function noFaults(): Faults {
  return {
    error5xxBefore: 0,
    error5xxAfter: 0,
    dropBefore: 0,
    dropAfter: 0,
    rate429: 0,
    retryAfterSeconds: 1,
    sseEndAfterEvents: null,
    latencyMs: 0,
    routes: null,
  };
}

/** What to do to a request before its handler runs. */
export type BeforeFault = 'rate429' | 'error5xxBefore' | 'dropBefore' | null;
/** What to do to a request after its handler did its side effect. */
export type AfterFault = 'error5xxAfter' | 'dropAfter' | null;

const PROBABILITIES = ['error5xxBefore', 'error5xxAfter', 'dropBefore', 'dropAfter', 'rate429'] as const;

/**
 * Checks a partial fault setting (from code or from POST /_sim/faults) and returns
 * a list of problems; empty when it is valid.
 */
export function faultProblems(f: unknown): string[] {
  if (typeof f !== 'object' || f === null || Array.isArray(f)) return ['faults must be an object'];
  const problems: string[] = [];
  const known = new Set(Object.keys(noFaults()));
  for (const [k, v] of Object.entries(f)) {
    if (!known.has(k)) problems.push(`unknown fault '${k}'`);
    else if ((PROBABILITIES as readonly string[]).includes(k)) {
      if (typeof v !== 'number' || !(v >= 0 && v <= 1)) problems.push(`${k} must be a probability between 0 and 1`);
    } else if (k === 'sseEndAfterEvents') {
      if (v !== null && !(Number.isInteger(v) && (v as number) >= 0)) problems.push(`${k} must be null or an integer >= 0`);
    } else if (k === 'routes') {
      if (v !== null && !(Array.isArray(v) && v.every((r) => typeof r === 'string'))) problems.push(`${k} must be null or an array of route keys`);
    } else if (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v)) problems.push(`${k} must be a number >= 0`);
  }
  return problems;
}

/** Holds the fault settings and draws from the seeded generator. */
export class FaultPlan {
  #faults = noFaults();
  #random: () => number;

  constructor(seed: number) {
    this.#random = seededRandom(seed);
  }

  /** Merges a partial setting; throws a RangeError naming every bad field. */
  set(f: Partial<Faults>): void {
    const problems = faultProblems(f);
    if (problems.length) throw new RangeError(`invalid faults: ${problems.join('; ')}`);
    this.#faults = { ...this.#faults, ...f, routes: f.routes === undefined ? this.#faults.routes : f.routes ? [...f.routes] : null };
  }

  /** A copy of the current settings. */
  get(): Faults {
    return { ...this.#faults, routes: this.#faults.routes ? [...this.#faults.routes] : null };
  }

  /** Back to no faults. */
  clear(): void {
    this.#faults = noFaults();
  }

  /** The fault, if any, to inject before the handler of `routeKey` runs. */
  drawBefore(routeKey: string): BeforeFault {
    if (!this.#applies(routeKey)) return null;
    if (this.#hit(this.#faults.rate429)) return 'rate429';
    if (this.#hit(this.#faults.error5xxBefore)) return 'error5xxBefore';
    if (this.#hit(this.#faults.dropBefore)) return 'dropBefore';
    return null;
  }

  /** The fault, if any, to inject after the handler of `routeKey` did its work. */
  drawAfter(routeKey: string): AfterFault {
    if (!this.#applies(routeKey)) return null;
    if (this.#hit(this.#faults.error5xxAfter)) return 'error5xxAfter';
    if (this.#hit(this.#faults.dropAfter)) return 'dropAfter';
    return null;
  }

  /** One of 500, 502, 503, chosen by the seeded generator. */
  draw5xx(): 500 | 502 | 503 {
    const r = this.#random();
    return r < 1 / 3 ? 500 : r < 2 / 3 ? 502 : 503;
  }

  #applies(routeKey: string): boolean {
    return this.#faults.routes === null || this.#faults.routes.includes(routeKey);
  }

  #hit(p: number): boolean {
    // No draw for a zero probability, so switching one fault on does not reshuffle others' sequence.
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.#random() < p;
  }
}
