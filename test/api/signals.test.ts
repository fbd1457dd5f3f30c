import { describe, expect, it } from 'vitest';
import { followAbort, linkSignals, onAbortOf, unfollowAbort } from '../../src/api/signals.js';

describe('linkSignals', () => {
  it('aborts when any input aborts, with its reason', () => {
    const a = new AbortController();
    const b = new AbortController();
    const link = linkSignals(a.signal, undefined, b.signal);
    b.abort('why');
    expect(link.signal.aborted).toBe(true);
    expect(link.signal.reason).toBe('why');
  });

  it('starts aborted when an input already is', () => {
    expect(linkSignals(AbortSignal.abort('x')).signal.aborted).toBe(true);
  });

  it('detaches from the inputs on dispose', () => {
    const a = new AbortController();
    const link = linkSignals(a.signal);
    link.dispose();
    a.abort();
    expect(link.signal.aborted).toBe(false);
  });
});

describe('onAbortOf', () => {
  it('calls every follower once, in order, with one listener on the signal however many follow', () => {
    const c = new AbortController();
    let adds = 0;
    const add = c.signal.addEventListener.bind(c.signal);
    c.signal.addEventListener = ((...a: Parameters<typeof add>) => {
      adds++;
      add(...a);
    }) as typeof add;
    const calls: number[] = [];
    const offs = Array.from({ length: 1000 }, (_, i) => onAbortOf(c.signal, () => calls.push(i)));
    offs[3]!();
    c.abort();
    c.abort();
    expect(adds).toBe(1);
    expect(calls).toHaveLength(999);
    expect(calls.slice(0, 4)).toEqual([0, 1, 2, 4]);
  });
});

describe('followAbort', () => {
  it('tells an object follower through signalAborted, once, unless it stopped following', () => {
    const c = new AbortController();
    const told: string[] = [];
    const a = { signalAborted: () => void told.push('a') };
    const b = { signalAborted: () => void told.push('b') };
    followAbort(c.signal, a);
    followAbort(c.signal, b);
    unfollowAbort(c.signal, a);
    c.abort();
    c.abort();
    expect(told).toEqual(['b']);
  });
});
