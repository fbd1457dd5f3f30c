import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWaiting } from '../support/answer-waiting.js';
import { RuleViewSchema } from '../../src/web/rule-route.js';
import { bearer, webFixture, type WebFixture } from './support/web-fixture.js';

describe('GET /api/batches/:batch/rule', () => {
  let f: WebFixture;
  beforeAll(async () => {
    f = await webFixture({ name: 'rules' });
    // People answer three of the held pauses (no policy: every pause was held).
    await answerWaiting(f.store, f.batch, 'plan', { kind: 'approve' }, { person: 'ann' });
    await answerWaiting(f.store, f.batch, 'multi', { kind: 'choose', ids: ['c', 'a'] }, { person: 'bob' });
    await answerWaiting(f.store, f.batch, 'image', { kind: 'decline' }, { person: 'ann' });
  }, 60_000);
  afterAll(async () => f?.close());
  const get = (q: string) => fetch(`${f.server.origin}/api/batches/rules/rule${q}`, { headers: bearer(f.server) });

  it('proposes the rule that decides the selected pauses as the people did, as YAML, and says how well it does', async () => {
    const r = await get('?items=plan,image,plain');
    expect(r.status).toBe(200);
    const v = RuleViewSchema.parse(await r.json());
    expect(v.policy).toEqual({ confirm_scope: { approve_max_cost: 50, otherwise: 'hold' }, request_quality_image: 'decline' });
    expect(v.yaml).toBe('confirm_scope:\n  approve_max_cost: 50\n  otherwise: hold\nrequest_quality_image: decline\n');
    expect(v).toMatchObject({ from: 2, agrees: 2, pauses: 2, skipped: ['plain'] });
    // No items named: every pause a person decided.
    const all = RuleViewSchema.parse(await (await get('')).json());
    expect(all.policy).toMatchObject({ ask_choice: { prefer: ['c', 'a'], otherwise: 'hold' } });
    expect(all.from).toBe(3);
    // One choice of two ids: the rule picks one, so that pause is decided otherwise.
    expect(all).toMatchObject({ agrees: 2, pauses: 3 });
  });

  it('asks for the token, and refuses more than 1000 ids', async () => {
    expect((await fetch(`${f.server.origin}/api/batches/rules/rule`)).status).toBe(401);
    const many = await get(`?items=${Array.from({ length: 1001 }, (_, i) => i).join(',')}`);
    expect(many.status).toBe(400);
    expect(((await many.json()) as { error: string }).error).toContain('at most 1000 ids');
  });

  it('refuses an unknown batch with 404', async () => {
    const r = await fetch(`${f.server.origin}/api/batches/nope/rule`, { headers: bearer(f.server) });
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: string }).error).toBe('no batch named "nope"');
  });
});
