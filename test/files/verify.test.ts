import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkOnDisk, verifyFiles } from '../../src/files/verify.js';
import { Store } from '../../src/store/index.js';
import { newBatch } from './helpers.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function put(store: Store, batchId: string, id: string, content: string): string {
  const path = join(dir, id);
  writeFileSync(path, content);
  store.files.record(batchId, 'a', 'r', { id, url: `http://x/api/v1/files/${id}` }, new Date(), null);
  store.files.markDownloaded(batchId, id, {
    path,
    bytes: Buffer.byteLength(content),
    sha256: createHash('sha256').update(content).digest('hex'),
    mediaType: null,
  });
  return path;
}

describe('verifyFiles', () => {
  it('re-hashes downloaded files and reports changed and gone ones without changing the store', async () => {
    dir = mkdtempSync(join(tmpdir(), 'resq-verify-'));
    const store = Store.open(':memory:');
    const b = newBatch(store, 'v', { a: 'q' });
    put(store, b.id, 'ok', 'fine');
    const resized = put(store, b.id, 'resized', 'short');
    const flipped = put(store, b.id, 'flipped', 'abcd');
    const removed = put(store, b.id, 'removed', 'x');
    store.files.record(b.id, 'a', 'r', { id: 'pending', url: 'http://x/api/v1/files/p' }, new Date(), null);
    writeFileSync(resized, 'much longer now');
    writeFileSync(flipped, 'abce');
    unlinkSync(removed);

    const r = await verifyFiles(store, b);
    expect(r).toMatchObject({ batches: ['v'], checked: 4, ok: 1, bytes: 4 });
    expect(r.problems.map((p) => [p.fileId, p.state]).sort()).toEqual([
      ['flipped', 'changed'],
      ['removed', 'gone'],
      ['resized', 'changed'],
    ]);
    expect(r.problems.find((p) => p.fileId === 'resized')!.reason).toMatch(/size is 15 bytes, recorded 5/);
    expect(r.problems.find((p) => p.fileId === 'flipped')!.reason).toMatch(/sha256 is [0-9a-f]{64}, recorded/);
    expect(store.files.counts(b.id).downloaded).toBe(4);
  });

  it('checks every batch when none is named, and a folder is not a file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'resq-verify-'));
    const store = Store.open(':memory:');
    const b1 = newBatch(store, 'one', { a: 'q' });
    const b2 = newBatch(store, 'two', { a: 'q' });
    put(store, b1.id, 'x', 'x');
    put(store, b2.id, 'y', 'y');
    expect(await verifyFiles(store)).toMatchObject({ checked: 2, ok: 2, problems: [] });
    expect(await checkOnDisk({ path: dir, bytes: 1, sha256: null })).toMatchObject({ state: 'gone' });
    expect(await checkOnDisk({ path: null, bytes: 1, sha256: null })).toMatchObject({ state: 'gone' });
  });
});
