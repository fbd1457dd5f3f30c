import { describe, expect, it } from 'vitest';
import { abortableSleep, linkSignals } from '../../src/api/signals.js';

describe('abortableSleep', () => {
  it('resolves after the delay', async () => {
    await expect(abortableSleep(1)).resolves.toBeUndefined();
  });

  it('rejects with the signal reason when aborted, before or during the wait', async () => {
    const reason = new Error('stop');
    await expect(abortableSleep(10, AbortSignal.abort(reason))).rejects.toBe(reason);
    const c = new AbortController();
    const p = abortableSleep(60_000, c.signal);
    c.abort(reason);
    await expect(p).rejects.toBe(reason);
  });
});

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
