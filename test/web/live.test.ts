import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { answerHeldItem } from '../../src/runner/index.js';
import { LiveHub } from '../../src/web/live.js';
import { bearer, webFixture, type WebFixture } from './support/web-fixture.js';

/** Lets pending promise callbacks (the store's reads) run. */
const settle = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('live overviews', () => {
  let f: WebFixture;
  beforeAll(async () => {
    f = await webFixture();
  }, 60_000);
  afterAll(async () => f?.close());
  afterEach(() => vi.useRealTimers());

  it('LiveHub: one poller per batch, a snapshot only when something changed, none once nobody watches', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const hub = new LiveHub({ store: f.store, tickMs: 1000, now: () => 1_700_000_000_000 });
    const a: string[] = [];
    const b: string[] = [];
    const stopA = hub.subscribe(f.batch, (j) => a.push(j));
    await settle();
    expect(a).toHaveLength(1);
    const stopB = hub.subscribe(f.batch, (j) => b.push(j));
    expect(b).toEqual(a); // the latest at once, from the same poller
    expect(hub.watchers(f.batch.id)).toBe(2);
    for (let i = 0; i < 3; i++) {
      vi.advanceTimersByTime(1000);
      await settle();
    }
    expect(a).toHaveLength(1); // nothing changed: nothing sent
    await answerHeldItem(f.store, f.batch, 'image', { kind: 'decline' }, { person: 'Eve' });
    // (a slow tick spaces the next one out to ten times its cost: a few ticks' worth of time)
    vi.advanceTimersByTime(5000);
    await settle();
    expect(a).toHaveLength(2);
    expect(JSON.parse(a[1]!).counts.held).toBe(JSON.parse(a[0]!).counts.held - 1);
    stopA();
    stopB();
    expect(hub.watchers(f.batch.id)).toBe(0);
    vi.advanceTimersByTime(5000);
    await settle();
    expect(a).toHaveLength(2);
    hub.close();
  });

  it('GET …/events streams overview events over one connection; an answer shows without reload', async () => {
    const ac = new AbortController();
    const r = await fetch(`${f.server.origin}/api/batches/web/events`, { headers: bearer(f.server), signal: ac.signal });
    expect(r.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = r.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    const nextOverview = async () => {
      for (;;) {
        const m = /event: overview\ndata: (.*)\n\n/.exec(buf);
        if (m) {
          buf = buf.slice(m.index + m[0].length);
          return JSON.parse(m[1]!) as { counts: { held: number; waiting: number }; held: { id: string }[] };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buf += dec.decode(value, { stream: true });
      }
    };
    const first = await nextOverview();
    expect(first.held.map((h) => h.id)).toContain('multi');
    await answerHeldItem(f.store, f.batch, 'multi', { kind: 'choose', ids: ['a', 'b'] }, { person: 'Eve' });
    const second = await nextOverview();
    expect(second.counts.held).toBe(first.counts.held - 1);
    expect(second.held.map((h) => h.id)).not.toContain('multi');
    ac.abort();
  });
});
