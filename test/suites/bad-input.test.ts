import Database from 'better-sqlite3';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { ROOT, tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';

const BAD = join(ROOT, 'test/fixtures/bad');
// Whole-file problems have no line to name.
const NO_LINE = new Set(['empty.csv', 'blank-only.csv', 'blank-only.jsonl', 'header-only.csv', 'utf16.csv']);
const files = readdirSync(BAD).filter((f) => /\.(csv|jsonl)$/.test(f)).sort();

// Bad-input suite: every malformed question set is refused whole, with file and line,
// exit 2, nothing recorded and nothing sent to the service.
describe('bad input', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(async () => sim.close());

  it('has at least twelve malformed files to try', () => {
    expect(files.length).toBeGreaterThanOrEqual(12);
  });

  it.each(files)('refuses %s with exit 2, file and line, and sends nothing', async (name) => {
    const dir = tempDir();
    const db = join(dir, 'resq.db');
    const file = join(BAD, name);
    const r = await runInProcess(['run', file, '--db', db, '--base-url', sim.url, '--batch', name], { RESQ_API_KEY: sim.keys[0] });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(file);
    if (!NO_LINE.has(name)) expect(r.stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+`));
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    // No raw control character from the file reaches the terminal (ESC, BEL, …).
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    // Refused before anything was recorded: no database is left behind.
    expect(existsSync(db)).toBe(false);
  });

  it('with --skip-invalid skips every bad row of a CR-only CSV and stores the others unaltered', async () => {
    const dir = tempDir();
    const file = join(dir, 'mac.csv');
    const bad = (s: string, b: number) => Buffer.concat([Buffer.from(s), Buffer.from([b])]);
    writeFileSync(file, Buffer.concat([Buffer.from('id,question\ra,ok\r'), bad('b,bad ', 0xff), Buffer.from('\rc,fine\r'), bad('d,nul ', 0), Buffer.from('\r'), bad('e,bad ', 0xc3), Buffer.from('\rf,last\r')]));
    const db = join(dir, 'resq.db');
    const r = await runInProcess(['run', file, '--dry-run', '--skip-invalid', '--db', db], {});
    expect(r.code, r.stderr).toBe(0);
    // Read with the driver itself: the rows exactly as stored, no U+FFFD, no NUL.
    const sqlite = new Database(db, { readonly: true });
    const rows = sqlite.prepare('SELECT id, question FROM items ORDER BY seq').all();
    const skipped = sqlite.prepare('SELECT invalid_rows FROM batches').pluck().get() as string;
    sqlite.close();
    expect(rows).toEqual([{ id: 'a', question: 'ok' }, { id: 'c', question: 'fine' }, { id: 'f', question: 'last' }]);
    expect((JSON.parse(skipped) as { line: number }[]).map((p) => p.line)).toEqual([3, 5, 6]);
  });

  it('sent nothing to the service for any of them', () => {
    const c = sim.counters();
    expect(c.runsAdmitted).toBe(0);
    expect(c.requestsByRoute['POST /runs'] ?? 0).toBe(0);
  });

  it('refuses to run with no service configured, saying how to set it', async () => {
    const dir = tempDir();
    const r = await runInProcess(['run', join(ROOT, 'pipelines/demo-questions.csv'), '--db', join(dir, 'x.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('RESQ_BASE_URL');
    expect(r.stderr).toContain('--sim');
    expect(existsSync(join(dir, 'x.db'))).toBe(false);
  });

  it('stops at once on a wrong key with a clear 401 message', async () => {
    const dir = tempDir();
    const before = sim.counters().requestsByRoute['POST /runs'] ?? 0;
    const r = await runInProcess(
      ['run', join(ROOT, 'pipelines/demo-questions.csv'), '--db', join(dir, 'x.db'), '--base-url', sim.url, '--concurrency', '4'],
      { RESQ_API_KEY: 'wrong-key-123' },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/401/);
    expect(r.stderr).not.toContain('wrong-key-123');
    expect(r.stdout).not.toContain('wrong-key-123');
    const after = sim.counters().requestsByRoute['POST /runs'] ?? 0;
    expect(after - before).toBe(0); // the key is checked before anything is sent
  });
});
