// The order a policy check replays a batch's pauses in: time as it happened. A pause reaches
// the policy when it came (a pause the policy decided: when that decision was made); a
// person's decision counts toward the spend only from when it was made.

/** What the order needs of a pause. */
export interface TimedPause {
  pausedAt?: string | null;
  decision: { by: 'policy' | 'person'; decidedAt?: string; seq?: number } | null;
}

/** One step of the replay: pause `index` reaches the policy (`arrive`), or a person's decision on it is made (`person`). */
export interface ReplayStep {
  kind: 'arrive' | 'person';
  index: number;
}

interface Keyed extends ReplayStep {
  ms: number;
  /** 0: a decision (ordered among decisions by `seq`), 1: a pause the policy did not decide, after the decisions of its instant. */
  rank: 0 | 1;
  seq: number;
}

const msOf = (iso: string | null | undefined): number => (iso ? Date.parse(iso) : Number.NaN);

/**
 * The steps of a replay in the order they happened: each pause's arrival, and each person's
 * decision at the time it was made. A pause the policy decided arrives with its decision (the
 * store's order of decisions breaks ties of time); one it did not decide arrives when it came,
 * after the decisions of that same instant. When a time is missing, the pauses are taken in the
 * order given, each person's decision with its pause.
 */
export function replaySteps(pauses: readonly TimedPause[]): ReplayStep[] {
  const keyed: Keyed[] = [];
  for (const [index, p] of pauses.entries()) {
    const d = p.decision;
    const decided = { ms: msOf(d?.decidedAt), seq: d?.seq ?? 0 };
    if (d?.by === 'policy') keyed.push({ kind: 'arrive', index, rank: 0, ...decided });
    else keyed.push({ kind: 'arrive', index, rank: 1, ms: msOf(p.pausedAt), seq: 0 });
    if (d?.by === 'person') keyed.push({ kind: 'person', index, rank: 0, ...decided });
  }
  if (keyed.some((k) => Number.isNaN(k.ms))) {
    return pauses.flatMap((p, index) => (p.decision?.by === 'person' ? [{ kind: 'arrive', index }, { kind: 'person', index }] : [{ kind: 'arrive', index }]) as ReplayStep[]);
  }
  keyed.sort((a, b) => a.ms - b.ms || a.rank - b.rank || a.seq - b.seq || a.index - b.index);
  return keyed.map(({ kind, index }) => ({ kind, index }));
}
