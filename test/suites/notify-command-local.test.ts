import Database from 'better-sqlite3';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventDoc } from '../../src/notify/events.js';
import { collect, runCliChild, spawnCli, tempDir } from '../support/cli.js';
import { freePort, serveUntil, simAndReceivers } from '../support/receiver.js';

// Issue 37.4, nothing the database holds runs as a program: a notify command written into a
// batch's settings by anyone who can write the database is run by no worker and by no `resq
// serve`; a command runs only in the process whose own command line gave it. The real CLI as
// child processes, the simulator over HTTP, a real SQLite file, real receivers on loopback.

const POLICY = 'confirm_scope:\n  approve_max_cost: 10\n  otherwise: hold\n';
const KEY = { RESQ_API_KEY: 'sim-key-bob' };

describe('a notify command runs only where its own command line gave it', () => {
  const { sim, receiver } = simAndReceivers({ defaultDurationMs: 50, seed: 5 });

  /** A batch `q` recorded (not run: --dry-run) with one costly plan the policy holds and one plain question. */
  async function recorded(dir: string, notifyUrl: string, duration = '50ms'): Promise<{ db: string; file: string; policy: string }> {
    const file = join(dir, 'q.csv');
    writeFileSync(file, `id,question\nh0,Costly plan @duration=${duration} @confirm=40\np0,Plain @duration=${duration}\n`);
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, POLICY);
    const db = join(dir, 'x.db');
    const res = await runCliChild(['run', file, '--db', db, '--policy', policy, '--base-url', sim().url, '--no-download', '--dry-run', '--notify', notifyUrl], KEY);
    expect(res.code, res.stderr).toBe(0);
    return { db, file, policy };
  }

  /** What anyone who can write the database does: a command put into the batch's stored notify settings. */
  function plantCommand(db: string, command: string): void {
    const w = new Database(db);
    try {
      expect(w.prepare("UPDATE batches SET settings = json_set(settings, '$.notify.command', ?) WHERE name = 'q'").run(command).changes).toBe(1);
    } finally {
      w.close();
    }
  }

  it('a worker runs no command planted in the settings row, and runs the one its own --notify-command gave it', async () => {
    const r = await receiver();
    const dir = tempDir();
    const { db } = await recorded(dir, r.url);
    const planted = join(dir, 'planted-ran');
    plantCommand(db, `touch '${planted}'`);

    const first = await runCliChild(['resume', 'q', '--db', db, '--base-url', sim().url], KEY);
    expect(first.code, first.stderr).toBe(3); // h0 held for a person
    expect(r.requests.map((x) => (JSON.parse(x.body) as EventDoc).type)).toEqual(['items.held']);
    expect(existsSync(planted)).toBe(false);

    // The same batch, the planted command still in its row, and a worker given a command of its own.
    const own = join(dir, 'own.jsonl');
    expect((await runCliChild(['answer', 'q', 'h0', '--approve', '--db', db], {})).code).toBe(0);
    const second = await runCliChild(['resume', 'q', '--db', db, '--base-url', sim().url, '--notify-command', `cat >> '${own}'; echo >> '${own}'`], KEY);
    expect(second.code, second.stderr).toBe(0);
    const viaOwn = readFileSync(own, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as EventDoc).type);
    expect(viaOwn).toEqual(['batch.finished']);
    // The URL stays the batch's receiver (a command alone changes no stored setting).
    expect(r.requests.map((x) => (JSON.parse(x.body) as EventDoc).type)).toEqual(['items.held', 'batch.finished']);
    expect(existsSync(planted)).toBe(false);
    // Nor is the worker's own command written into the database.
    expect(readFileSync(db).includes(Buffer.from(own))).toBe(false);
  }, 60_000);

  it('resq serve sends a batch\'s undelivered events to its URLs and runs no command planted in the database', async () => {
    // A port nobody listens on while the worker runs: its events stay undelivered.
    const port = await freePort();
    const dir = tempDir();
    const { db } = await recorded(dir, `http://127.0.0.1:${port}/hooks/x`);
    const worker = await runCliChild(['resume', 'q', '--db', db, '--base-url', sim().url], KEY);
    expect(worker.code).toBe(3);
    expect(worker.stderr).toMatch(/ECONNREFUSED/);
    // Planted after the worker left, so only resq serve could run it.
    const planted = join(dir, 'planted-ran');
    plantCommand(db, `touch '${planted}'`);
    const back = await receiver(() => 200, port);
    await serveUntil(db, back, 1);
    expect(back.requests.map((x) => (JSON.parse(x.body) as EventDoc).type)).toEqual(['items.held']);
    expect((await runCliChild(['status', '--db', db], {})).stdout).toContain('all delivered');
    expect(existsSync(planted)).toBe(false);
  }, 60_000);

  it('status names the live worker that runs a notify command of its own, never the command', async () => {
    const r = await receiver();
    const dir = tempDir();
    const { db } = await recorded(dir, r.url, '60s');
    const worker = spawnCli(['resume', 'q', '--db', db, '--base-url', sim().url, '--notify-command', 'cat > /dev/null # secret-word'], KEY);
    const done = collect(worker);
    try {
      // Asked until the worker's sender has said it runs a command (it does so at its first pass).
      type Status = { notify: { receivers: string; commands?: { host: string; pid: number }[] } | null };
      let st: Status = { notify: null };
      for (let i = 0; i < 100 && !st.notify?.commands?.length; i++) {
        const res = await runCliChild(['status', 'q', '--db', db, '--json'], {});
        st = JSON.parse(res.stdout.trim().split('\n').pop()!) as Status;
      }
      expect(st.notify?.commands).toEqual([{ host: hostname(), pid: expect.any(Number) }]);
      const text = (await runCliChild(['status', 'q', '--db', db], {})).stdout;
      expect(text).toMatch(new RegExp(`notifications: 1 URL \\(127\\.0\\.0\\.1:\\d+\\) and a command on pid \\d+ on ${hostname()}, json`));
      expect(text).not.toContain('secret-word');
    } finally {
      worker.kill('SIGKILL');
      await done;
    }
  }, 90_000);
});
