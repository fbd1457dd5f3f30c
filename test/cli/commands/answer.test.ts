import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { runCliChild, tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

describe('resq answer, then resume', () => {
  let sim: Sim;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 30 });
    env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
  });
  afterAll(async () => sim.close());

  it('records a person answer for each pause type and the resumed batch carries on', async () => {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, 'id,question\nplan,plan @confirm=30\npick,pick @choice=multi\npic,image @image\nodd,odd @tool=booking\n');
    const db = join(dir, 'r.db');
    expect((await runInProcess(['run', q, '--db', db, '--batch', 'hb'], env)).code).toBe(3);

    // `status` still prints through process (its rewrite is under way): a child captures it.
    const status = await runCliChild(['status', 'hb', '--db', db, '--json']);
    const s = JSON.parse(status.stdout) as { counts: { held: number }; held: { id: string; tool: string }[] };
    expect(s.counts.held).toBe(4);
    expect(s.held.map((h) => h.tool).sort()).toEqual(['ask_choice', 'booking', 'confirm_scope', 'request_quality_image']);

    const bad = await runInProcess(['answer', 'hb', 'pick', '--choose', 'z', '--db', db]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not offered');
    const none = await runInProcess(['answer', 'hb', 'plan', '--db', db]);
    expect(none.code).toBe(2);

    const first = await runInProcess(['answer', 'hb', 'plan', '--approve', '--db', db, '--by', 'alice']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('recorded for hb/plan (by alice)');
    expect((await runInProcess(['answer', 'hb', 'pick', '--choose', 'a,c', '--note', 'both please', '--db', db])).code).toBe(0);
    expect((await runInProcess(['answer', 'hb', 'pic', '--decline', '--db', db])).code).toBe(0);
    expect((await runInProcess(['answer', 'hb', 'odd', '--approve', '--db', db])).code).toBe(0);
    const twice = await runInProcess(['answer', 'hb', 'plan', '--decline', '--db', db, '--by', 'bob']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/item "plan" was already answered by alice at \d{4}-\d\d-\d\dT[^ ]+ \(now waiting\): nothing recorded, nothing sent twice/);

    const resumed = await runInProcess(['resume', 'hb', '--db', db], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('4 completed');

    const exp = await runInProcess(['export', 'hb', '--db', db, '--format', 'jsonl']);
    const rows = exp.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; text: string; decisions: { by: string }[] });
    const text = (id: string) => rows.find((r) => r.id === id)?.text ?? '';
    expect(text('plan')).toContain('confirm_scope: approved');
    expect(text('pick')).toContain('ask_choice: chosen a,c');
    expect(text('pick')).toContain('both please');
    expect(text('pic')).toContain('request_quality_image: declined');
    for (const r of rows) expect(r.decisions.map((d) => d.by)).toEqual(['person']);
    // Without --by, the OS user's name is recorded.
    const show = await runInProcess(['show', 'hb', 'pick', '--db', db, '--json']);
    expect(JSON.parse(show.stdout).decisions[0].person).toBe(userInfo().username);
    expect(sim.counters().respondRuns).toBe(4);
  });
});
