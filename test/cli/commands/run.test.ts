import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { ServiceClient } from '../../../src/api/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { ROOT, runCliChild, tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

describe('resq run', () => {
  let sim: Sim;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 30 });
    env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
  });
  afterAll(async () => sim.close());

  it('--dry-run validates and records the batch, submits nothing, needs no service', async () => {
    const dir = tempDir();
    const db = join(dir, 'r.db');
    const r = await runCliChild(['run', join(ROOT, 'pipelines/demo-questions.csv'), '--db', db, '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const msg = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}');
    expect(msg).toMatchObject({ type: 'dry-run', batch: 'demo-questions', items: 11, counts: { queued: 11 } });
    const store = await openStore(db);
    expect((await store.findBatch('demo-questions'))?.totalItems).toBe(11);
    await store.close();
  });

  it('--skip-invalid runs the valid rows and records the rejected ones', async () => {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, 'id,question\na,first\nb,\nc,third\n');
    const db = join(dir, 'r.db');
    const refused = await runCliChild(['run', q, '--db', db], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${q}:3: question: empty`);
    const r = await runCliChild(['run', q, '--db', db, '--skip-invalid'], env);
    // Rows left out were asked to be left out and are listed: every valid item completed is exit 0 (exit 1 means failures).
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`skipped: ${q}:3`);
    expect(r.stdout).toContain('2 completed');
    expect(r.stdout).toContain('rows skipped as invalid (--skip-invalid): 1');
    expect(r.stdout).toContain(`${q}:3: question: empty`);
  });

  it('resumes a batch by name and refuses a question set that changed', async () => {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, 'question\none\ntwo\n');
    const db = join(dir, 'r.db');
    expect((await runCliChild(['run', q, '--db', db, '--batch', 'b1'], env)).code).toBe(0);
    const again = await runCliChild(['run', q, '--db', db, '--batch', 'b1'], env);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('resuming batch b1');
    expect(sim.counters().admissionsByInput.one).toBe(1);
    appendFileSync(q, 'three\n');
    const changed = await runCliChild(['run', q, '--db', db, '--batch', 'b1'], env);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('changed since batch "b1"');
    expect(changed.stderr).toContain('--batch NEW_NAME');
  });

  it('--append runs the new rows of a grown question set once; a changed row is refused naming its line', async () => {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, 'id,question\ng1,grow one\ng2,grow two\n');
    const db = join(dir, 'r.db');
    expect((await runCliChild(['run', q, '--db', db], env)).code).toBe(0);
    appendFileSync(q, 'g3,grow three\n');
    const grown = await runCliChild(['run', q, '--db', db, '--append'], env);
    expect(grown.code, grown.stderr).toBe(0);
    expect(grown.stderr).toContain('batch q: 1 new item appended (2 unchanged)');
    expect(grown.stdout).toContain('3 items — 3 completed');
    const admitted = sim.counters().admissionsByInput;
    expect(['grow one', 'grow two', 'grow three'].map((k) => admitted[k])).toEqual([1, 1, 1]);
    writeFileSync(q, 'id,question\ng1,grow one\ng2,grow two (edited)\ng3,grow three\ng4,grow four\n');
    const changed = await runCliChild(['run', q, '--db', db, '--append'], env);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain(`${q}:3: question: changed since batch "q" was started (item "g2", line 3 then)`);
    expect(sim.counters().admissionsByInput['grow four']).toBeUndefined();
  });

  it('exits 3 when nothing failed but something is held, and 1 when something failed', async () => {
    const dir = tempDir();
    const held = join(dir, 'held.jsonl');
    writeFileSync(held, '{"question":"ok?"}\n{"question":"plan @confirm=3"}\n');
    expect((await runCliChild(['run', held, '--db', join(dir, 'a.db')], env)).code).toBe(3);
    const failed = join(dir, 'failed.jsonl');
    writeFileSync(failed, '{"question":"doomed @fail"}\n{"question":"plan @confirm=3"}\n');
    expect((await runCliChild(['run', failed, '--db', join(dir, 'b.db')], env)).code).toBe(1);
  });

  it('prints one JSON object per line with --json', async () => {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, 'question\nhello @files=md\n');
    const r = await runCliChild(['run', q, '--db', join(dir, 'r.db'), '--json', '--no-download'], env);
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(events[0]?.type).toBe('start');
    expect(events.map((e) => e.type)).toContain('item');
    expect(events.at(-1)?.type).toBe('summary');
  });

  it('runs a pipeline file with its policy', async () => {
    const dir = tempDir();
    const r = await runCliChild(['run', join(ROOT, 'pipelines/demo.yaml'), '--db', join(dir, 'r.db'), '--out', join(dir, 'out'), '--base-url', sim.url, '--no-download'], env);
    expect(r.code).toBe(1); // the demo has a failing question on purpose
    expect(r.stdout).toContain('9 completed, 1 failed, 1 held');
  });

  it('downloads every file while the batch runs, hashed, inside --out', async () => {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, 'id,question\nf1,"all kinds @files=md,csv,png,pdb"\nf2,no name @files=png:noname\n../evil,hostile @files=md @filename=..%2F..%2Fescape.md\n');
    const out = join(dir, 'out');
    const db = join(dir, 'r.db');
    const r = await runCliChild(['run', q, '--db', db, '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('files: 6 downloaded, 0 pending');
    const store = await openStore(db);
    const client = new ServiceClient({ baseUrl: sim.url, apiKey: sim.keys[0] ?? '' });
    try {
      const batch = await store.findBatch('q');
      if (!batch) throw new Error('no batch');
      const files = await store.filesForBatch(batch.id);
      expect(files).toHaveLength(6);
      for (const f of files) {
        expect(f.status).toBe('downloaded');
        const path = f.path ?? '';
        expect(relative(out, path).startsWith('..')).toBe(false);
        const onDisk = createHash('sha256').update(readFileSync(path)).digest('hex');
        expect(onDisk).toBe(f.sha256);
        const served = await client.openFile(f.url);
        const h = createHash('sha256');
        for await (const chunk of served.body) h.update(chunk as Buffer);
        expect(h.digest('hex')).toBe(f.sha256);
      }
    } finally {
      await client.close();
      await store.close();
    }
  });

  it('runs a .tsv file whose header says "Question", saying so once as a notice', async () => {
    const dir = tempDir();
    const q = join(dir, 'mine.tsv');
    writeFileSync(q, 'QUESTION\tnote, more\nfirst\tx\nsecond\ty\n');
    const r = await runCliChild(['run', q, '--db', join(dir, 'r.db'), '--dry-run'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('recorded with 2 items');
    expect(r.stderr.match(/notice: /g)).toHaveLength(1);
    expect(r.stderr).toContain(`notice: ${q}:1: header: read "QUESTION" as "question"`);
  });

  it('refuses a base URL that does not end in /api/v1', async () => {
    const r = await runCliChild(['run', join(ROOT, 'pipelines/demo-questions.csv'), '--db', join(tempDir(), 'r.db'), '--base-url', 'http://127.0.0.1:1/v2'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('must end in /api/v1');
  });
});

describe('resq run: a refused run leaves nothing behind, a worker keeps the batch\'s settings (issues 20.4, 20.6)', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
  });
  afterAll(async () => sim.close());

  /** A loopback URL nothing listens on (the port was free a moment ago). */
  async function closedUrl(): Promise<string> {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const port = (s.address() as { port: number }).port;
    await new Promise<void>((r) => s.close(() => r()));
    return `http://127.0.0.1:${port}/api/v1`;
  }

  function questions(): { dir: string; q: string } {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, 'id,question\na,one\nb,two\n');
    return { dir, q };
  }

  async function storedBatch(db: string) {
    const store = await openStore(db);
    const b = await store.findBatch('q');
    await store.close();
    return b;
  }

  it('a rejected key records no batch and leaves no new database', async () => {
    const { dir, q } = questions();
    const db = join(dir, 'resq.db');
    const r = await runInProcess(['run', q, '--db', db, '--base-url', sim.url], { RESQ_API_KEY: 'wrong-key' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('refused the API key');
    expect(existsSync(db)).toBe(false);
  });

  it('a mistyped --base-url is not saved into the batch; an explicit RESQ_BASE_URL wins over a stored URL and says so', { timeout: 60_000 }, async () => {
    const { dir, q } = questions();
    const db = join(dir, 'resq.db');
    const typo = await closedUrl();
    // A dry run asks the service nothing and records the batch with the URL it was given.
    expect((await runInProcess(['run', q, '--db', db, '--dry-run', '--base-url', typo])).code).toBe(0);
    expect((await storedBatch(db))?.baseUrl).toBe(typo);
    // A later run with another unreachable URL and more concurrency: refused, nothing of it stored.
    const other = await closedUrl();
    const refused = await runInProcess(['run', q, '--db', db, '--base-url', other, '--concurrency', '3'], { RESQ_API_KEY: sim.keys[0] });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`cannot reach ${other}`);
    expect(await storedBatch(db)).toMatchObject({ baseUrl: typo, settings: { concurrency: 8 } });
    // The environment's URL is used over the stored one, said once; the run completes.
    const ok = await runInProcess(['run', q, '--db', db], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain(`RESQ_BASE_URL (${sim.url}) is used, not the batch's stored base URL (${typo})`);
    expect(ok.stdout).toContain('2 completed');
  });

  it('a stored URL used without a key names the missing key', async () => {
    const { dir, q } = questions();
    const db = join(dir, 'resq.db');
    expect((await runInProcess(['run', q, '--db', db, '--dry-run', '--base-url', sim.url])).code).toBe(0);
    for (const args of [['run', q, '--db', db], ['resume', 'q', '--db', db]]) {
      const r = await runInProcess(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`RESQ_API_KEY is not set: the batch runs on its stored base URL ${sim.url}, which needs the API key in RESQ_API_KEY`);
    }
  });

  it("a worker's own --out is its own: the batch keeps its folder, and status shows the batch's", async () => {
    const { dir, q } = questions();
    const db = join(dir, 'resq.db');
    const env = { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url };
    expect((await runInProcess(['run', q, '--db', db, '--out', join(dir, 'first'), '--dry-run'], env)).code).toBe(0);
    const second = await runInProcess(['resume', 'q', '--db', db, '--out', join(dir, 'second')], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('out:');
    expect((await storedBatch(db))?.settings.download.out).toBe(join(dir, 'first'));
    const status = await runInProcess(['status', 'q', '--db', db]);
    expect(status.stdout).toContain(join(dir, 'first'));
    expect(status.stdout).not.toContain(join(dir, 'second'));
  });
});
