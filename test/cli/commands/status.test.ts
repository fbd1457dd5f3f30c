import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILED_LISTED } from '../../../src/runner/status.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

/** 13 items that fail at the service and 2 that complete, in file order. */
const FAILING = Array.from({ length: 13 }, (_, i) => `f${String(i + 1).padStart(2, '0')}`);

describe('resq status and the run summary: failed items named with why', () => {
  let sim: Sim;
  let db: string;
  let run: Awaited<ReturnType<typeof runInProcess>>;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, ['id,question', 'ok1,fine', ...FAILING.map((id) => `${id},breaks @fail`), 'ok2,fine too'].join('\n'));
    db = join(dir, 'r.db');
    run = await runInProcess(['run', q, '--db', db, '--batch', 'st', '--no-download', '--concurrency', '4'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
  });
  afterAll(async () => sim.close());

  it('the run summary lists the first failed items with the service\'s code and message, then the count and the command for all', () => {
    expect(run.code).toBe(1);
    const out = run.stdout + run.stderr;
    expect(out).toContain('failed or errored: 13');
    expect(out).toContain('  f01 (failed): agent_error: simulated failure (@fail)');
    expect(out).toContain(`  f${FAILED_LISTED} (failed): agent_error`);
    expect(out).not.toContain(`  f${FAILED_LISTED + 1} (failed)`);
    expect(out).toContain(`  … and 3 more; all of them: resq export st --failed --db ${db}`);
  });

  it('resq status says the same', async () => {
    const r = await runInProcess(['status', 'st', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('failed or errored: 13');
    expect(r.stdout).toContain('  f01 (failed): agent_error: simulated failure (@fail)');
    expect(r.stdout).toContain('  … and 3 more; all of them: resq export st --failed');
  });

  it('resq status --json carries the listed failed items and their total', async () => {
    const r = await runInProcess(['status', 'st', '--db', db, '--json']);
    const s = JSON.parse(r.stdout) as { failed: { id: string }[]; failedTotal: number; counts: { failed: number } };
    expect(s.failedTotal).toBe(13);
    expect(s.counts.failed).toBe(13);
    expect(s.failed.map((f) => f.id)).toEqual(FAILING.slice(0, FAILED_LISTED));
    expect(s.failed[0]).toEqual({ id: 'f01', question: 'breaks @fail', status: 'failed', errorCode: 'agent_error', error: 'simulated failure (@fail)' });
  });

  it('the command it names lists every one of them', async () => {
    const r = await runInProcess(['export', 'st', '--failed', '--db', db]);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; error_code: string });
    expect(rows.map((x) => x.id)).toEqual(FAILING);
    expect(new Set(rows.map((x) => x.error_code))).toEqual(new Set(['agent_error']));
  });

  it('resq show gives the failure in full on the item and its run', async () => {
    const r = await runInProcess(['show', 'st', 'f01', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('error (agent_error): simulated failure (@fail)');
    expect(r.stdout).toMatch(/step 0: failed in [\d.]+ s\n {4}failed \(agent_error\): simulated failure \(@fail\)/);
    const json = JSON.parse((await runInProcess(['show', 'st', 'f01', '--db', db, '--json'])).stdout) as { item: { errorCode: string }; runs: { errorCode: string; error: string }[] };
    expect(json.item.errorCode).toBe('agent_error');
    expect(json.runs[0]).toMatchObject({ errorCode: 'agent_error', error: 'simulated failure (@fail)' });
  });

  it('a batch with nothing failed lists nothing', async () => {
    const dir = tempDir();
    const q = join(dir, 'ok.csv');
    writeFileSync(q, 'id,question\na,fine\n');
    const okDb = join(dir, 'ok.db');
    const r = await runInProcess(['run', q, '--db', okDb, '--no-download'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('failed or errored');
    const s = JSON.parse((await runInProcess(['status', '--db', okDb, '--json'])).stdout) as { failed: unknown[]; failedTotal: number };
    expect(s).toMatchObject({ failed: [], failedTotal: 0 });
  });
});
