import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { spendWith } from '../../support/spending-with.js';
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
    const s = JSON.parse(status.stdout) as { counts: { held: number }; heldItems: { id: string; tool: string }[] };
    expect(s.counts.held).toBe(4);
    expect(s.heldItems.map((h) => h.tool).sort()).toEqual(['ask_choice', 'booking', 'confirm_scope', 'request_quality_image']);

    const bad = await runInProcess(['answer', 'hb', 'pick', '--choose', 'z', '--db', db]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not offered');
    const none = await runInProcess(['answer', 'hb', 'plan', '--db', db]);
    expect(none.code).toBe(2);

    const first = await runInProcess(['answer', 'hb', 'plan', '--approve', '--db', db, '--by', 'alice']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`recorded for hb/plan (by alice): approved; not sent yet (no worker running), to send it: resq resume hb --db ${db}\n`);
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
    expect(JSON.parse(show.stdout).pauses[0].decision.person).toBe(userInfo().username);
    expect(sim.counters().respondRuns).toBe(4);
  });
});

describe('resq answer BATCH --held: many held items at once, each its own decision', () => {
  let sim: Sim;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
  });
  afterAll(async () => sim.close());

  /** Plans over 50 held by the policy (cheap ones approved by it), a choice and an image held too. */
  async function heldBatch(): Promise<{ db: string }> {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(
      q,
      ['id,question,lab', 'cheap,small plan @confirm=10,north', 'p100,plan @confirm=100,north', 'p200,plan @confirm=200,south', 'p300,plan @confirm=300,north', 'pick,pick @choice,north', 'pic,image @image,south'].join('\n') + '\n',
    );
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'confirm_scope:\n  approve_max_cost: 50\n');
    const db = join(dir, 'r.db');
    expect((await runInProcess(['run', q, '--db', db, '--batch', 'hb', '--policy', policy], env)).code).toBe(3);
    return { db };
  }

  const decisions = async (db: string) => {
    const exp = await runInProcess(['export', 'hb', '--db', db, '--format', 'jsonl']);
    return Object.fromEntries(exp.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; decisions: { by: string; person: string | null; answer: unknown; note?: string }[] }).map((r) => [r.id, r.decisions]));
  };

  it('--dry-run lists the held items a filter selects (id, tool, cost, hold reason, total) and records nothing; bad filters are one line, exit 2', async () => {
    const { db } = await heldBatch();
    const dry = await runInProcess(['answer', 'hb', '--held', '--tool', 'confirm_scope', '--min-cost', '100', '--max-cost', '250', '--dry-run', '--db', db]);
    expect(dry.code).toBe(0);
    const lines = dry.stdout.trim().split('\n');
    expect(lines[0]).toBe('would answer 2 held item(s) of hb, total cost 300:');
    expect(lines[1]).toMatch(/^id\s+tool\s+cost\s+held because$/);
    expect(lines[2]).toMatch(/^p100\s+confirm_scope\s+100\s+.*100.*50/);
    expect(lines[3]).toMatch(/^p200\s+confirm_scope\s+200\s+/);
    expect(lines.at(-1)).toBe('dry run: nothing recorded, nothing sent');
    const json = JSON.parse((await runInProcess(['answer', 'hb', '--held', '--where', 'meta.lab=north', '--dry-run', '--json', '--db', db])).stdout) as { items: { id: string }[]; totalCost: number };
    expect(json.items.map((i) => i.id)).toEqual(['p100', 'p300', 'pick']);
    expect(json.totalCost).toBe(400);

    for (const [args, msg] of [
      [['--max-cost', 'abc', '--approve'], '--max-cost: give a number of 0 or more'],
      [['--min-cost', '300', '--max-cost', '10', '--approve'], '--min-cost 300 is more than --max-cost 10: no item can match'],
      [['--where', 'lab=north', '--approve'], '--where lab=north: write it as meta.KEY=VALUE'],
      [['--approve', '--decline'], 'give exactly one of --approve, --decline, --choose ID[,ID] (or --dry-run to list what would be answered)'],
      [['--approve'], 'the answer does not fit 1 of the 5 selected item(s): pick (ask_choice: ask_choice needs --choose ID[,ID] or --decline'],
    ] as const) {
      const r = await runInProcess(['answer', 'hb', '--held', ...args, '--db', db]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(msg);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    const none = await runInProcess(['answer', 'hb', '--held', '--where', 'meta.lab=north', '--where', 'meta.lab=south', '--dry-run', '--db', db]);
    expect(none.stdout).toBe('no held item of hb matches\ndry run: nothing recorded, nothing sent\n');
    const noMatch = await runInProcess(['answer', 'hb', '--held', '--text', 'NO SUCH TEXT', '--decline', '--db', db]);
    expect([noMatch.code, noMatch.stdout]).toEqual([0, 'no held item of hb matches: nothing recorded\n']);
    const noHeld = await runInProcess(['answer', 'hb', 'p100', '--tool', 'confirm_scope', '--approve', '--db', db]);
    expect(noHeld.code).toBe(2);
    expect(noHeld.stderr).toContain('--tool selects held items: give it with --held');
    const both = await runInProcess(['answer', 'hb', 'p100', '--held', '--approve', '--db', db]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('drop the item id "p100"');
    // Nothing was recorded by any of these: the policy's one decision, and nothing for the held ones.
    const d = await decisions(db);
    expect(d.cheap).toHaveLength(1);
    for (const id of ['p100', 'p200', 'p300', 'pick', 'pic']) expect(d[id], id).toEqual([]);
    expect(sim.counters().respondRuns).toBe(1);
  });

  it('approves every selected plan with one decision each, the name and the note; one answered meanwhile by another person is skipped and named', async () => {
    const { db } = await heldBatch();
    // Alice looked at the dry run; Bob answered p200 meanwhile.
    const seen = JSON.parse((await runInProcess(['answer', 'hb', '--held', '--tool', 'confirm_scope', '--dry-run', '--json', '--db', db])).stdout) as { items: { id: string }[] };
    expect(seen.items.map((i) => i.id)).toEqual(['p100', 'p200', 'p300']);
    expect((await runInProcess(['answer', 'hb', 'p200', '--decline', '--by', 'bob\x1b[2J', '--db', db])).code).toBe(0);

    const r = await runInProcess(['answer', 'hb', '--held', '--items', seen.items.map((i) => i.id).join(','), '--approve', '--by', 'alice', '--note', 'in budget', '--db', db]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toContain('answered p100 (confirm_scope, cost 100): approved');
    expect(lines).toContain('answered p300 (confirm_scope, cost 300): approved');
    // Who answered first is named, with the control characters of the name made visible.
    expect(r.stdout).not.toContain('\x1b');
    expect(lines.find((l) => l.startsWith('skipped p200'))).toMatch(/^skipped p200: already answered by bob\\x1b\[2J at \d{4}-[^ ]+ \(now waiting\)$/);
    expect(lines.at(-1)).toBe(`answered 2 held item(s) of hb by alice, total cost 400 — note: in budget; skipped 1 (p200: answered by bob\\x1b[2J); not sent yet (no worker running), to send them: resq resume hb --db ${db}`);

    // The same again: nothing is held of those now, each is named with who answered it.
    const again = JSON.parse((await runInProcess(['answer', 'hb', '--held', '--items', 'p100,p200,nope', '--decline', '--by', 'carol', '--json', '--db', db])).stdout) as { answered: unknown[]; skipped: { id: string; by: string | null }[] };
    expect(again.answered).toEqual([]);
    expect(again.skipped.map((s) => [s.id, s.by])).toEqual([['p100', 'alice'], ['p200', 'bob\x1b[2J'], ['nope', null]]);

    const d = await decisions(db);
    expect(d.p100).toMatchObject([{ by: 'person', person: 'alice', answer: { approved: true }, note: 'in budget' }]);
    expect(d.p300).toMatchObject([{ by: 'person', person: 'alice', answer: { approved: true }, note: 'in budget' }]);
    expect(d.p200).toMatchObject([{ by: 'person', person: 'bob\x1b[2J', answer: { approved: false } }]);
    expect(d.pick).toEqual([]);

    // The resumed batch sends each answer once.
    const resumed = await runInProcess(['resume', 'hb', '--db', db], env);
    expect(resumed.stdout).toContain('4 completed');
  });
});

describe('resq answer names the pause it answers, and holds people to the budget', () => {
  let sim: Sim;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 30 });
    env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
  });
  afterAll(async () => sim.close());

  const heldRun = async (db: string, batch: string, id: string) => {
    const status = await runCliChild(['status', batch, '--db', db, '--json']);
    return (JSON.parse(status.stdout) as { heldItems: { id: string; runId: string | null }[] }).heldItems.find((h) => h.id === id)?.runId ?? null;
  };

  it('t1 paused at 1, approved by B with --run, paused again at 99,999: A\'s --run of the first pause exits 2 with nothing recorded; without --run the pause waiting now is said, cost included', async () => {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, 'id,question\nt1,plan @confirm=1 @confirm=99999\n');
    const db = join(dir, 'r.db');
    expect((await runInProcess(['run', q, '--db', db, '--batch', 'pm'], env)).code).toBe(3);
    const seen = await heldRun(db, 'pm', 't1');
    expect(seen).toMatch(/.+/);
    expect((await runInProcess(['answer', 'pm', 't1', '--run', seen!, '--approve', '--by', 'B', '--db', db])).code).toBe(0);
    expect((await runInProcess(['resume', 'pm', '--db', db], env)).code).toBe(3);
    const now = await heldRun(db, 'pm', 't1');
    expect(now).not.toBe(seen);

    const stale = await runInProcess(['answer', 'pm', 't1', '--run', seen!, '--approve', '--by', 'A', '--db', db]);
    expect(stale.code).toBe(2);
    expect(stale.stderr).toBe(`resq: t1 paused again since you saw it (cost 1 → 99,999): nothing recorded; resq show pm t1 --db ${db}\n`);
    const show = JSON.parse((await runInProcess(['show', 'pm', 't1', '--db', db, '--json'])).stdout) as { item: { state: string }; pauses: { runId: string; decision: { person: string | null } | null }[] };
    expect(show.item.state).toBe('held');
    expect(show.pauses.map((p) => [p.runId, p.decision?.person ?? null])).toEqual([[seen, 'B'], [now, null]]);
    // The text of show and status name the run to answer.
    expect((await runInProcess(['show', 'pm', 't1', '--db', db])).stdout).toContain(`; answer (or --decline): resq answer pm t1 --run ${now} --approve --db ${db}\n`);

    const waiting = await runInProcess(['answer', 'pm', 't1', '--decline', '--by', 'A', '--db', db]);
    expect(waiting.code).toBe(0);
    expect(waiting.stdout.split('\n')[0]).toBe(`answering the pause waiting now: run ${now} (confirm_scope, cost 99999)`);
  });

  it('an approval past batch_budget exits 2 naming the totals unless --over-budget (single and --held); the decision shows it went over; a decline says its cost is not spent', async () => {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, 'id,question\na,plan @confirm=100\nb,plan @confirm=60\nc,plan @confirm=28\nd,plan @confirm=5\n');
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'confirm_scope:\n  approve_max_cost: 0\n  batch_budget: 150\n');
    const db = join(dir, 'r.db');
    expect((await runInProcess(['run', q, '--db', db, '--batch', 'bud', '--policy', policy], env)).code).toBe(3);
    expect((await runInProcess(['answer', 'bud', 'a', '--approve', '--db', db])).code).toBe(0);

    const dry = await runInProcess(['answer', 'bud', '--held', '--max-cost', '60', '--min-cost', '20', '--approve', '--dry-run', '--db', db]);
    expect(dry.stdout).toContain("this takes the batch's approved cost from 100 to 188, past its budget 150: approving needs --over-budget");
    const bulk = await runInProcess(['answer', 'bud', '--held', '--max-cost', '60', '--min-cost', '20', '--approve', '--db', db]);
    expect(bulk.code).toBe(2);
    expect(bulk.stderr).toBe("resq: approving 2 held item(s) (cost 88) takes the batch's approved cost to 188 of its budget 150 (125%): nothing recorded; give --over-budget to approve it anyway\n");
    const single = await runInProcess(['answer', 'bud', 'b', '--approve', '--db', db]);
    expect(single.code).toBe(2);
    expect(single.stderr).toContain("approving b (cost 60) takes the batch's approved cost to 160 of its budget 150 (107%): nothing recorded; give --over-budget");
    const status = await runCliChild(['status', 'bud', '--db', db]);
    expect(status.stdout).toContain('cost approved: 100 of the batch budget 150 (67%)');

    const over = await runInProcess(['answer', 'bud', '--held', '--max-cost', '60', '--min-cost', '20', '--approve', '--over-budget', '--by', 'ana', '--db', db]);
    expect(over.code).toBe(0);
    expect(over.stdout).toContain('answered 2 held item(s) of bud by ana, total cost 88 (over the batch budget, as you confirmed)');
    expect((await runInProcess(['show', 'bud', 'c', '--db', db])).stdout).toContain('decided approved by ana (over the batch budget, as confirmed)');
    const declined = await runInProcess(['answer', 'bud', '--held', '--decline', '--db', db]);
    expect(declined.stdout).toContain('answered 1 held item(s) of bud');
    expect(declined.stdout).toContain('their cost 5 is not spent');
  });

  it("--held --approve --dry-run counts what the batch's judge batch approved against the budget (one budget group)", async () => {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, 'id,question\na,plan @confirm=60\nb,plan @confirm=70\n');
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'confirm_scope:\n  approve_max_cost: 0\n  batch_budget: 150\n');
    const db = join(dir, 'r.db');
    expect((await runInProcess(['run', q, '--db', db, '--batch', 'grp', '--policy', policy], env)).code).toBe(3);
    const store = await openStore(db);
    await spendWith(store, (await store.findBatch('grp'))!.id, 50);
    await store.close();
    const dry = await runInProcess(['answer', 'grp', '--held', '--approve', '--dry-run', '--db', db]);
    expect(dry.stdout).toContain("this takes the batch's approved cost from 50 to 180, past its budget 150: approving needs --over-budget");
  });
});
