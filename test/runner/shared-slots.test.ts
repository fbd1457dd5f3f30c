import { describe, expect, it } from 'vitest';
import { SharedSlots } from '../../src/runner/shared-slots.js';

/** A member's bookkeeping as a scheduler keeps it: runs in flight, wakes counted. */
function joined(slots: SharedSlots, first = false) {
  const m = { inFlight: 0, wakes: 0, member: null as unknown as ReturnType<SharedSlots['join']> };
  m.member = slots.join({ first, inFlight: () => m.inFlight, wake: () => void m.wakes++ });
  return m;
}

describe('SharedSlots (one cap over an answer batch and its judge)', () => {
  it('counts every member\'s runs in flight against one limit, read at each look (the cap moves)', () => {
    let limit = 4;
    const slots = new SharedSlots(() => limit);
    const answers = joined(slots);
    const judge = joined(slots, true);
    answers.inFlight = 3;
    expect(judge.member.free()).toBe(1);
    judge.inFlight = 1;
    expect(answers.member.free()).toBe(0);
    limit = 2;
    expect(judge.member.free()).toBe(0);
  });

  it('slots taken for a claim under way are no other member\'s until it settles (two claims at once never overfill)', () => {
    const slots = new SharedSlots(() => 3);
    const answers = joined(slots);
    const judge = joined(slots, true);
    expect(answers.member.take(3)).toBe(3);
    // The answers' claim is at the store: the judge's claim of the same moment gets nothing.
    expect(judge.member.take(3)).toBe(0);
    // Two items came back: they are in flight now, the third slot is free again and the judge is woken for it.
    answers.inFlight = 2;
    answers.member.settle(3, 2, true);
    expect(judge.wakes).toBe(1);
    expect(judge.member.take(3)).toBe(1);
  });

  it('keeps the slots a first member wants from the others: a judging starts before the next answer', () => {
    const slots = new SharedSlots(() => 3);
    const answers = joined(slots);
    const judge = joined(slots, true);
    answers.inFlight = 1;
    judge.member.want(2);
    expect(judge.wakes).toBe(1);
    expect(answers.member.free()).toBe(0);
    expect(judge.member.free()).toBe(2);
    // The judge claimed one of its two: one slot stays kept for it.
    judge.member.settle(judge.member.take(2), 1, false);
    judge.inFlight = 1;
    expect(answers.member.free()).toBe(0);
    // Its next claim came back dry (another worker took the judging): nothing is kept any more.
    judge.member.settle(judge.member.take(1), 0, true);
    expect(answers.member.free()).toBe(1);
    expect(answers.wakes).toBeGreaterThan(0);
  });

  it('a slot freed by one member wakes the others; a member that leaves gives back what it kept', () => {
    const slots = new SharedSlots(() => 2);
    const answers = joined(slots);
    const judge = joined(slots, true);
    judge.member.want(5);
    expect(answers.member.free()).toBe(0);
    const before = answers.wakes;
    judge.member.freed();
    expect(answers.wakes).toBe(before + 1);
    judge.member.leave();
    expect(answers.member.free()).toBe(2);
    expect(slots.inUse).toBe(0);
  });
});
