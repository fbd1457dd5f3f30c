import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryIo } from '../../../src/cli/io.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';
import { waitUntil } from '../../support/wait-until.js';

// A batch's whole life from the terminal: run a few (--limit), run again with the batch's
// own settings, look (batches, show), retry, cancel. In-process, the simulator over HTTP.
describe('a batch from the terminal', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 30, seed: 3 });
  });
  afterAll(async () => sim.close());

  /**
   * Ctrl-C for an in-process run of batch `q` once `n` of its runs are in flight: admitted at
   * the simulator (questions starting with `prefix`), then recorded in the database `db`.
   */
  function stopOnceInFlight(db: string, prefix: string, n: number): (io: MemoryIo) => void {
    const admitted = (): number => Object.entries(sim.counters().admissionsByInput).filter(([q]) => q.startsWith(prefix)).reduce((k, [, c]) => k + c, 0);
    const recorded = async (): Promise<void> => {
      const store = await openStore(db);
      try {
        const batch = (await store.findBatch('q'))!;
        await waitUntil(async () => (await store.listItems(batch.id)).filter((i) => i.state === 'running' && i.runId).length >= n, `${n} run(s) of q recorded in flight`);
      } finally {
        await store.close();
      }
    };
    return (io) => void waitUntil(() => admitted() >= n, `${n} run(s) of ${prefix}admitted`).then(recorded).then(() => io.stop('SIGINT'));
  }

  function setup(rows: string[]) {
    const dir = tempDir();
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, `id,question\n${rows.join('\n')}\n`);
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'confirm_scope:\n  approve_max_cost: 10\n  otherwise: decline\n');
    return { dir, questions, policy, db: join(dir, 'resq.db'), env: { RESQ_API_KEY: 'sim-key-alice', RESQ_BASE_URL: sim.url } };
  }

  it('--limit sends only the next N; a later run keeps the batch\'s policy and out folder and says what a flag changed', async () => {
    const s = setup(Array.from({ length: 6 }, (_, i) => `q${i},Life ${s0()} ${i} @confirm=3`));
    const first = await runInProcess(['run', s.questions, '--db', s.db, '--policy', s.policy, '--out', join(s.dir, 'files'), '--limit', '2', '--json'], s.env);
    expect(first.code).toBe(0); // what --limit asked for completed; four left queued as asked
    const summary = JSON.parse(first.stdout.trim().split('\n').at(-1)!);
    expect(summary.counts).toMatchObject({ completed: 2, queued: 4 });
    expect(summary.next).toEqual({ why: 'no-worker', text: `no worker running: resq resume q --db ${s.db}`, command: `resq resume q --db ${s.db}` });
    expect(summary.etaS).toBeNull();
    const text = await runInProcess(['run', s.questions, '--db', s.db, '--limit', '1'], s.env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`--limit 1: done as asked; 3 items left queued (or run again with --limit N); to go on: resq resume q --db ${s.db}\n`);
    expect(text.stdout).toContain(`no ETA: no worker running: resq resume q --db ${s.db}`);
    // Again without --policy and --out: the batch keeps them (no pause is held).
    const second = await runInProcess(['run', s.questions, '--db', s.db, '--concurrency', '3'], s.env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('concurrency: 8 → 3');
    expect(second.stdout).not.toContain('--limit');
    expect(second.stderr).not.toContain('policy: replaced');
    const store = SqliteStore.open(s.db);
    const batch = (await store.findBatch('q'))!;
    expect(batch.settings.download.out).toBe(join(s.dir, 'files'));
    expect(batch.settings.concurrency).toBe(3);
    expect(batch.policy).toMatchObject({ confirm_scope: { approve_max_cost: 10 } });
    await store.close();
  });

  it('--limit that is not a whole number from 1 is a user error: one line, exit 2, nothing recorded', async () => {
    const s = setup([`a,Never sent ${s0()}`]);
    for (const bad of ['0', '-3', '1.5']) {
      const r = await runInProcess(['run', s.questions, '--db', s.db, '--limit', bad], s.env);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(`resq: --limit: must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, got ${bad}`);
    }
    expect(existsSync(s.db)).toBe(false);
  });

  it('batches lists every batch; show prints an item with its pause, the decision and who made it', async () => {
    const s = setup([`a,Plan ${s0()} @confirm=50`, `b,Plain ${s0()}`]);
    expect((await runInProcess(['run', s.questions, '--db', s.db, '--policy', s.policy], s.env)).code).toBe(0);
    const list = await runInProcess(['batches', '--db', s.db], s.env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^batch\s+kind\s+created/);
    expect(list.stdout).toMatch(/\nq\s+runs\s+.*\s+2\s+2 done/);
    const show = await runInProcess(['show', 'q', 'a', '--db', s.db], s.env);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('paused on confirm_scope:');
    expect(show.stdout).toContain('cost: 50');
    expect(show.stdout).toMatch(/decided declined by the policy \(.+\), \d{4}-/);
    const missing = await runInProcess(['show', 'q', 'zz', '--db', s.db], s.env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('has no item "zz"; its items include a, b');
  });

  it('retry runs failed items again as new runs and keeps the earlier ones in the history', async () => {
    const s = setup([`ok,Fine ${s0()}`, `bad,Doomed ${s0()} @fail`]);
    expect((await runInProcess(['run', s.questions, '--db', s.db], s.env)).code).toBe(1);
    const before = sim.counters().runsAdmitted;
    const again = await runInProcess(['retry', 'q', '--db', s.db], s.env);
    expect(again.stderr).toContain('retrying 1 item of batch q as new runs');
    expect(again.code).toBe(1); // it fails again, by design of the question
    expect(sim.counters().runsAdmitted - before).toBe(1);
    const store = SqliteStore.open(s.db);
    const batch = (await store.findBatch('q'))!;
    expect((await store.runChain(batch.id, 'bad')).length).toBe(2);
    expect((await store.runChain(batch.id, 'ok')).length).toBe(1);
    expect((await store.getItem(batch.id, 'bad'))?.attempt).toBe(1);
    await store.close();
  });

  it('cancel: nothing queued is sent, runs in flight are cancelled at the service, a later run sends nothing', async () => {
    const word = s0();
    const s = setup(Array.from({ length: 5 }, (_, i) => `c${i},Long ${word} ${i} @duration=20s`));
    expect((await runInProcess(['run', s.questions, '--db', s.db, '--dry-run'], s.env)).code).toBe(0);
    // Two runs go out and are left in flight (a worker that left at once).
    const partial = await runInProcess(['run', s.questions, '--db', s.db, '--limit', '2', '--no-wait', '--follow', 'poll'], s.env, {
      onIo: stopOnceInFlight(s.db, `Long ${word} `, 2),
    });
    expect(partial.code).toBe(130);
    const cancel = await runInProcess(['cancel', 'q', '--db', s.db], s.env);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain('3 queued items will not be sent; 2 runs in flight cancelled at the service');
    const before = sim.counters().runsAdmitted;
    const after = await runInProcess(['run', s.questions, '--db', s.db, '--json'], s.env);
    expect(sim.counters().runsAdmitted).toBe(before);
    expect(JSON.parse(after.stdout.trim().split('\n').at(-1)!).counts).toMatchObject({ cancelled: 5, queued: 0, running: 0 });
  });

  it('cancel names the batch in its undo hint, and that one command runs every cancelled item again', async () => {
    const s = setup(Array.from({ length: 4 }, (_, i) => `u${i},Undo ${s0()} ${i}`));
    expect((await runInProcess(['run', s.questions, '--db', s.db, '--dry-run'], s.env)).code).toBe(0);
    const cancel = await runInProcess(['cancel', 'q', '--db', s.db], s.env);
    expect(cancel.code, cancel.stderr).toBe(0);
    const undo = /to undo: resq (.*)$/m.exec(cancel.stdout)?.[1];
    expect(undo).toBe(`retry q --cancelled --db ${s.db}`);
    const again = await runInProcess(undo!.split(' '), s.env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('batch q: 4 items — 4 completed');
  });

  it('on a --sim batch the undo hint runs as pasted (the batch keeps its simulator)', async () => {
    const s = setup(Array.from({ length: 2 }, (_, i) => `v${i},Undo sim ${s0()} ${i}`));
    // One run (the simulator's state is kept beside the database), one left queued.
    // A --limit run that completed what it was asked exits 0.
    expect((await runInProcess(['run', s.questions, '--db', s.db, '--limit', '1', '--sim'])).code).toBe(0);
    const cancel = await runInProcess(['cancel', 'q', '--db', s.db, '--sim']);
    expect(cancel.code, cancel.stderr).toBe(0);
    const undo = /to undo: resq (.*)$/m.exec(cancel.stdout)?.[1];
    expect(undo).toBe(`retry q --cancelled --db ${s.db}`);
    const again = await runInProcess(undo!.split(' '));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('batch q: 2 items — 2 completed');
  });

  it('--skip-invalid says what it skipped: in the summary, in status, in export --invalid; exit 0 when the rest completed', async () => {
    const s = setup([`ok,Fine ${s0()}`, 'bad,', `ok2,Fine too ${s0()}`]);
    const run = await runInProcess(['run', s.questions, '--db', s.db, '--skip-invalid'], s.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('rows skipped as invalid (--skip-invalid): 1');
    expect(run.stdout).toMatch(/q\.csv:3: question: /);
    const status = await runInProcess(['status', '--db', s.db, '--json'], s.env);
    expect(JSON.parse(status.stdout).skipped).toEqual([expect.stringMatching(/q\.csv:3: question: /)]);
    const exp = await runInProcess(['export', '--db', s.db, '--invalid'], s.env);
    expect(exp.code).toBe(0);
    expect(JSON.parse(exp.stdout.trim())).toMatchObject({ file: s.questions, line: 3, field: 'question' });
  });

  it('after --skip-invalid, a row added and the file run again: the --append hint carries --db, --sim and --skip-invalid, and runs as pasted', async () => {
    const s = setup([`ok,Fine ${s0()}`, 'bad,', `ok2,Fine too ${s0()}`]);
    expect((await runInProcess(['run', s.questions, '--db', s.db, '--skip-invalid', '--sim'])).code).toBe(0);
    writeFileSync(s.questions, `${readFileSync(s.questions, 'utf8')}new,Added ${s0()}\n`);
    const again = await runInProcess(['run', s.questions, '--db', s.db, '--skip-invalid', '--sim']);
    expect(again.code).toBe(2);
    const hint = /runs the new ones: resq (run .*--append.*)$/m.exec(again.stderr)?.[1];
    expect(hint).toBe(`run ${s.questions} --append --skip-invalid --db ${s.db} --sim`);
    const appended = await runInProcess(hint!.split(' '));
    expect(appended.code, appended.stderr).toBe(0);
    expect(appended.stdout).toContain('3 completed');
  });

  it('cancel on a service without a cancel route says so and leaves the runs', async () => {
    const word = s0();
    const s = setup([`x,Long ${word} @duration=20s`]);
    const partial = await runInProcess(['run', s.questions, '--db', s.db, '--no-wait', '--follow', 'poll'], s.env, {
      onIo: stopOnceInFlight(s.db, `Long ${word} `, 1),
    });
    expect(partial.code).toBe(130);
    const cancel = await runInProcess(['cancel', 'q', '--db', s.db, '--cancel-route', '/runs/{id}/stop'], s.env);
    expect(cancel.code).toBe(1);
    expect(cancel.stdout).toContain('1 run(s) left to finish on their own');
  });
});

let counter = 0;
/** A unique word, so questions of different tests never collide in the shared simulator. */
function s0(): string {
  return `u${process.pid}-${counter++}`;
}
