import { describe, expect, it } from 'vitest';
import { filesStatus, formatDuration } from '../../src/files/status.js';
import { Store } from '../../src/store/index.js';
import { newBatch } from './helpers.js';

const DAY = 86_400_000;
const t0 = new Date('2026-03-01T00:00:00.000Z');

function setup(): Store {
  const store = Store.open(':memory:');
  const b1 = newBatch(store, 'one', { a: 'q', b: 'q' });
  const b2 = newBatch(store, 'two', { c: 'q' });
  const rec = (batch: string, item: string, id: string, seenDaysAgo: number) =>
    store.files.record(batch, item, 'r', { id, url: `http://x/api/v1/files/${id}`, name: `${id}.md` }, new Date(t0.getTime() - seenDaysAgo * DAY), null);
  rec(b1.id, 'a', 'done', 29);
  store.files.markDownloaded(b1.id, 'done', { path: '/o/done.md', bytes: 1500, sha256: 'h', mediaType: 'text/markdown' });
  rec(b1.id, 'a', 'soon', 25); // expires in 5 days, pending
  rec(b1.id, 'b', 'later', 1); // expires in 29 days
  rec(b1.id, 'b', 'flaky', 27); // expires in 3 days, failed
  store.files.markStatus(b1.id, 'flaky', 'failed', 'boom');
  rec(b1.id, 'b', 'gone', 40);
  store.files.markStatus(b1.id, 'gone', 'expired', '404');
  rec(b2.id, 'c', 'past', 31); // pending but already past its expiry
  rec(b2.id, 'c', 'big', 2);
  store.files.markDownloaded(b2.id, 'big', { path: '/o/big', bytes: 2_000_000, sha256: 'h', mediaType: null });
  return store;
}

describe('filesStatus', () => {
  it('counts every batch: states, bytes on disk, soonest expiry and warnings for 7 days', () => {
    const s = filesStatus(setup(), null, t0);
    expect(s.batches.sort()).toEqual(['one', 'two']);
    expect(s.counts).toEqual({ pending: 3, downloaded: 2, failed: 1, expired: 1, missing: 0 });
    expect(s.total).toBe(7);
    expect(s.bytesOnDisk).toBe(2_001_500);
    expect(s.soonestExpiry).toBe(new Date(t0.getTime() - DAY).toISOString());
    expect(s.warnings.map((w) => [w.fileId, w.status])).toEqual([
      ['past', 'pending'],
      ['flaky', 'failed'],
      ['soon', 'pending'],
    ]);
    expect(s.warnings[0]!.message).toMatch(/passed its expiry 1 d 0 h ago/);
    expect(s.warnings[2]!.message).toBe(
      'soon.md (item a, batch one) is not on disk (pending) and expires in 5 d 0 h (2026-03-06T00:00:00.000Z): run resq files pull',
    );
  });

  it('limits itself to one batch', () => {
    const store = setup();
    const s = filesStatus(store, store.findBatch('two'), t0);
    expect(s).toMatchObject({ batches: ['two'], total: 2, bytesOnDisk: 2_000_000 });
    expect(s.warnings.map((w) => w.fileId)).toEqual(['past']);
  });

  it('has no expiry and no warnings when everything is on disk', () => {
    const store = Store.open(':memory:');
    newBatch(store, 'empty', { a: 'q' });
    expect(filesStatus(store, null, t0)).toMatchObject({ total: 0, soonestExpiry: null, warnings: [] });
  });
});

describe('formatDuration', () => {
  it.each([
    [3 * DAY + 4 * 3_600_000, '3 d 4 h'],
    [5 * 3_600_000 + 10 * 60_000, '5 h 10 min'],
    [12 * 60_000 + 5000, '12 min'],
    [-2 * DAY, '2 d 0 h'],
  ])('%d ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});
