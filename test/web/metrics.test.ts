import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWaiting } from '../support/answer-waiting.js';
import { labelValue } from '../../src/web/metrics.js';
import { bearer, webFixture, type WebFixture } from './support/web-fixture.js';

describe('GET /metrics', () => {
  let f: WebFixture;
  beforeAll(async () => {
    f = await webFixture({ name: 'we"ird\\name' });
  }, 60_000);
  afterAll(async () => f?.close());

  it('reports every batch from the store in the Prometheus text format, resq_ names', async () => {
    const r = await fetch(`${f.server.origin}/metrics`, { headers: bearer(f.server) });
    expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await r.text();
    const l = 'batch="we\\"ird\\\\name"';
    expect(text).toContain('# TYPE resq_items gauge');
    expect(text).toContain(`resq_items{${l},state="held"} 3`);
    expect(text).toContain(`resq_items{${l},state="completed"} 2`);
    expect(text).toContain(`resq_items_held{${l}} 3`);
    expect(text).toContain(`resq_runs_in_flight{${l}} 0`);
    expect(text).toContain(`resq_concurrency_cap{${l}} 4`);
    expect(text).toContain(`resq_workers_live{${l}} 0`);
    expect(text).toMatch(new RegExp(`resq_files\\{${l.replace(/[\\"]/g, (c) => `\\${c}`)},state="downloaded"\\} [1-9]`));
    expect(text).toContain('# TYPE resq_approved_cost_credits_total counter');
    // every sample line is `name{labels} number`
    for (const line of text.trim().split('\n').filter((x) => !x.startsWith('#'))) expect(line).toMatch(/^resq_[a-z_]+\{.*\} -?\d+(\.\d+)?$/);
  });

  it('reports the spend against the budget and how long held items waited for a person, as a histogram', async () => {
    const l = 'batch="we\\"ird\\\\name"';
    const scrape = async () => (await fetch(`${f.server.origin}/metrics`, { headers: bearer(f.server) })).text();
    const before = await scrape();
    expect(before).toContain('# TYPE resq_held_wait_seconds histogram');
    expect(before).toContain(`resq_held_wait_seconds_count{${l}} 0`);
    expect(before).not.toContain('resq_budget_credits{');
    // The policy's budget, as a later run with --policy records it.
    const policy = { confirm_scope: { approve_max_cost: 10, batch_budget: 120, otherwise: 'hold' } };
    await f.store.updateBatchSettings(f.batch.id, f.batch.settings, policy, f.batch.baseUrl);
    // The plan paused 100 s ago and the image 7000 s ago (their pauses' recorded time moved back), answered now.
    const db = new Database(join(f.dir, 'resq.db'));
    const back = db.prepare(
      `UPDATE runs SET finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?) WHERE batch_num = (SELECT num FROM batches WHERE id = ?) AND item_id = ? AND required_action IS NOT NULL`,
    );
    back.run('-100 seconds', f.batch.id, 'plan');
    back.run('-7000 seconds', f.batch.id, 'image');
    db.close();
    const batch = (await f.store.findBatch(f.batch.id))!;
    await answerWaiting(f.store, batch, 'plan', { kind: 'approve' }, { person: 'ann' });
    await answerWaiting(f.store, batch, 'image', { kind: 'decline' }, { person: 'bob' });
    const text = await scrape();
    expect(text).toContain(`resq_approved_cost_credits_total{${l}} 50`);
    expect(text).toContain(`resq_budget_credits{${l}} 120`);
    const bucket = (le: string) => Number(new RegExp(`resq_held_wait_seconds_bucket\\{${l.replace(/[\\"]/g, (c) => `\\${c}`)},le="${le.replace('+', '\\+')}"\\} (\\d+)`).exec(text)?.[1]);
    expect([bucket('60'), bucket('300'), bucket('3600'), bucket('7200'), bucket('+Inf')]).toEqual([0, 1, 1, 2, 2]);
    expect(text).toContain(`resq_held_wait_seconds_count{${l}} 2`);
    const sum = Number(new RegExp(`resq_held_wait_seconds_sum\\{[^}]*\\} ([\\d.]+)`).exec(text)?.[1]);
    expect(sum).toBeGreaterThanOrEqual(7100);
    expect(sum).toBeLessThan(7130);
  });

  it("reports each scorer's pass rate over the judged items as resq_score_pass_ratio{batch,scorer}, its labels escaped; none before a verdict", async () => {
    const l = 'batch="we\\"ird\\\\name"';
    const scrape = async () => (await fetch(`${f.server.origin}/metrics`, { headers: bearer(f.server) })).text();
    expect(await scrape()).not.toContain('resq_score_pass_ratio{');
    const v = (scorer: string, pass: boolean | null) => ({ scorer, version: 'v1', pass, score: pass === null ? null : Number(pass), reason: 'r', scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' });
    // The two completed items: one passes and one fails the oddly named scorer; the other scorer could judge neither.
    await f.store.recordVerdicts(f.batch.id, 'plain', [v('od"d\\name', true), v('value', null)]);
    await f.store.recordVerdicts(f.batch.id, 'bad', [v('od"d\\name', false), v('value', null)]);
    const text = await scrape();
    expect(text).toContain('# TYPE resq_score_pass_ratio gauge');
    expect(text).toContain(`resq_score_pass_ratio{${l},scorer="od\\"d\\\\name"} 0.5`);
    expect(text).not.toContain('scorer="value"');
  });

  it('labelValue escapes backslash, quote and line break', () => {
    expect(labelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
  });
});
