import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { answerWaiting } from '../support/answer-waiting.js';
import { LiveHub } from '../../src/web/live.js';
import { bearer, webFixture, type WebFixture } from './support/web-fixture.js';

/** Lets pending promise callbacks (the store's reads) run. */
const settle = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** A clock that moves only when the test says: a sleep ends once `advance` passes its end (or its signal aborts). */
function handClock(start = 1_700_000_000_000): Clock & { advance(ms: number): void; sleeping(): number } {
  let t = start;
  const sleeps = new Set<{ end: number; wake: () => void }>();
  return {
    now: () => t,
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        if (signal?.aborted) return resolve();
        const s = { end: t + ms, wake: () => (sleeps.delete(s), resolve()) };
        sleeps.add(s);
        signal?.addEventListener('abort', s.wake, { once: true });
      }),
    advance: (ms) => {
      t += ms;
      for (const s of [...sleeps]) if (s.end <= t) s.wake();
    },
    sleeping: () => sleeps.size,
  };
}

describe('live overviews', () => {
  let f: WebFixture;
  beforeAll(async () => {
    f = await webFixture();
  }, 60_000);
  afterAll(async () => f?.close());

  it('LiveHub: one poller per batch, a snapshot only when something changed, none once nobody watches', async () => {
    const clock = handClock();
    const hub = new LiveHub({ store: f.store, tickMs: 1000, clock });
    const a: string[] = [];
    const b: string[] = [];
    const subA = hub.subscribe(f.batch, (j) => a.push(j));
    await settle();
    expect(a).toHaveLength(1);
    const subB = hub.subscribe(f.batch, (j) => b.push(j));
    expect(b).toEqual(a); // the latest at once, from the same poller
    expect(hub.watchers(f.batch.id)).toBe(2);
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      await settle();
    }
    expect(a).toHaveLength(1); // nothing changed: nothing sent
    await answerWaiting(f.store, f.batch, 'image', { kind: 'decline' }, { person: 'Eve' });
    // The hub times its ticks by its clock: one tickMs later, the change is read.
    clock.advance(999);
    await settle();
    expect(a).toHaveLength(1);
    clock.advance(1);
    await settle();
    expect(a).toHaveLength(2);
    expect(JSON.parse(a[1]!).counts.held).toBe(JSON.parse(a[0]!).counts.held - 1);
    subA.stop();
    subB.stop();
    expect(hub.watchers(f.batch.id)).toBe(0);
    expect(hub.pollers()).toBe(0);
    clock.advance(5000);
    await settle();
    expect(a).toHaveLength(2);
    hub.close();
  });

  it('a page left open does not grow: a reader that takes nothing keeps only the newest overview, over one poller', async () => {
    const clock = handClock();
    const hub = new LiveHub({ store: f.store, tickMs: 1000, clock });
    let open = false;
    const slow: string[] = [];
    const sub = hub.subscribe(f.batch, { ready: () => open, send: (j) => slow.push(j) });
    const quick: string[] = [];
    const subQuick = hub.subscribe(f.batch, (j) => quick.push(j));
    await settle();
    for (let cap = 1; cap <= 40; cap++) {
      await f.store.setCapLimit(f.batch.id, cap);
      clock.advance(1000); // one tick each
      await settle();
      expect(hub.backlog(f.batch.id)).toBeLessThanOrEqual(1);
      expect(hub.pollers()).toBe(1);
      expect(clock.sleeping()).toBeLessThanOrEqual(1); // one wait between ticks, never one more per tick
    }
    expect(quick.length).toBeGreaterThanOrEqual(40); // every change was read and sent to a page that keeps up
    expect(JSON.parse(quick.at(-1)!).capLimit).toBe(40);
    expect(slow).toEqual([]);
    expect(hub.backlog(f.batch.id)).toBe(1);
    open = true;
    sub.drain();
    expect(slow.map((j) => JSON.parse(j).capLimit)).toEqual([40]); // the newest alone, none of the 39 before it
    expect(hub.backlog(f.batch.id)).toBe(0);
    sub.stop();
    subQuick.stop();
    await f.store.setCapLimit(f.batch.id, null);
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
          return JSON.parse(m[1]!) as { counts: { held: number; waiting: number }; heldItems: { id: string }[] };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buf += dec.decode(value, { stream: true });
      }
    };
    const first = await nextOverview();
    expect(first.heldItems.map((h) => h.id)).toContain('multi');
    await answerWaiting(f.store, f.batch, 'multi', { kind: 'choose', ids: ['a', 'b'] }, { person: 'Eve' });
    const second = await nextOverview();
    expect(second.counts.held).toBe(first.counts.held - 1);
    expect(second.heldItems.map((h) => h.id)).not.toContain('multi');
    ac.abort();
  });
});
