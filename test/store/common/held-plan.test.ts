import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type HeldAnswer, heldPlan, type HeldStep, runHeldPlan, runHeldPlanAsync } from '../../../src/store/common/held-plan.js';

const root = resolve(import.meta.dirname, '../../..');

/** Runs the plan over canned answers, recording each step. */
function trace(o: { digestMs: number; remindMs: number | null }, now: number, answers: Partial<Record<HeldStep['kind'], HeldAnswer>>): { steps: HeldStep[]; added: number } {
  const steps: HeldStep[] = [];
  const added = runHeldPlan(heldPlan(o, now), (s) => {
    steps.push(s);
    return answers[s.kind];
  });
  return { steps, added };
}

describe('the held items\' digest and reminder plan', () => {
  it('digests the untold facts once the digest interval passed, and reminds of those still held past the reminder interval', () => {
    const both = trace({ digestMs: 60_000, remindMs: 3_600_000 }, 10_000_000, { lastDigest: 9_000_000, facts: [4, 5], due: [1, 2] });
    expect(both.added).toBe(2);
    expect(both.steps).toEqual([
      { kind: 'lastDigest' },
      { kind: 'facts' },
      { kind: 'add', key: 'digest:4', facts: [4, 5], reminder: false },
      { kind: 'dropAnswered' },
      { kind: 'due', before: 10_000_000 - 3_600_000 },
      { kind: 'add', key: 'remind:1:10000000', facts: [1, 2], reminder: true },
    ]);
    // A digest sent within the interval: no facts read; no reminders asked for: none looked for.
    const early = trace({ digestMs: 60_000, remindMs: null }, 10_000_000, { lastDigest: 9_990_000, facts: [4] });
    expect(early).toEqual({ steps: [{ kind: 'lastDigest' }], added: 0 });
    // The first digest of a batch; nothing due.
    const first = trace({ digestMs: 60_000, remindMs: 1 }, 5, { lastDigest: null, facts: [], due: [] });
    expect(first.added).toBe(0);
    expect(first.steps.map((s) => s.kind)).toEqual(['lastDigest', 'facts', 'dropAnswered', 'due']);
  });

  it('runs the same awaited, and is the plan both adapters\' outbox.ts run', async () => {
    const answers: Partial<Record<HeldStep['kind'], HeldAnswer>> = { lastDigest: null, facts: [7], due: [] };
    expect(await runHeldPlanAsync(heldPlan({ digestMs: 1, remindMs: 1 }, 100), async (s) => answers[s.kind])).toBe(1);
    for (const f of ['src/store/sqlite/outbox.ts', 'src/store/postgres/outbox.ts']) {
      const text = readFileSync(resolve(root, f), 'utf8');
      expect(text, f).toMatch(/heldPlan\(o, /);
      expect(text, f).not.toMatch(/`digest:\$\{|`remind:\$\{/);
    }
  });
});
