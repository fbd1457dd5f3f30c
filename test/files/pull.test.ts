import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../../src/clock.js';
import { pullFiles } from '../../src/files/index.js';
import { ServiceClient } from '../../src/api/index.js';
import { ALICE, BOB } from '../sim/helpers.js';
import { listFiles, newBatch, newEnv, runItems, type Env } from './helpers.js';

let env: Env;
afterEach(async () => {
  await env?.close();
});

const CHILD = fileURLToPath(new URL('./fixtures/download-child.ts', import.meta.url));

/** SHA-256 of what the simulator serves, streamed. */
async function servedSha(url: string): Promise<{ sha256: string; bytes: number }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${ALICE}` } });
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };

describe('pullFiles', () => {
  it('after a download killed mid-file, discards the partial and fetches the whole file again', async () => {
    env = await newEnv({ fileDb: true });
    const batch = await newBatch(env.store, 'crash', { big: 'q @files=csv @size=512mb', small: 'q @files=md' });
    await runItems(env, batch);

    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, join(env.dir, 'resq.db'), env.sim.url, env.out, 'crash'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_code, signal) => r(signal)));
    let partial: string | undefined;
    for (let i = 0; i < 600 && !partial; i++) {
      await new Promise((r) => setTimeout(r, 25));
      partial = listFiles(env.out).find((p) => p.endsWith('.partial') && statSync(join(env.out, p)).size > 1024 * 1024);
    }
    expect(partial, 'the child never started writing').toBeDefined();
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // Killed: the half-written file is still there under its temp name, and the row is not downloaded.
    const big = (await env.store.filesForItem(batch.id, 'big'))[0]!;
    expect(big.status).toBe('pending');
    expect(statSync(join(env.out, partial!)).size).toBeLessThan(512 * 1024 * 1024);

    // The killed child held the file's claim (its lease runs for a minute yet): its process is
    // gone, so the pull takes the claim over at once, on the store's own time.
    const held = (await env.store.fileClaimHolder(batch.id, big.id))!;
    expect(held).toMatchObject({ host: hostname(), pid: child.pid });
    const report = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: env.out, ...fast });
    expect(report.notOnDisk).toEqual([]);
    expect(listFiles(env.out).filter((p) => p.endsWith('.partial'))).toEqual([]);
    const done = (await env.store.getFile(batch.id, big.id))!;
    expect(done.status).toBe('downloaded');
    const truth = await servedSha(done.url);
    expect(done.bytes).toBe(truth.bytes);
    expect(done.sha256).toBe(truth.sha256);
    expect(statSync(done.path!).size).toBe(truth.bytes);
  });

  it('fetches into --out what only other machines hold, as this machine\'s copy: their records stay, a second pull fetches nothing, a lost copy is fetched again', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'spread', { a: 'q @files=md,csv', b: 'q @files=png' });
    await runItems(env, batch);
    // Two workers on two machines downloaded the files into their own folders.
    const onA = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: join(env.dir, 'box-a'), host: 'box-a', ...fast });
    expect(onA.downloaded).toBe(3);
    const [f1] = await env.store.filesForBatch(batch.id);
    await env.store.markFileDownloaded(batch.id, f1!.id, { ...(f1 as { path: string; bytes: number; sha256: string }), mediaType: null, host: 'box-c' });
    const recorded = await env.store.filesForBatch(batch.id);

    const here = join(env.dir, 'here');
    const first = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: here, host: 'box-b', ...fast });
    expect(first).toMatchObject({ downloaded: 3, skipped: 0, fromOtherHosts: { 'box-a': 2, 'box-c': 1 }, notOnDisk: [] });
    // The other machines' records are as they were; this machine's copies are recorded beside them.
    expect(await env.store.filesForBatch(batch.id)).toEqual(recorded);
    const copies = await env.store.fileCopies(batch.id);
    expect(copies.map((c) => [c.host, c.sha256])).toEqual(recorded.map((f) => ['box-b', f.sha256]));
    for (const c of copies) {
      expect(c.path.startsWith(here)).toBe(true);
      expect(sha(c.path)).toBe(c.sha256);
    }

    const second = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: here, host: 'box-b', ...fast });
    expect(second).toMatchObject({ downloaded: 0, skipped: 3, fromOtherHosts: {}, repaired: [] });
    unlinkSync(copies[0]!.path);
    const third = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: here, host: 'box-b', ...fast });
    expect(third).toMatchObject({ downloaded: 1, skipped: 2 });
    expect(third.repaired.map((r) => r.reason.split(' (')[0])).toEqual(["this machine's copy is gone from disk"]);
    expect(sha(copies[0]!.path)).toBe(copies[0]!.sha256);
  });

  it('skips files on disk with the right size and hash, and fetches gone or changed ones again', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'repair', { a: 'q @files=md,csv,png,pdb' });
    await runItems(env, batch);
    const first = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: env.out, ...fast });
    expect(first).toMatchObject({ downloaded: 4, skipped: 0, notOnDisk: [] });

    const [gone, changed] = await env.store.filesForBatch(batch.id);
    const original = readFileSync(changed!.path!);
    unlinkSync(gone!.path!);
    writeFileSync(changed!.path!, Buffer.alloc(original.length, 0x41));

    const second = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: env.out, ...fast });
    expect(second).toMatchObject({ downloaded: 2, skipped: 2, notOnDisk: [] });
    expect(second.repaired.map((r) => [r.fileId, r.reason.split(' (')[0]])).toEqual([
      [gone!.id, 'gone from disk'],
      [changed!.id, 'changed on disk'],
    ]);
    expect(readFileSync(changed!.path!).equals(original)).toBe(true);
    expect(sha(gone!.path!)).toBe(gone!.sha256);
    // A re-download keeps the file's name.
    expect((await env.store.getFile(batch.id, gone!.id))!.path).toBe(gone!.path);

    const third = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: env.out, ...fast });
    expect(third).toMatchObject({ downloaded: 0, skipped: 4, repaired: [] });
  });

  it('takes a file no row owns with exactly the bytes (a crash between rename and commit) as the download, without suffixing', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'orphan', { a: 'q @files=md' });
    await runItems(env, batch);
    const [file] = await env.store.filesForBatch(batch.id);
    const bytes = Buffer.from(await (await fetch(file!.url, { headers: { authorization: 'Bearer sim-key-alice' } })).arrayBuffer());
    const folder = join(env.out, 'orphan-idorphan', 'a');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'report.md'), bytes);
    const report = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: env.out, ...fast });
    expect(report.downloaded).toBe(1);
    expect(listFiles(env.out)).toEqual([join('orphan-idorphan', 'a', 'report.md')]);
  });

  it('never replaces a file resq did not write: the download takes the next name and the other file stays as it was', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'mine', { a: 'q @files=md' });
    await runItems(env, batch);
    const folder = join(env.out, 'mine-idmine', 'a');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'report.md'), 'my own notes');
    const report = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: env.out, ...fast });
    expect(report.downloaded).toBe(1);
    expect(readFileSync(join(folder, 'report.md'), 'utf8')).toBe('my own notes');
    const [file] = await env.store.filesForBatch(batch.id);
    expect(file!.path).toBe(join(folder, 'report (2).md'));
    expect(readFileSync(file!.path!).length).toBe(file!.bytes);
  });

  it('reports expired and missing files as not on disk, asks for missing ones again, and not for expired ones', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'late', { a: 'q @files=md,csv' });
    await runItems(env, batch);
    const requests = (): number => env.sim.counters().requestsByRoute['GET /files/:id'] ?? 0;
    // Missing: within their 30 days, the service answers 404 (pulled with another account's key).
    const bob = new ServiceClient({ baseUrl: env.sim.url, apiKey: BOB, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
    try {
      const clock = { now: () => env.sim.clock.now(), sleep };
      const missing = await pullFiles({ store: env.store, client: bob, batches: [batch], outDir: env.out, clock, ...fast });
      expect(missing).toMatchObject({ downloaded: 0, missing: 2, expired: 0 });
      expect(missing.notOnDisk.map((f) => f.status)).toEqual(['missing', 'missing']);
      expect((await env.store.filesForBatch(batch.id)).map((f) => f.status)).toEqual(['missing', 'missing']);
      expect(listFiles(env.out)).toEqual([]);
    } finally {
      await bob.close();
    }

    // Expired: 31 days later the service answers 404 again. The missing files were asked for again.
    env.sim.clock.advance(31 * 86_400_000);
    const clock = { now: () => env.sim.clock.now(), sleep };
    const asked = requests();
    const first = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: env.out, clock, ...fast });
    expect(requests() - asked).toBe(2);
    expect(first.expired).toBe(2);
    expect(first.notOnDisk.map((f) => f.status)).toEqual(['expired', 'expired']);
    const before = requests();
    const second = await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: env.out, clock, ...fast });
    expect(second.notOnDisk).toHaveLength(2);
    expect(requests()).toBe(before);
  });
});
