/**
 * The digest and reminder plan of held items, shared by both adapters' outbox.ts: a digest
 * (`items.held`) of the held facts not yet told once `digestMs` passed since the last one,
 * and, with `remindMs`, a reminder of those still held (and held on the same run) that long
 * after their digest. The plan says what to read and write, step by step; each adapter runs a
 * step against its database ({@link runHeldPlan} for SQLite, awaited for PostgreSQL). Pure.
 */

/** One step of the plan, and what the adapter hands back for it. */
export type HeldStep =
  /** → the time of the batch's last digest, or null. */
  | { kind: 'lastDigest' }
  /** → the ids of the batch's held facts not yet in a digest, in order. */
  | { kind: 'facts' }
  /** → nothing: an `items.held` event of these facts added (once per key), and the facts marked folded, due from now. */
  | { kind: 'add'; key: string; facts: number[]; reminder: boolean }
  /** → nothing: folded facts whose item is no longer held on that run are done with (never reminded of). */
  | { kind: 'dropAnswered' }
  /** → the ids of folded facts due at or before `before`, in order. */
  | { kind: 'due'; before: number };

/** What an adapter hands back for a step (see {@link HeldStep}). */
export type HeldAnswer = number | null | number[] | undefined;

/** The plan at `now` (the store's clock): yields each step, returns how many events it added. */
export function* heldPlan(o: { digestMs: number; remindMs: number | null }, now: number): Generator<HeldStep, number, HeldAnswer> {
  let added = 0;
  const last = (yield { kind: 'lastDigest' }) as number | null;
  if (last === null || last <= now - o.digestMs) {
    const facts = (yield { kind: 'facts' }) as number[];
    if (facts.length > 0) {
      yield { kind: 'add', key: `digest:${facts[0]}`, facts, reminder: false };
      added++;
    }
  }
  if (o.remindMs !== null) {
    yield { kind: 'dropAnswered' };
    const due = (yield { kind: 'due', before: now - o.remindMs }) as number[];
    if (due.length > 0) {
      yield { kind: 'add', key: `remind:${due[0]}:${now}`, facts: due, reminder: true };
      added++;
    }
  }
  return added;
}

/** Runs the plan with a synchronous `step` (the SQLite adapter's); returns how many events it added. */
export function runHeldPlan(plan: Generator<HeldStep, number, HeldAnswer>, step: (s: HeldStep) => HeldAnswer): number {
  // The first answer is never read (a generator's first next() starts it).
  let answer: HeldAnswer;
  for (;;) {
    const s = plan.next(answer);
    if (s.done) return s.value;
    // A step, not the return: said outright for the older TypeScript a notebook (tslab) runs, which does not narrow it here.
    answer = step(s.value as HeldStep);
  }
}

/** Runs the plan with an asynchronous `step` (the PostgreSQL adapter's). */
export async function runHeldPlanAsync(plan: Generator<HeldStep, number, HeldAnswer>, step: (s: HeldStep) => Promise<HeldAnswer>): Promise<number> {
  let answer: HeldAnswer;
  for (;;) {
    const s = plan.next(answer);
    if (s.done) return s.value;
    // A step, not the return (as in runHeldPlan).
    answer = await step(s.value as HeldStep);
  }
}

/** The data of an `items.held` event. */
export function heldEventData(facts: readonly number[], reminder: boolean): string {
  return JSON.stringify({ facts, reminder });
}
