import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore } from '../../src/store/index.js';
import { collect, tempDir } from '../support/cli.js';
import { runModels, spawnModels } from './support/spawn.js';

/** Writes `text` to `name` in `dir` and returns the path. */
function writeInput(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('resq models (in-process, and a real child where it is killed)', () => {
  let sim: Sim;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startSim({ modelJobMs: 1200 });
    env = { RESQ_API_KEY: sim.keys[0]! };
  });
  afterAll(async () => sim.close());

  it('describes a model as a table, and as the raw description with --json', async () => {
    const text = await runModels(['models', 'describe', 'fold', '--base-url', sim.url], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/sequence\s+string\s+yes/);
    expect(text.stdout).toContain('tags: ["gpu","structure"]');
    const json = await runModels(['models', 'describe', 'echo', '--base-url', sim.url, '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 'echo', version: 'sim-1', gpu: false, inputs: [{ name: 'text' }, { name: 'repeat' }, { name: 'shout' }] });
  });

  it('runs one model: outputs printed, exit 1 for a failed job, exit 2 for a bad input or no service', async () => {
    const ok = await runModels(['models', 'run', 'echo', '--input', 'text=hey', '--input', 'repeat=2', '--base-url', sim.url], env);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/succeeded \(HTTP 200, credits 1\)[\s\S]*text\s+hey hey/);
    const failed = await runModels(['models', 'run', 'descriptors', '--inputs', '{"smiles":"INVALID"}', '--base-url', sim.url, '--json'], env);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ status: 'failed', error: "could not parse SMILES 'INVALID'" });
    const bad = await runModels(['models', 'run', 'echo', '--input', 'repeat=lots', '--base-url', sim.url], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--input: repeat: expected an integer, got "lots"');
    const none = await runModels(['models', 'run', 'echo', '--input', 'text=x'], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('RESQ_BASE_URL');
  });

  it('refuses a bad batch file with file:line: input: reason and exit 2, sending nothing', async () => {
    const dir = tempDir();
    const file = writeInput(dir, 'in.csv', 'sequence,recycles\nMKV,1\nAAA,many\n');
    const before = sim.counters().requestsByRoute['POST /models/:id/runs'] ?? 0;
    const r = await runModels(['models', 'batch', 'fold', file, '--db', join(dir, 'x.db'), '--base-url', sim.url], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:3: recycles: expected an integer, got "many"`);
    expect(sim.counters().requestsByRoute['POST /models/:id/runs'] ?? 0).toBe(before);
  });

  it('resumes an async batch killed mid-way: no row with a known id is sent again, unknown ones only on request', async () => {
    const dir = tempDir();
    const n = 24;
    const seqs = Array.from({ length: n }, (_, i) => `crash${String.fromCharCode(65 + i)}`);
    const file = writeInput(dir, 'seqs.csv', `id,sequence\n${seqs.map((s, i) => `r${i},${s}`).join('\n')}\n`);
    const db = join(dir, 'm.db');
    const output = join(dir, 'results.jsonl');
    const args = ['models', 'batch', 'fold', file, '--db', db, '--base-url', sim.url, '--concurrency', '8', '--out', join(dir, 'out'), '--output', output, '--json'];
    const posts = () => sim.counters().requestsByRoute['POST /models/:id/runs'] ?? 0;
    const admitted = () => sim.counters().modelRunsAdmitted;
    const a0 = admitted();
    const p0 = posts();

    const child = spawnModels(args, env);
    const done = collect(child);
    let running = 0;
    child.stdout?.on('data', (d: Buffer) => {
      running += d.toString().split('\n').filter((l) => l.includes('"type":"item"') && l.includes('"state":"running"')).length;
      if (running >= 12 && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');

    const look = async () => {
      const store = await openStore(db);
      const batch = (await store.findBatch('fold-seqs'))!;
      const counts = await store.itemCounts(batch.id);
      const keys = await Promise.all((await store.listItems(batch.id)).map(async (it) => (await store.modelRun(batch.id, it.id))!.idempotencyKey));
      await store.close();
      return { counts, keys };
    };
    const atKill = await look();
    expect(atKill.counts.running + atKill.counts.completed).toBeGreaterThanOrEqual(12);
    const unknownAtKill = atKill.counts.submitting;
    const queuedAtKill = atKill.counts.queued;
    const postsAtKill = posts();

    const second = await runModels(args, env);
    expect(second.stderr).not.toContain('internal error');
    expect(second.code).toBe(unknownAtKill > 0 ? 1 : 0);
    // Only the rows never sent went out: rows with a run id were read, not re-sent.
    expect(posts() - postsAtKill).toBe(queuedAtKill);

    const third = await runModels([...args, '--resubmit-unknown'], env);
    expect(third.code, third.stderr + third.stdout.slice(-2000)).toBe(0);
    expect(posts() - postsAtKill).toBe(queuedAtKill + unknownAtKill);
    expect(admitted() - a0).toBe(n);
    expect(posts() - p0).toBeLessThanOrEqual(n + unknownAtKill);
    const byKey = sim.counters().modelRunsByKey;
    for (const k of (await look()).keys) expect(byKey[k!]).toBe(1);

    const rows = readFileSync(output, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(n);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'succeeded', error: null, credits: 11, model_run_id: expect.any(String) });
      expect(r.files).toEqual([expect.objectContaining({ role: 'structure', status: 'downloaded' })]);
    }
    const status = await runModels(['models', 'status', 'fold-seqs', '--db', db], env);
    expect(status.stdout).toContain(`credits spent: ${11 * n}`);
  });
});
