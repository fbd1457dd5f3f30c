import { describe, expect, it } from 'vitest';
import { filesStatus, formatDuration } from '../../src/files/status.js';
import { openStore, type FileRefInput, type Store } from '../../src/store/index.js';
import { finishedRun, finishItems, newBatch } from './helpers.js';

const DAY = 86_400_000;
const t0 = new Date('2026-03-01T00:00:00.000Z');

/** A file seen `seenDaysAgo` before t0 (its run's creation time: expiry counts from it). */
const ref = (id: string): FileRefInput => ({ id, url: `http://x/api/v1/files/${id}`, name: `${id}.md` });
const runSeen = (runId: string, id: string, seenDaysAgo: number) =>
  finishedRun(runId, [ref(id)], new Date(t0.getTime() - seenDaysAgo * DAY).toISOString());

async function setup(): Promise<Store> {
  const store = await openStore(':memory:');
  const b1 = await newBatch(store, 'one', { a: 'q', b: 'q' });
  const b2 = await newBatch(store, 'two', { c: 'q' });
  await finishItems(store, b1, {
    a: [runSeen('ra1', 'done', 29), runSeen('ra2', 'soon', 25)], // soon: expires in 5 days, pending
    b: [
      runSeen('rb1', 'later', 1), // expires in 29 days
      runSeen('rb2', 'flaky', 27), // expires in 3 days, failed
      runSeen('rb3', 'gone', 40),
    ],
  });
  await finishItems(store, b2, {
    c: [runSeen('rc1', 'past', 31), runSeen('rc2', 'big', 2)], // past: pending but already past its expiry
  });
  await store.markFileDownloaded(b1.id, 'done', { path: '/o/done.md', bytes: 1500, sha256: 'h', mediaType: 'text/markdown', host: 'h1' });
  await store.markFileStatus(b1.id, 'flaky', 'failed', 'boom');
  await store.markFileStatus(b1.id, 'gone', 'expired', '404');
  await store.markFileDownloaded(b2.id, 'big', { path: '/o/big', bytes: 2_000_000, sha256: 'h', mediaType: null, host: 'h1' });
  return store;
}

describe('filesStatus', () => {
  it('counts every batch: states, bytes on disk, soonest expiry and warnings for 7 days', async () => {
    const s = await filesStatus(await setup(), null, t0);
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
      'soon.md (item a, batch one) is not on disk (pending) and expires in 5 d 0 h (2026-03-06T00:00:00.000Z): run resq files pull one --sim',
    );
  });

  it('limits itself to one batch', async () => {
    const store = await setup();
    const s = await filesStatus(store, await store.findBatch('two'), t0);
    expect(s).toMatchObject({ batches: ['two'], total: 2, bytesOnDisk: 2_000_000 });
    expect(s.warnings.map((w) => w.fileId)).toEqual(['past']);
  });

  it('says which host holds which files (copies included), where, and how many this machine lacks', async () => {
    const store = await setup();
    const one = (await store.findBatch('one'))!;
    await store.markFileDownloaded(one.id, 'later', { path: '/c/out/one-x/b/later.md', bytes: 10, sha256: 'h', mediaType: null, host: 'h2' });
    await store.recordFileCopy(one.id, 'done', { host: 'here', path: '/mine/one-x/a/done.md', bytes: 1500, sha256: 'h' });
    const s = await filesStatus(store, null, t0, undefined, 'here');
    expect(s.thisHost).toBe('here');
    expect(s.holders).toEqual([
      { host: 'h1', files: 2, bytes: 2_001_500, folders: ['/'] },
      { host: 'h2', files: 1, bytes: 10, folders: ['/c/out/one-x'] },
      { host: 'here', files: 1, bytes: 1500, folders: ['/mine/one-x'] },
    ]);
    expect(s.hosts).toEqual({ h1: 2, h2: 1, here: 1 });
    // big (h1) and later (h2) are on other machines only; done has a copy here.
    expect(s.notHere).toBe(2);
  });

  it('has no expiry and no warnings when everything is on disk', async () => {
    const store = await openStore(':memory:');
    await newBatch(store, 'empty', { a: 'q' });
    expect(await filesStatus(store, null, t0)).toMatchObject({ total: 0, soonestExpiry: null, warnings: [] });
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
