import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, readdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Clock, sleep } from '../../src/clock.js';
import { Downloader, type DownloadEvent } from '../../src/files/index.js';
import { KICK_INTERVAL_MS } from '../../src/files/downloader.js';
import { virtualClock } from '../support/virtual-clock.js';
import { ALICE, BOB } from '../sim/helpers.js';
import { finishItems, finishedRun, listFiles, newBatch, newEnv, runItems, type Env } from './helpers.js';

let env: Env;
afterEach(async () => {
  await env?.close();
});

/** The bytes the simulator serves for a file, fetched directly. */
async function served(url: string, key = ALICE): Promise<Buffer> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

function downloader(e: Env, extra: Partial<ConstructorParameters<typeof Downloader>[0]> = {}): Downloader {
  return new Downloader({ store: e.store, client: e.client, outDir: e.out, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...extra });
}

describe('Downloader against the simulator', () => {
  it('downloads files of every media type, names them, and records size, hash and type', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'media', { a: 'all kinds @files=md,csv,png,pdb', b: 'no name @files=png:noname,pdb:noname' });
    await runItems(env, batch);
    const d = downloader(env);
    d.kick(batch);
    const summary = await d.drain();
    expect(summary).toMatchObject({ downloaded: 6, failed: 0, expired: 0, missing: 0, problems: [] });
    const files = (await env.store.filesForBatch(batch.id));
    expect(files.every((f) => f.status === 'downloaded')).toBe(true);
    expect(listFiles(env.out)).toEqual(
      [
        'media-idmedia/a/figure.png',
        'media-idmedia/a/report.md',
        'media-idmedia/a/structure.pdb',
        'media-idmedia/a/table.csv',
        ...files.filter((f) => f.itemId === 'b').map((f) => `media-idmedia/b/${f.id}${f.mediaType === 'image/png' ? '.png' : '.pdb'}`),
      ]
        .map((p) => p.split('/').join(sep))
        .sort(),
    );
    expect(Object.fromEntries(files.filter((f) => f.itemId === 'a').map((f) => [f.name, f.mediaType]))).toEqual({
      'report.md': 'text/markdown',
      'table.csv': 'text/csv',
      'figure.png': 'image/png',
      'structure.pdb': 'chemical/x-pdb',
    });
    for (const f of files) {
      const bytes = await served(f.url);
      const disk = readFileSync(f.path!);
      expect(disk.equals(bytes)).toBe(true);
      expect(f.bytes).toBe(bytes.length);
      expect(f.sha256).toBe(sha(bytes));
    }
    expect(readFileSync(files.find((f) => f.name === 'figure.png')!.path!).subarray(1, 4).toString()).toBe('PNG');
  });

  it('writes hostile names only inside the output folder', async () => {
    env = await newEnv();
    const hostile = [
      '..%2F..%2Fetc%2Fpasswd',
      '%2Fabs%2Fpath',
      'a%2Fb',
      '..',
      'CON',
      `${'%C3%A9'.repeat(150)}.csv`,
      'nul%00byte.md',
      'new%0Aline.md',
    ];
    const items: Record<string, string> = { '../../escape': 'item id climbs @files=md', '/abs': 'absolute id @files=md' };
    hostile.forEach((h, i) => (items[`h${i}`] = `hostile @files=md,md @filename=${h}`));
    const batch = await newBatch(env.store, '../batch', items);
    await runItems(env, batch);
    const d = downloader(env);
    d.kick(batch);
    const summary = await d.drain();
    expect(summary.failed + summary.missing).toBe(0);
    expect(summary.downloaded).toBe(2 + hostile.length * 2);
    // Nothing escaped: the temp dir holds only out/, and every file lies below it.
    expect(readdirSync(env.dir)).toEqual(['out']);
    const written = listFiles(env.out);
    expect(written).toHaveLength(summary.downloaded);
    for (const p of written) {
      expect(p.startsWith('..')).toBe(false);
      for (const seg of p.split(sep)) {
        expect(seg).not.toMatch(/^\.|[\u0000-\u001f]|[. ]$/);
        expect(Buffer.byteLength(seg)).toBeLessThanOrEqual(200);
        expect(seg).not.toMatch(/^(con|nul|prn|aux)(\.|$)/i);
      }
    }
    const names = async (item: string): Promise<string[]> =>
      (await env.store.filesForItem(batch.id, item)).map((f) => f.path!.slice(env.out.length + 1).split(sep).slice(1).join('/'));
    expect((await names('h0'))).toEqual(['h0/_.._etc_passwd', 'h0/report-2.md']);
    expect((await names('h1'))).toEqual(['h1/_abs_path', 'h1/report-2.md']);
    expect((await names('h2'))).toEqual(['h2/a_b', 'h2/report-2.md']);
    expect((await names('h3'))).toEqual([expect.stringMatching(/^h3\/file_[0-9a-f]+\.md$/), 'h3/report-2.md']);
    expect((await names('h4'))).toEqual(['h4/CON_', 'h4/report-2.md']);
    expect((await names('h5'))[0]).toBe(`h5/${'é'.repeat(98)}.csv`);
    expect((await names('h6'))[0]).toBe('h6/nul_byte.md');
    expect((await names('h7'))[0]).toBe('h7/new_line.md');
    expect((await names('../../escape'))[0]).toMatch(/^_.._escape-[0-9a-f]{8}\/report\.md$/);
    expect((await names('/abs'))[0]).toMatch(/^_abs-[0-9a-f]{8}\/report\.md$/);
    expect((await env.store.filesForItem(batch.id, 'h0'))[0]!.path!.startsWith(join(env.out, '_batch-'))).toBe(true);
  });

  it('a batch whose files already lie in the older <out>/<name>/ folder keeps it; two batches of one name never share one', async () => {
    env = await newEnv();
    const old = await newBatch(env.store, 'same', { a: 'q @files=md,csv' }, 'aaaaaaaa-1111');
    await runItems(env, old);
    const [first, second] = await env.store.filesForBatch(old.id);
    await env.store.markFileDownloaded(old.id, first!.id, { path: join(env.out, 'same', 'a', 'kept.md'), bytes: 1, sha256: 'x', mediaType: null, host: hostname() });
    const d = downloader(env);
    d.kick(old);
    await d.drain();
    expect((await env.store.getFile(old.id, second!.id))!.path).toBe(join(env.out, 'same', 'a', 'table.csv'));
    // Another batch of (nearly) that name, as from another database, gets a folder of its own.
    const other = await newBatch(env.store, 'same ', { a: 'q @files=md' }, 'bbbbbbbb-2222');
    await runItems(env, other);
    const d2 = downloader(env);
    d2.kick(other);
    await d2.drain();
    const path = (await env.store.filesForBatch(other.id))[0]!.path!;
    expect(path.slice(env.out.length + 1).split(sep)).toEqual([expect.stringMatching(/^same-[0-9a-f]{8}-bbbbbbbb$/), 'a', 'report.md']);
  });

  it('suffixes names that collide within one item folder', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'coll', { x: 'two reports @files=md,md @filename=report-2.md' });
    await runItems(env, batch);
    const d = downloader(env);
    d.kick(batch);
    await d.drain();
    expect(listFiles(env.out)).toEqual([join('coll-idcoll', 'x', 'report-2 (2).md'), join('coll-idcoll', 'x', 'report-2.md')]);
  });

  // Its memory bound (peak RSS <= 150 MiB for a 1 GiB file) is a target of the bench's
  // `downloads` scenario (npm run bench -- --only downloads), measured in a process of its own.
  it('streams a 200 MB file to disk whole: the bytes the simulator serves', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'big', { big: 'large @files=csv @size=200mb' });
    await runItems(env, batch);
    const d = downloader(env);
    d.kick(batch);
    const summary = await d.drain();
    expect(summary.downloaded).toBe(1);
    const [f] = await env.store.filesForBatch(batch.id);
    const want = env.sim.ledger().files.find((x) => x.id === f!.id);
    expect(want?.bytes).toBe(200 * 1024 * 1024);
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const c of createReadStream(f!.path!) as AsyncIterable<Buffer>) {
      hash.update(c);
      bytes += c.length;
    }
    expect({ bytes, sha256: hash.digest('hex') }).toEqual({ bytes: want!.bytes, sha256: want!.sha256 });
    expect(f).toMatchObject({ bytes: want!.bytes, sha256: want!.sha256 });
  });

  it('retries 5xx answers and connections dropped mid-body until every hash matches', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'faulty', { a: 'q @files=md,csv,png,pdb @size=256kb', b: 'q @files=md,csv,png,pdb @size=256kb' });
    await runItems(env, batch);
    env.sim.faults.set({ error5xxBefore: 0.3, dropAfter: 0.4, routes: ['GET /files/:id'] });
    const events: DownloadEvent[] = [];
    const d = downloader(env, { retry: { attempts: 20, baseDelayMs: 1, maxDelayMs: 5 }, onEvent: (e) => events.push(e) });
    d.kick(batch);
    const summary = await d.drain();
    const injected = env.sim.counters().faultsInjected;
    expect(injected.dropAfter).toBeGreaterThan(0);
    expect(injected.error5xxBefore).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'file-retry')).toBe(true);
    expect(summary).toMatchObject({ downloaded: 8, failed: 0 });
    env.sim.faults.clear();
    for (const f of (await env.store.filesForBatch(batch.id))) {
      expect(sha(readFileSync(f.path!))).toBe(sha(await served(f.url)));
      expect(f.sha256).toBe(sha(readFileSync(f.path!)));
    }
    expect(listFiles(env.out).some((p) => p.endsWith('.partial'))).toBe(false);
  });

  it('marks a file failed with the reason once its retries are spent', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'dead', { a: 'q @files=md' });
    await runItems(env, batch);
    env.sim.faults.set({ dropAfter: 1, routes: ['GET /files/:id'] });
    const d = downloader(env, { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    d.kick(batch);
    const summary = await d.drain();
    expect(summary.failed).toBe(1);
    const [f] = (await env.store.filesForBatch(batch.id));
    expect(f).toMatchObject({ status: 'failed', path: null });
    expect(f!.error).toMatch(/gave up after 2 attempts/);
    expect(listFiles(env.out)).toEqual([]);
    // The same downloader does not loop on it; a new one (files pull) tries again.
    d.kick(batch);
    expect((await d.drain()).failed).toBe(1);
    env.sim.faults.clear();
    const again = downloader(env);
    again.kick(batch);
    expect((await again.drain()).downloaded).toBe(1);
  });

  it('retries a file on one budget: request and body together, with no retries of the client inside it', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'budget', { a: 'q @files=md' });
    await runItems(env, batch);
    const before = env.sim.counters().requestsByRoute['GET /files/:id'] ?? 0;
    env.sim.faults.set({ error5xxBefore: 1, routes: ['GET /files/:id'] });
    const d = downloader(env, { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    d.kick(batch);
    const summary = await d.drain();
    expect(summary.failed).toBe(1);
    expect(summary.problems[0]!.reason).toMatch(/HTTP 5\d\d.*gave up after 3 attempts/);
    // Three requests in all (the client's own loop would have made up to 6 of each).
    expect(env.sim.counters().requestsByRoute['GET /files/:id']! - before).toBe(3);
  });

  it("waits the service's Retry-After between attempts, on the injected clock", async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'later', { a: 'q @files=md' });
    await runItems(env, batch);
    env.sim.faults.set({ rate429: 1, retryAfterSeconds: 7, routes: ['GET /files/:id'] });
    const slept: number[] = [];
    const clock: Clock = { now: () => Date.now(), sleep: async (ms) => void slept.push(ms) };
    const events: DownloadEvent[] = [];
    const d = downloader(env, { clock, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 60_000 }, onEvent: (e) => events.push(e) });
    d.kick(batch);
    expect((await d.drain()).failed).toBe(1);
    expect(slept).toEqual([7000, 7000]);
    const reasons = events.flatMap((e) => (e.type === 'file-retry' ? [e.reason] : []));
    expect(reasons).toHaveLength(2);
    for (const r of reasons) expect(r).toMatch(/^HTTP 429 GET \/files\/\S+: rate limited/);
  });

  it('marks files expired after the simulator clock passed 30 days', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'old', { a: 'q @files=md,csv' });
    await runItems(env, batch);
    env.sim.clock.advance(31 * 86_400_000);
    const d = downloader(env, { clock: { now: () => env.sim.clock.now(), sleep } });
    d.kick(batch);
    const summary = await d.drain();
    expect(summary).toMatchObject({ downloaded: 0, expired: 2, missing: 0 });
    for (const f of (await env.store.filesForBatch(batch.id))) {
      expect(f.status).toBe('expired');
      expect(f.error).toMatch(/404.*expired at/);
    }
  });

  it("marks another account's file missing (404 while young)", async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'theirs', { a: 'q @files=md' });
    const bobRun = await (async () => {
      const { ServiceClient } = await import('../../src/api/index.js');
      const bob = new ServiceClient({ baseUrl: env.sim.url, apiKey: BOB });
      try {
        const r = await bob.createRun({ input: 'bob @files=md' }, { idempotencyKey: 'bob-1' });
        return await bob.followRun(r.id);
      } finally {
        await bob.close();
      }
    })();
    const ref = bobRun.output!.tool_results!.flatMap((t) => t.files ?? [])[0]!;
    await finishItems(env.store, batch, { a: finishedRun(bobRun.id, [{ id: ref.id, url: ref.url, name: ref.name ?? null }]) });
    const d = downloader(env);
    d.kick(batch);
    const summary = await d.drain();
    expect(summary).toMatchObject({ missing: 1, expired: 0 });
    expect(summary.problems[0]!.reason).toMatch(/another account's file/);
    expect((await env.store.getFile(batch.id, ref.id))!.status).toBe('missing');
  });

  it('sends no key to a file URL on another origin', async () => {
    env = await newEnv();
    const seen: IncomingHttpHeaders[] = [];
    const other = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 5 });
      res.end('hello');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      const port = (other.address() as AddressInfo).port;
      const batch = await newBatch(env.store, 'cross', { a: 'q @files=md' });
      // A presigned-style link on another origin (localhost ≠ 127.0.0.1: another origin).
      await runItems(env, batch, { a: [{ id: 'ext1', url: `http://localhost:${port}/signed/ext1?sig=abc`, name: null }] });
      const d = downloader(env);
      d.kick(batch);
      const summary = await d.drain();
      expect(summary.downloaded).toBe(2);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.authorization).toBeUndefined();
      expect(JSON.stringify(seen[0])).not.toContain(ALICE);
      const ext = (await env.store.getFile(batch.id, 'ext1'))!;
      expect(ext.path!.endsWith(`${sep}ext1.txt`)).toBe(true);
      expect(readFileSync(ext.path!, 'utf8')).toBe('hello');
      // The simulator's own file did get the key (else it would have answered 401).
      expect(env.sim.counters().requestsByRoute['GET /files/:id']).toBeGreaterThan(0);
    } finally {
      await new Promise((r) => other.close(r));
    }
  });

  it('kick is cheap to call often and never loses a file recorded between scans', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'kicks', { a: 'q @files=md', b: 'q @files=csv' });
    const d = downloader(env);
    d.kick(batch);
    await runItems(env, batch);
    let scans = 0;
    const forBatch = env.store.filesForBatch.bind(env.store);
    env.store.filesForBatch = (...a) => (scans++, forBatch(...a));
    for (let i = 0; i < 1000; i++) d.kick(batch);
    expect(scans).toBeLessThanOrEqual(1);
    const summary = await d.drain();
    expect(summary.downloaded).toBe(2);
    expect(scans).toBeLessThanOrEqual(2);
  });

  it('spaces the scans of a batch by KICK_INTERVAL_MS of its own clock, not the wall clock', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'spaced', { a: 'q @files=md' });
    await runItems(env, batch);
    const clock = virtualClock();
    const at: number[] = [];
    const forBatch = env.store.filesForBatch.bind(env.store);
    env.store.filesForBatch = (...a) => (at.push(clock.now()), forBatch(...a));
    const d = downloader(env, { clock });
    d.kick(batch);
    d.kick(batch);
    // The second scan waits on the clock: a virtual wait ends within a few turns of the loop.
    for (let i = 0; i < 50 && at.length < 2; i++) await new Promise((r) => setImmediate(r));
    expect(at).toHaveLength(2);
    expect(at[1]! - at[0]!).toBe(KICK_INTERVAL_MS);
    expect((await d.drain()).downloaded).toBe(1);
  });

  it('reports a store failure as an internal problem instead of an unhandled rejection', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'broken-store', { a: 'q @files=md' });
    await runItems(env, batch);
    env.store.getFile = () => Promise.reject(new Error('database is locked'));
    const d = downloader(env);
    d.kick(batch);
    const summary = await d.drain();
    expect(summary).toMatchObject({ failed: 1, problems: [{ status: 'failed', reason: 'internal: database is locked' }] });
  });

  it('stop() aborts downloads in flight, leaving rows pending and no temp files', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'stopped', { a: 'q @files=csv @size=1gb' });
    await runItems(env, batch);
    const d = downloader(env, {
      onEvent: (e) => {
        if (e.type === 'file-start') setTimeout(() => d.stop(), 100);
      },
    });
    d.kick(batch);
    const summary = await d.drain();
    expect(summary).toMatchObject({ downloaded: 0, failed: 0 });
    expect((await env.store.filesForBatch(batch.id))[0]!.status).toBe('pending');
    await new Promise((r) => setTimeout(r, 50));
    expect(listFiles(env.out)).toEqual([]);
  });
});
