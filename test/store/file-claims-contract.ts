import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileHolder, Store } from '../../src/store/port.js';
import { snap } from './snapshot.js';
import type { WriteBarrier } from './write-barrier.js';

/**
 * Claims on files (issue 38.3: one download per file, whichever worker), written against
 * `Store` only: a file is claimed before it is fetched, under a lease with a fencing token; a
 * claim is taken over when its lease ran out or, named by its token, when its holder is gone;
 * the writes that end a download apply only while its claim is still the writer's.
 */

const B = 'fb';
const T0 = 1_900_000_000_000;
const LEASE = { leaseMs: 60_000 };

const holder = (host: string, pid: number): FileHolder => ({ owner: `${host}:${pid}:0000`, host, pid, pidStart: `boot:${pid}` });
const A = holder('box-a', 11);
const BH = holder('box-b', 22);
const C = holder('box-c', 33);
const done = (host: string) => ({ path: `/${host}/f1.md`, bytes: 1, sha256: 'h', mediaType: null, host });

/** Loads a batch of two items whose runs made files f1, f2 (item a) and f3 (item b). */
async function withFiles(store: Store): Promise<void> {
  const loader = await store.beginBatchLoad({
    id: B, name: 'files-claims', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'sha', baseUrl: 'http://svc/api/v1',
    settings: { concurrency: 4, follow: 'sse', download: { enabled: true, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' }, policy: null,
  });
  for (const [seq, id] of ['a', 'b'].entries()) await loader.add({ id, seq, line: seq + 2, question: `q ${id}`, threadKey: null, meta: {} });
  await loader.commit([]);
  const w = (await store.registerWorker(B, { host: 'box-a', pid: 11 }, T0)).id;
  const files = { a: ['f1', 'f2'], b: ['f3'] } as const;
  for (const it of (await store.claimItems(B, { workerId: w, leaseMs: 60_000, max: 2, cap: 2, afterSeq: -1 }, T0)).items) {
    const run = await store.markAdmitted(it, { id: `r-${it.id}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it.pendingKey! });
    const refs = files[it.id as 'a' | 'b'].map((id) => ({ id, url: `http://svc/api/v1/files/${id}`, role: 'report', name: `${id}.md`, tool: 'write_report' }));
    await store.markFinished(run, snap(`r-${it.id}`, { files: refs }), 'completed');
  }
}

/** `barrier`: where the adapter has several connections, how claims are shown to run at once (write-barrier.ts, table `files`). */
export function fileClaimsContract(name: string, makeStore: () => Promise<Store>, barrier?: WriteBarrier): void {
  describe(`Store claims on files: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
      await withFiles(store);
    });
    afterEach(async () => {
      await store.close();
    });

    it('claimFile: one holder until its lease runs out (then another takes it with a higher token); a downloaded file is claimed by no one; renew and release only with the token held', async () => {
      const a = await store.claimFile(B, 'f1', A, { ...LEASE, nowMs: T0 });
      expect(a).toEqual({ owner: A.owner, fence: 1 });
      expect(await store.claimFile(B, 'f1', BH, { ...LEASE, nowMs: T0 + 59_999 })).toBeNull();
      expect(await store.renewFileClaim(B, 'f1', a!, 60_000, T0 + 30_000)).toBe(true);
      expect(await store.claimFile(B, 'f1', BH, { ...LEASE, nowMs: T0 + 60_001 })).toBeNull();
      // Its holder on another machine died: the lease runs out and another takes the file over.
      const b = await store.claimFile(B, 'f1', BH, { ...LEASE, nowMs: T0 + 90_001 });
      expect(b).toEqual({ owner: BH.owner, fence: 2 });
      expect(await store.renewFileClaim(B, 'f1', a!, 60_000, T0 + 90_002)).toBe(false);
      expect(await store.releaseFileClaim(B, 'f1', a!)).toBe(false);
      expect(await store.claimFile(B, 'f1', C, { ...LEASE, nowMs: T0 + 90_003 })).toBeNull();
      expect(await store.markFileDownloaded(B, 'f1', done('box-b'), b!)).toBe(true);
      expect(await store.fileClaimHolder(B, 'f1')).toBeNull();
      expect(await store.claimFile(B, 'f1', C, { ...LEASE, nowMs: T0 + 999_999 })).toBeNull();
      // Released: free at once for the next claimer.
      const c = (await store.claimFile(B, 'f2', C, { ...LEASE, nowMs: T0 }))!;
      expect(await store.releaseFileClaim(B, 'f2', c)).toBe(true);
      expect(await store.claimFile(B, 'f2', A, { ...LEASE, nowMs: T0 })).toEqual({ owner: A.owner, fence: 2 });
    });

    it('fileClaimHolder names the holder (owner, host, pid, start identity, token); a claim named by its token is taken over in its lease, once', async () => {
      expect(await store.fileClaimHolder(B, 'f1')).toBeNull();
      await store.claimFile(B, 'f1', A, { ...LEASE, nowMs: T0 });
      const held = (await store.fileClaimHolder(B, 'f1'))!;
      expect(held).toEqual({ ...A, fence: 1 });
      // Its process is gone (a claimer of its host saw it): taken over long before the lease ends.
      expect(await store.claimFile(B, 'f1', BH, { ...LEASE, nowMs: T0 + 1, from: held })).toEqual({ owner: BH.owner, fence: 2 });
      expect(await store.fileClaimHolder(B, 'f1')).toEqual({ ...BH, fence: 2 });
      // A second claimer that saw the same dead holder finds the claim moved on: nothing.
      expect(await store.claimFile(B, 'f1', C, { ...LEASE, nowMs: T0 + 2, from: held })).toBeNull();
      expect(await store.fileClaimHolder(B, 'f1')).toEqual({ ...BH, fence: 2 });
    });

    it('the writes that end a download are fenced: a holder whose claim was taken over records nothing over the taker\'s, and keeps its copy only where its host holds none', async () => {
      const a = (await store.claimFile(B, 'f1', A, { ...LEASE, nowMs: T0 }))!;
      const b = (await store.claimFile(B, 'f1', BH, { ...LEASE, nowMs: T0 + 1, from: { ...a } }))!;
      expect(await store.markFileDownloaded(B, 'f1', done('box-a'), a)).toBe(false);
      expect(await store.markFileStatus(B, 'f1', 'failed', 'HTTP 500', a)).toBe(false);
      expect(await store.getFile(B, 'f1')).toMatchObject({ status: 'pending', path: null, host: null, error: null });
      expect(await store.markFileDownloaded(B, 'f1', done('box-b'), b)).toBe(true);
      expect(await store.markFileStatus(B, 'f1', 'failed', 'late', a)).toBe(false);
      expect(await store.getFile(B, 'f1')).toMatchObject({ status: 'downloaded', path: '/box-b/f1.md', host: 'box-b' });
      // The loser's bytes: its host's copy, never over the taker's nor over a copy its host has.
      const copy = { path: '/box-a/f1.md', bytes: 1, sha256: 'h' };
      expect(await store.recordFileCopy(B, 'f1', { ...copy, host: 'box-b' }, 'keep')).toBe(false);
      expect(await store.recordFileCopy(B, 'f1', { ...copy, host: 'box-a' }, 'keep')).toBe(true);
      expect(await store.recordFileCopy(B, 'f1', { ...copy, path: '/other.md', host: 'box-a' }, 'keep')).toBe(false);
      expect((await store.fileCopies(B)).map((c) => [c.fileId, c.host, c.path])).toEqual([['f1', 'box-a', '/box-a/f1.md']]);
      // Unfenced writes (no claim) are as before.
      expect(await store.markFileStatus(B, 'f2', 'expired', 'gone')).toBe(true);
    });

    it(barrier ? 'claims running at once (several connections, shown waiting together): each file goes to exactly one holder' : 'claims asked for together (one connection, one writer): each file goes to exactly one holder', async () => {
      const held = await barrier?.hold(store);
      let settled = 0;
      const files = ['f1', 'f2', 'f3'];
      const claims = Promise.all(files.flatMap((id) => [A, BH, C].map((h) => store.claimFile(B, id, h, LEASE).finally(() => settled++))));
      const together = (await held?.reached(3)) ?? true;
      // Held at the barrier: not one claim got through before it let them go.
      const before = settled;
      await held?.release();
      const got = await claims;
      expect(together, 'three claims waiting together').toBe(true);
      if (barrier) expect(before).toBe(0);
      for (const [i, id] of files.entries()) expect(got.slice(3 * i, 3 * i + 3).filter((c) => c !== null), id).toEqual([expect.objectContaining({ fence: 1 })]);
    });
  });
}
