import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkOnDisk, verifyFiles } from '../../src/files/verify.js';
import { hostname } from 'node:os';
import { openStore, type Store } from '../../src/store/index.js';
import { finishedRun, finishItems, newBatch } from './helpers.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const url = (id: string): string => `http://x/api/v1/files/${id}`;

/**
 * Records item a's run with a file for each of `contents` (and `pending` ones never
 * downloaded), writes each file to disk and records it downloaded here; returns the paths.
 */
async function put(store: Store, batchId: string, contents: Record<string, string>, pending: string[] = []): Promise<Record<string, string>> {
  const batch = (await store.findBatch(batchId))!;
  const ids = [...Object.keys(contents), ...pending];
  await finishItems(store, batch, { a: finishedRun(`r-${batchId}`, ids.map((id) => ({ id, url: url(id) }))) });
  const paths: Record<string, string> = {};
  for (const [id, content] of Object.entries(contents)) {
    const path = join(dir, id);
    writeFileSync(path, content);
    await store.markFileDownloaded(batchId, id, {
      path,
      bytes: Buffer.byteLength(content),
      sha256: createHash('sha256').update(content).digest('hex'),
      mediaType: null,
      host: hostname(),
    });
    paths[id] = path;
  }
  return paths;
}

describe('verifyFiles', () => {
  it('re-hashes downloaded files and reports changed and gone ones without changing the store', async () => {
    dir = mkdtempSync(join(tmpdir(), 'resq-verify-'));
    const store = await openStore(':memory:');
    const b = await newBatch(store, 'v', { a: 'q' });
    const { resized, flipped, removed } = await put(store, b.id, { ok: 'fine', resized: 'short', flipped: 'abcd', removed: 'x' }, ['pending']);
    writeFileSync(resized!, 'much longer now');
    writeFileSync(flipped!, 'abce');
    unlinkSync(removed!);

    const r = await verifyFiles(store, b);
    expect(r).toMatchObject({ batches: ['v'], checked: 4, ok: 1, bytes: 4 });
    expect(r.problems.map((p) => [p.fileId, p.state]).sort()).toEqual([
      ['flipped', 'changed'],
      ['removed', 'gone'],
      ['resized', 'changed'],
    ]);
    expect(r.problems.find((p) => p.fileId === 'resized')!.reason).toMatch(/size is 15 bytes, recorded 5/);
    expect(r.problems.find((p) => p.fileId === 'flipped')!.reason).toMatch(/sha256 is [0-9a-f]{64}, recorded/);
    expect((await store.fileCounts(b.id)).downloaded).toBe(4);
    expect((await store.getFile(b.id, 'pending'))?.status).toBe('pending');
  });

  it('checks every batch when none is named, and a folder is not a file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'resq-verify-'));
    const store = await openStore(':memory:');
    const b1 = await newBatch(store, 'one', { a: 'q' });
    const b2 = await newBatch(store, 'two', { a: 'q' });
    await put(store, b1.id, { x: 'x' });
    await put(store, b2.id, { y: 'y' });
    expect(await verifyFiles(store)).toMatchObject({ checked: 2, ok: 2, problems: [] });
    expect(await checkOnDisk({ path: dir, bytes: 1, sha256: null })).toMatchObject({ state: 'gone' });
    expect(await checkOnDisk({ path: null, bytes: 1, sha256: null })).toMatchObject({ state: 'gone' });
  });
});
