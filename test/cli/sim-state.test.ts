// `--sim` without dead ends: the built-in simulator keeps its state beside the database, so
// the hints resq prints (resume after Ctrl-C, answer then resume) work as printed.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MemoryIo } from '../../src/cli/io.js';
import { openStore } from '../../src/store/index.js';
import { collect, runCliChild, spawnCli, tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';
import { shSplit } from '../support/sh-split.js';
import { waitUntil } from '../support/wait-until.js';

/** Resolves once the batch has a run in flight (an item running), read from its database. */
async function inFlight(db: string, batchName: string): Promise<void> {
  const store = await openStore(db);
  try {
    const batch = await store.findBatch(batchName);
    await waitUntil(async () => (await store.listItems(batch!.id)).some((i) => i.state === 'running'), `a run of ${batchName} in flight`);
  } finally {
    await store.close();
  }
}

describe('--sim keeps the simulator state beside the database', () => {
  it('Ctrl-C, then `resq resume` as printed (no --sim: the batch knows): in-flight runs are picked up, none is an error', { timeout: 30_000 }, async () => {
    const dir = tempDir();
    const q = join(dir, 'slow.csv');
    writeFileSync(q, `id,question\n${Array.from({ length: 4 }, (_, i) => `s${i},slow ${i} @duration=800ms`).join('\n')}\n`);
    const db = join(dir, 'r.db');
    let io: MemoryIo | undefined;
    const running = runInProcess(['run', q, '--db', db, '--sim'], {}, { onIo: (x) => (io = x) });
    while (!io?.stderr.text.includes('batch slow: 4 items')) await new Promise((r) => setTimeout(r, 20));
    await inFlight(db, 'slow');
    io.stop('SIGINT');
    const first = await running;
    expect(first.code).toBe(130);
    expect(existsSync(`${db}.sim.json`)).toBe(true);
    const hint = /interrupted; to continue: resq (resume .*)$/m.exec(first.stderr)?.[1];
    expect(hint).toBe(`resume slow --db ${db}`);
    const resumed = await runInProcess(hint!.split(' '));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('4 items — 4 completed');
  });

  it('a --sim batch whose simulator state is gone: exit 2, the line ends with the resq sim command to serve one, pasteable', { timeout: 30_000 }, async () => {
    const dir = tempDir();
    const q = join(dir, 'gone.csv');
    writeFileSync(q, 'id,question\na,one\nb,two\n');
    const db = join(dir, 'my runs.db');
    expect((await runInProcess(['run', q, '--db', db, '--sim', '--limit', '1'])).code).toBe(0);
    rmSync(`${db}.sim.json`);
    const r = await runInProcess(['resume', 'gone', '--db', db]);
    expect(r.code, r.stderr).toBe(2);
    const said = r.stderr.trim();
    expect(said).toMatch(/its state \(.*\) is not there, so its runs are unknown; start a new batch, or serve a simulator and pass its URL as --base-url: /);
    expect(shSplit(said.split('as --base-url: ')[1]!)).toEqual(['resq', 'sim', '--db', db]);
  });

  it('the resume hint carries --sim when the batch was recorded for a service and run with --sim', { timeout: 30_000 }, async () => {
    const dir = tempDir();
    const q = join(dir, 'urlish.csv');
    writeFileSync(q, `id,question\n${Array.from({ length: 3 }, (_, i) => `s${i},slow ${i} @duration=800ms`).join('\n')}\n`);
    const db = join(dir, 'r.db');
    expect((await runInProcess(['run', q, '--db', db, '--dry-run'])).code).toBe(0);
    let io: MemoryIo | undefined;
    const running = runInProcess(['run', q, '--db', db, '--sim'], {}, { onIo: (x) => (io = x) });
    while (!io?.stderr.text.includes('batch urlish: 3 items')) await new Promise((r) => setTimeout(r, 20));
    await inFlight(db, 'urlish');
    io.stop('SIGINT');
    const first = await running;
    expect(first.code).toBe(130);
    const hint = /interrupted; to continue: resq (resume .*)$/m.exec(first.stderr)?.[1];
    expect(hint).toBe(`resume urlish --db ${db} --sim`);
    const resumed = await runInProcess(hint!.split(' '));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('3 items — 3 completed');
  });

  it('the demo\'s advice: `resq answer` then `resq resume` carries the held item on', { timeout: 30_000 }, async () => {
    const dir = tempDir();
    const q = join(dir, 'demo.csv');
    writeFileSync(q, 'id,question\nfine,plain question\nbooking,odd @tool=booking\n');
    const db = join(dir, 'r.db');
    const first = await runInProcess(['run', q, '--db', db, '--sim']);
    expect(first.code).toBe(3);
    const answered = await runInProcess(['answer', 'demo', 'booking', '--approve', '--db', db]);
    expect(answered.code).toBe(0);
    const hint = /, to send it: resq (resume .*)$/m.exec(answered.stdout)?.[1];
    expect(hint).toBe(`resume demo --db ${db}`);
    const resumed = await runInProcess(hint!.split(' '));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('2 items — 2 completed');
  });

  it('a --sim batch whose simulator state is gone is refused plainly, not turned into errors', async () => {
    const dir = tempDir();
    const q = join(dir, 'gone.csv');
    writeFileSync(q, 'id,question\na,held @confirm=3\n');
    const db = join(dir, 'r.db');
    expect((await runInProcess(['run', q, '--db', db, '--sim'])).code).toBe(3);
    const { rmSync } = await import('node:fs');
    rmSync(`${db}.sim.json`);
    const r = await runInProcess(['resume', 'gone', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/its state \(.*r\.db\.sim\.json\) is not there/);
  });

  it('keeps no state where there is no database (threads list --sim leaves nothing behind)', async () => {
    const dir = tempDir();
    const r = await runInProcess(['threads', 'list', '--sim', '--db', join(dir, 'none.db')]);
    expect(r.code).toBe(0);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir)).toEqual([]);
  });
});

/** Waits until `check` holds (a condition, not a timing: the test's timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 25));
}

/** The runs a simulator state file holds. */
function savedRuns(path: string): Array<{ chain: { input: string }; status: string }> {
  return (JSON.parse(readFileSync(path, 'utf8')) as { runs: Array<{ chain: { input: string }; status: string }> }).runs;
}

describe('two --sim processes on one batch keep the simulator whole', () => {
  it('a second --sim process is refused plainly and says how to share one; the first keeps every run', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const q = join(dir, 'pair.csv');
    // Runs far longer than the test: the first process is stopped by the test, not by its end,
    // so how slowly the second one starts on a busy machine cannot change what it meets.
    writeFileSync(q, `id,question\n${Array.from({ length: 6 }, (_, i) => `p${i},slow ${i} @duration=600000ms`).join('\n')}\n`);
    const db = join(dir, 'r.db');
    const first = spawnCli(['run', q, '--db', db, '--sim', '--concurrency', '6']);
    const firstDone = collect(first);
    const admitted = (): number => {
      try {
        return savedRuns(`${db}.sim.json`).length;
      } catch {
        return 0;
      }
    };
    await until(() => existsSync(`${db}.sim.json.lock`) && admitted() === 6);
    const second = await runCliChild(['run', q, '--db', db, '--sim']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`the built-in simulator of ${db} is in use by another resq process (pid ${first.pid}`);
    expect(second.stderr).toContain(`\`resq sim --db ${db}\``);
    expect(second.stderr).not.toContain('    at ');
    first.kill('SIGINT');
    const r = await firstDone;
    expect(r.code, r.stderr).toBe(130);
    // Every run is in the state file, once; the lock went with its process.
    expect(savedRuns(`${db}.sim.json`).map((x) => x.chain.input).sort()).toEqual(Array.from({ length: 6 }, (_, i) => `slow ${i} @duration=600000ms`));
    expect(existsSync(`${db}.sim.json.lock`)).toBe(false);
  });

  it('with `resq sim --db` serving it, two --sim processes share one simulator and its state holds every run', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const q = join(dir, 'shared.csv');
    writeFileSync(q, `id,question\n${Array.from({ length: 8 }, (_, i) => `s${i},slow ${i} @duration=400ms`).join('\n')}\n`);
    const db = join(dir, 'r.db');
    const server = spawnCli(['sim', '--db', db]);
    const served = collect(server);
    let out = '';
    server.stdout?.on('data', (d: string) => (out += d));
    await until(() => out.includes('every --sim process on this database shares it'));
    // The batch is loaded once, then two workers run it at the same time.
    expect((await runCliChild(['run', q, '--db', db, '--sim', '--dry-run'])).code).toBe(0);
    const [a, b] = await Promise.all([
      runCliChild(['run', q, '--db', db, '--sim', '--concurrency', '2']),
      runCliChild(['run', q, '--db', db, '--sim', '--concurrency', '2']),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const url = /serving (http:\/\/\S+)\/api\/v1/.exec(out)?.[1];
    const counters = (await (await fetch(`${url}/_sim/counters`)).json()) as { runsAdmitted: number };
    expect(counters.runsAdmitted).toBe(8);
    server.kill('SIGINT');
    expect((await served).code).toBe(0);
    expect(savedRuns(`${db}.sim.json`).map((r) => r.chain.input).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `slow ${i} @duration=400ms`));
    expect(existsSync(`${db}.sim.json.lock`)).toBe(false);
  });
});
