import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

// A batch run under one policy, some of its pauses then answered by people (one left held),
// replayed under another policy: every count of the table is hand-computed below.
const RAN_WITH = `confirm_scope:
  approve_max_cost: 5
  otherwise: hold
ask_choice:
  prefer: [b]
  otherwise: first
request_quality_image: hold
unknown: hold
`;

const CHECKED = `confirm_scope:
  approve_max_cost: 10
  otherwise: decline
ask_choice:
  prefer: [c]
request_quality_image: approve
`;

describe('resq policy check', () => {
  let sim: Sim;
  let env: Record<string, string>;
  let dir: string;
  let db: string;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
    dir = tempDir();
    db = join(dir, 'r.db');
    const q = join(dir, 'q.csv');
    writeFileSync(
      q,
      'id,question\np1,plan @confirm=4\np2,plan @confirm=8\np3,plan @confirm=30\np4,plan @confirm=12\nc1,pick @choice\ni1,image @image\nx1,odd @tool=booking\n',
    );
    writeFileSync(join(dir, 'ran.yaml'), RAN_WITH);
    writeFileSync(join(dir, 'checked.yaml'), CHECKED);
    // p1 approved and c1 chosen by the policy; p2, p3, p4, i1, x1 held.
    expect((await runInProcess(['run', q, '--db', db, '--batch', 'pb', '--policy', join(dir, 'ran.yaml')], env)).code).toBe(3);
    for (const [item, flag, by] of [['p2', '--approve', 'alice'], ['p3', '--decline', 'bob'], ['i1', '--approve', 'alice']] as const)
      expect((await runInProcess(['answer', 'pb', item, flag, '--by', by, '--db', db])).code).toBe(0);
  });
  afterAll(async () => sim.close());

  it('counts by tool what the policy would do against what was decided, and lists the pauses it would decide otherwise', async () => {
    const r = await runInProcess(['policy', 'check', join(dir, 'checked.yaml'), '--batch', 'pb', '--db', db, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout) as {
      tools: { tool: string; pauses: number; would: Record<string, number>; actualBy: Record<string, number>; agrees: number; differs: number; actualCost: number; wouldCost: number }[];
      total: { pauses: number; agrees: number; differs: number; actualCost: number; wouldCost: number };
      differences: { itemId: string; actual: { verdict: string; by: string | null; chosen: string[] }; would: { verdict: string; chosen: string[] } }[];
    };
    const tool = (t: string) => c.tools.find((x) => x.tool === t)!;
    // p1 approve=approve (policy), p2 approve=approve (alice), p3 decline=decline (bob), p4 held: the policy would decline.
    expect(tool('confirm_scope')).toEqual({
      tool: 'confirm_scope', pauses: 4, would: { approve: 2, decline: 2, choose: 0, hold: 0 }, actualBy: { policy: 1, person: 2, none: 1 },
      agrees: 3, differs: 1, actualCost: 12, wouldCost: 12,
    });
    // c1: chosen b by the first policy; this one prefers c.
    expect(tool('ask_choice')).toMatchObject({ pauses: 1, would: { choose: 1 }, actualBy: { policy: 1, person: 0, none: 0 }, agrees: 0, differs: 1 });
    expect(tool('request_quality_image')).toMatchObject({ pauses: 1, would: { approve: 1 }, actualBy: { person: 1 }, agrees: 1, differs: 0 });
    // No rule for an unknown tool: held, as it is now.
    expect(tool('booking')).toMatchObject({ pauses: 1, would: { hold: 1 }, actualBy: { none: 1 }, agrees: 1, differs: 0 });
    expect(c.total).toMatchObject({ pauses: 7, agrees: 5, differs: 2, actualCost: 12, wouldCost: 12 });
    const diffs = Object.fromEntries(c.differences.map((d) => [d.itemId, d]));
    expect(Object.keys(diffs).sort()).toEqual(['c1', 'p4']);
    expect(diffs['p4']).toMatchObject({ actual: { verdict: 'hold', by: null }, would: { verdict: 'decline' } });
    expect(diffs['c1']).toMatchObject({ actual: { verdict: 'choose', chosen: ['b'], by: 'policy' }, would: { verdict: 'choose', chosen: ['c'] } });
  });

  it('renders the comparison as a table and the differing pauses as lines', async () => {
    const r = await runInProcess(['policy', 'check', join(dir, 'checked.yaml'), '--batch', 'pb', '--db', db]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`${join(dir, 'checked.yaml')} on batch pb: 7 pauses, 5 decided the same, 2 otherwise (0 from the budget, 2 from the rules)`);
    expect(lines[1]).toMatch(/^tool +pauses +approve +decline +choose +hold +agree +differ +by policy +by person +undecided +cost actual +cost policy$/);
    expect(lines.find((l) => l.startsWith('confirm_scope'))?.split(/ {2,}/)).toEqual(['confirm_scope', '4', '2', '2', '0', '0', '3', '1', '1', '2', '1', '12', '12']);
    expect(lines.find((l) => l.startsWith('total'))?.split(/ +/)).toEqual(['total', '7', '3', '2', '1', '1', '5', '2', '2', '3', '2', '12', '12']);
    expect(r.stdout).toContain('decided otherwise from the rules (2):');
    expect(r.stdout).toContain('  p4 (confirm_scope, cost 12): still held, nobody decided; policy would decline: cost 12 is over approve_max_cost 10: declined (the narrow alternative)');
    expect(r.stdout).toContain('  c1 (ask_choice): choose b by policy; policy would choose c: preferred option "c" is offered');
  });

  it('replays time as it happened: the policy the batch ran agrees on every pause it decided, people counted once they approved', async () => {
    // p1 and p3 approved by the policy (8 + 8 of budget 20), p4 held by the budget (24 > 20),
    // p2 held (15 > 10), then approved by a person, after p3 was decided: replaying that approval at
    // p2's place (before p3) would hold p3 (8 + 15 + 8 > 20) although the policy approved it.
    const ran = 'confirm_scope:\n  approve_max_cost: 10\n  batch_budget: 20\n  otherwise: hold\nrequest_quality_image: approve\n';
    const d = tempDir();
    const tdb = join(d, 't.db');
    const q = join(d, 'q.csv');
    writeFileSync(q, 'id,question\np1,plan @confirm=8 @duration=20ms\ni1,image @image @duration=30ms\np2,plan @confirm=15 @duration=60ms\np3,plan @confirm=8 @duration=300ms\np4,plan @confirm=8 @duration=600ms\n');
    writeFileSync(join(d, 'ran.yaml'), ran);
    writeFileSync(join(d, 'tight.yaml'), ran.replace('batch_budget: 20', 'batch_budget: 12').replace('request_quality_image: approve', 'request_quality_image: hold'));
    expect((await runInProcess(['run', q, '--db', tdb, '--batch', 'tb', '--policy', join(d, 'ran.yaml')], env)).code).toBe(3);
    expect((await runInProcess(['answer', 'tb', 'p2', '--approve', '--over-budget', '--by', 'ann', '--db', tdb])).code).toBe(0);
    type Check = { total: { pauses: number; agrees: number }; differences: { itemId: string; cause: string; actual: { by: string | null } }[]; causes: { budget: number; rules: number } };
    const same = JSON.parse((await runInProcess(['policy', 'check', join(d, 'ran.yaml'), '--batch', 'tb', '--db', tdb, '--json'])).stdout) as Check;
    expect(same.differences.filter((x) => x.actual.by === 'policy')).toEqual([]);
    // Only p2 differs: the policy holds it (over approve_max_cost) where a person approved it.
    expect(same.differences.map((x) => [x.itemId, x.cause])).toEqual([['p2', 'rules']]);
    expect(same.total).toMatchObject({ pauses: 5, agrees: 4 });
    // A tighter budget and images held: p3 differs from the budget (its rules alone approve it), i1 from the rules.
    const t = await runInProcess(['policy', 'check', join(d, 'tight.yaml'), '--batch', 'tb', '--db', tdb]);
    expect(t.stdout.split('\n')[0]).toBe(`${join(d, 'tight.yaml')} on batch tb: 5 pauses, 2 decided the same, 3 otherwise (1 from the budget, 2 from the rules)`);
    const budgetPart = t.stdout.slice(t.stdout.indexOf('decided otherwise from the budget'), t.stdout.indexOf('decided otherwise from the rules'));
    expect(budgetPart).toContain('  p3 (confirm_scope, cost 8): approve by policy; policy would hold: cost 8 would bring the batch to 16, over batch_budget 12');
    expect(t.stdout.slice(t.stdout.indexOf('decided otherwise from the rules'))).toMatch(/ {2}i1 \(request_quality_image\): approve by policy[^\n]*\n {2}p2 /);
  });

  it('says in one line what is wrong with a bad policy file or an unknown batch, and exits 2', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'confirm_scope:\n  approve_max_cost: lots\n');
    const bad = await runInProcess(['policy', 'check', join(dir, 'bad.yaml'), '--batch', 'pb', '--db', db]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain(`${join(dir, 'bad.yaml')}:2: confirm_scope.approve_max_cost`);
    const none = await runInProcess(['policy', 'check', join(dir, 'checked.yaml'), '--batch', 'nope', '--db', db]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toContain('no batch named "nope"');
    expect(none.stdout).toBe('');
  });
});
