import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportRows, type ExportRow } from '../../src/runner/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startSim } from '../../src/sim/index.js';
import { fixtureItems, writeFixture } from '../support/batch-fixture.js';
import { collect, runCliChild, spawnCli, tempDir } from '../support/cli.js';
import { expectBatchWhole } from '../support/expect-batch.js';

// Issue 28: the simulator of a `--sim` process lives in that process. A SIGKILL must not lose
// what it acknowledged (runs, answers, idempotency keys, ends, files): `resq resume --sim`
// then finds every run it recorded. Each round is one process killed at a point of its life
// read from its --json stdout (never a timer), the next round resumes it.

/** When a round's process is killed: on the `nth` stdout event that `match` accepts. */
interface KillPoint {
  name: string;
  nth: number;
  match: (e: { type?: string; state?: string; detail?: string }) => boolean;
}

const itemOrDecision = (e: { type?: string }): boolean => e.type === 'item' || e.type === 'decision';
const KILLS: KillPoint[] = [
  // Before any admission: the batch is loaded, no run asked for yet.
  { name: 'at start', nth: 1, match: (e) => e.type === 'start' },
  // Very early: the first wave of admissions has just been acknowledged.
  { name: 'after 1 item event', nth: 1, match: itemOrDecision },
  { name: 'after 3 item events', nth: 3, match: itemOrDecision },
  // During an answer: a decision recorded, its respond going out.
  { name: 'at the first answer going out', nth: 1, match: (e) => e.type === 'item' && e.state === 'waiting' },
  // Just after an answer was acknowledged (the respond's run admitted).
  { name: 'after the first answer admitted', nth: 1, match: (e) => e.type === 'item' && e.detail === 'answered' },
  { name: 'after 8 item events', nth: 8, match: itemOrDecision },
  { name: 'after 15 item events', nth: 15, match: itemOrDecision },
  { name: 'after 25 item events', nth: 25, match: itemOrDecision },
];

/** A run as the simulator's state file keeps it (the fields this test reads). */
interface StateRun {
  id: string;
  parentId: string | null;
  chain: { input: string };
}

describe('SIGKILL of a --sim process', () => {
  it('loses nothing the simulator acknowledged: resume ends every item right, every question admitted once', { timeout: 240_000 }, async () => {
    const dir = tempDir();
    // Two waves at --concurrency 20; runs long enough that kills land while many are going.
    const items = fixtureItems('400ms', 3);
    const { questions, policy } = writeFixture(dir, items);
    const db = join(dir, 'r.db');
    const out = join(dir, 'out');
    const first = ['run', questions, '--db', db, '--batch', 'kill', '--policy', policy, '--sim', '--concurrency', '20', '--out', out, '--json'];
    const again = ['resume', 'kill', '--db', db, '--sim', '--concurrency', '20', '--json'];

    const killedAt: string[] = [];
    for (const [round, point] of KILLS.entries()) {
      const child = spawnCli(round === 0 ? first : again);
      const done = collect(child);
      let seen = 0;
      let buf = '';
      child.stdout?.on('data', (d: Buffer | string) => {
        buf += d.toString();
        const lines = buf.split('\n');
        buf = lines.pop() ?? '';
        for (const line of lines) {
          let e: { type?: string };
          try {
            e = JSON.parse(line) as { type?: string };
          } catch {
            continue;
          }
          if (point.match(e) && ++seen >= point.nth && child.exitCode === null && !child.killed) child.kill('SIGKILL');
        }
      });
      const r = await done;
      expect(r.stderr).not.toContain('internal error');
      // No item of the batch may have ended in error, whenever the last kill landed.
      expect(r.stdout, point.name).not.toContain('"state":"error"');
      if (r.signal === 'SIGKILL') killedAt.push(point.name);
      else if (r.code === 0 || r.code === 1) break; // the batch ended before this point came
    }
    // The first kills cannot miss: the batch is far from done when they come.
    expect(killedAt.slice(0, 5)).toEqual(KILLS.slice(0, 5).map((k) => k.name));

    const last = await runCliChild(again);
    expect(last.stderr).not.toContain('internal error');
    expect(last.stderr).not.toContain('not_found');
    expect(last.stdout).not.toContain('"state":"error"');
    expect(last.code, last.stderr).toBe(1); // the @fail items fail, nothing else

    const store = SqliteStore.open(db);
    // The simulator's record as the last process left it: its state file, read into a simulator of its own (a copy: nothing written back).
    const copy = join(tempDir(), 'state.sim.json');
    copyFileSync(`${db}.sim.json`, copy);
    const after = await startSim({ statePath: copy });
    try {
      const batch = await store.findBatch('kill');
      if (!batch) throw new Error('no batch');
      const rows: ExportRow[] = [];
      for await (const row of exportRows(store, batch)) rows.push(row);
      expectBatchWhole(rows, items, after.ledger(), { bodies: false });
    } finally {
      await after.close();
      await store.close();
    }

    // The simulator's own record, over every process: each question admitted once, one run per answer.
    // The last process closed normally: its snapshot holds everything and its journal is empty.
    const state = JSON.parse(readFileSync(`${db}.sim.json`, 'utf8')) as { runs: StateRun[] };
    const journal = `${db}.sim.json.journal`;
    expect(existsSync(journal) ? readFileSync(journal, 'utf8') : '').toBe('');
    const admissionsByInput = new Map<string, number>();
    for (const r of state.runs) if (r.parentId === null) admissionsByInput.set(r.chain.input, (admissionsByInput.get(r.chain.input) ?? 0) + 1);
    for (const it of items) expect(admissionsByInput.get(it.question), it.question).toBe(1);
    expect(admissionsByInput.size).toBe(items.length);
    expect(state.runs.filter((r) => r.parentId !== null)).toHaveLength(items.reduce((n, it) => n + it.pauses, 0));
  });
});
