import { describe, expect, it } from 'vitest';
import { TimerHeap } from '../../src/sim/timer-heap.js';

/** A promise and the function that resolves it, for waiting on an entry's call instead of a sleep. */
function signal(): { fired: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const fired = new Promise<void>((r) => (fire = r));
  return { fired, fire };
}

describe('TimerHeap', () => {
  it('calls entries in order of due time, equal ones in the order they were added', async () => {
    const heap = new TimerHeap();
    const got: string[] = [];
    const last = signal();
    const t = performance.now();
    heap.at(t + 30, () => {
      got.push('c');
      last.fire();
    });
    heap.at(t + 10, () => got.push('a1'));
    heap.at(t + 10, () => got.push('a2'));
    heap.at(t + 20, () => got.push('b'));
    heap.at(t - 5, () => got.push('past'));
    await last.fired;
    expect(got).toEqual(['past', 'a1', 'a2', 'b', 'c']);
    expect(heap.size).toBe(0);
  });

  it('takes entries added while firing, including ones already due', async () => {
    const heap = new TimerHeap();
    const got: number[] = [];
    const last = signal();
    const chain = (i: number): void => {
      got.push(i);
      if (i < 5) heap.at(performance.now() + (i % 2 ? 0 : 5), () => chain(i + 1));
      else last.fire();
    };
    heap.at(performance.now(), () => chain(0));
    await last.fired;
    expect(got).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('does not fire early and keeps many entries in order', async () => {
    const heap = new TimerHeap();
    const late: number[] = [];
    const all = signal();
    const t0 = performance.now();
    const dues = Array.from({ length: 500 }, (_, i) => t0 + ((i * 37) % 50));
    let last = -Infinity;
    let ordered = true;
    for (const due of dues) {
      heap.at(due, () => {
        late.push(performance.now() - due);
        if (due < last) ordered = false;
        last = due;
        if (late.length === dues.length) all.fire();
      });
    }
    await all.fired;
    expect(ordered).toBe(true);
    // Node timers have millisecond resolution: an entry may run up to 1 ms before it is due.
    // (Lateness is not checked: a loaded machine may call them late, never early.)
    expect(Math.min(...late)).toBeGreaterThanOrEqual(-1);
  });

  it('drops everything on close and refuses new entries', async () => {
    const heap = new TimerHeap();
    let calls = 0;
    const t = performance.now();
    heap.at(t + 5, () => calls++);
    heap.close();
    heap.at(t, () => calls++);
    expect(heap.size).toBe(0);
    // A second heap's entry due after both: once it has run, the closed heap's would have too.
    const witness = new TimerHeap();
    const after = signal();
    witness.at(t + 10, after.fire);
    await after.fired;
    expect(calls).toBe(0);
  });
});
