import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchListSchema, ItemPageSchema, ItemViewSchema, OverviewSchema } from '../../src/web/api-schemas.js';
import { bearer, webFixture, type WebFixture } from './support/web-fixture.js';

describe('the JSON API: reads', () => {
  let f: WebFixture;
  beforeAll(async () => {
    f = await webFixture();
  }, 60_000);
  afterAll(async () => f?.close());

  const get = async (p: string) => {
    const r = await fetch(`${f.server.origin}${p}`, { headers: bearer(f.server) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };

  it('GET /api/batches lists every batch with counts, cost, files and live workers', async () => {
    const { status, body } = await get('/api/batches');
    expect(status).toBe(200);
    const list = BatchListSchema.parse(body);
    expect(list.batches.map((b) => b.name)).toEqual(['web']);
    expect(list.batches[0]!.counts).toMatchObject({ completed: 2, held: 3, failed: 1 });
    expect(list.batches[0]!.files.downloaded).toBeGreaterThan(0);
  });

  it('GET /api/batches/:batch is the live overview: held queue, cap, rate', async () => {
    const o = OverviewSchema.parse((await get('/api/batches/web')).body);
    expect(o.heldItems.map((h) => [h.id, h.tool])).toEqual([['plan', 'confirm_scope'], ['multi', 'ask_choice'], ['image', 'request_quality_image']]);
    expect(o.concurrency).toBe(4);
    expect(o.inFlight).toBe(0);
    expect(o.ratePerS).toBeGreaterThan(0);
  });

  it('items: filters by state, meta field and text; pages by cursor', async () => {
    const held = ItemPageSchema.parse((await get('/api/batches/web/items?state=held')).body);
    expect(held.items.map((i) => i.id)).toEqual(['plan', 'multi', 'image']);
    const north = ItemPageSchema.parse((await get('/api/batches/web/items?meta=lab&value=north')).body);
    expect(north.items.map((i) => i.id)).toEqual(['plain', 'multi']);
    const text = ItemPageSchema.parse((await get('/api/batches/web/items?q=routes')).body);
    expect(text.items.map((i) => i.id)).toEqual(['multi']);
    const ids: string[] = [];
    let after = '';
    for (;;) {
      const page = ItemPageSchema.parse((await get(`/api/batches/web/items?limit=4${after ? `&after=${after}` : ''}`)).body);
      ids.push(...page.items.map((i) => i.id));
      if (!page.next) break;
      after = page.next;
    }
    expect(ids).toEqual(['plain', 'plan', 'multi', 'image', 'bad', 'doomed']);
  });

  it('items: pages back by `before` (a page\'s `prev`), the first page has none', async () => {
    const first = ItemPageSchema.parse((await get('/api/batches/web/items?limit=2')).body);
    expect(first.prev).toBeNull();
    const second = ItemPageSchema.parse((await get(`/api/batches/web/items?limit=2&after=${first.next}`)).body);
    expect(second.items.map((i) => i.id)).toEqual(['multi', 'image']);
    const back = ItemPageSchema.parse((await get(`/api/batches/web/items?limit=2&before=${second.prev}`)).body);
    expect(back).toEqual({ ...first, next: back.next });
    expect(back.items.map((i) => i.id)).toEqual(['plain', 'plan']);
    expect(back.prev).toBeNull();
    expect((await get('/api/batches/web/items?before=nope')).body.error).toBe("query: before: not a cursor this server gave (a page's `prev`)");
  });

  it('a bad query is a 400 naming the field, nothing read', async () => {
    expect(await get('/api/batches/web/items?state=nope')).toEqual({ status: 400, body: { error: expect.stringContaining('query: state: "nope" is not one of'), code: 'RESQ_BAD_REQUEST' } });
    expect((await get('/api/batches/web/items?limit=9999')).body.error).toMatch(/^query: limit: /);
    expect((await get('/api/batches/web/items?meta=lab')).body.error).toBe('query: meta and value go together (meta=FIELD&value=TEXT)');
    expect(await get('/api/batches/nope')).toEqual({ status: 404, body: { error: 'no batch named "nope"', code: 'RESQ_NOT_FOUND' } });
  });

  it('a malformed cursor, filter or limit is a 400 naming the field, never silently the first page', async () => {
    for (const [q, field] of [
      ['after=garbage', 'after'],
      [`after=${Buffer.from('[1]').toString('base64url')}`, 'after'],
      [`after=${Buffer.from('{"v":1}').toString('base64url')}`, 'after'],
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      ['limit=1.5', 'limit'],
      ['sort=evil', 'sort'],
      ['desc=yes', 'desc'],
      ['state=held,nope', 'state'],
      [`q=${'x'.repeat(501)}`, 'q'],
    ] as const) {
      const r = await get(`/api/batches/web/items?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error, q).toMatch(new RegExp(`^query: ${field}: `));
    }
  });

  it('an item: the answer rendered from Markdown without raw HTML or script links, pauses with full input, files', async () => {
    const v = ItemViewSchema.parse((await get('/api/batches/web/items/bad')).body);
    expect(v.answerHtml).toContain('&lt;script&gt;');
    expect(v.answerHtml).not.toMatch(/<script|<img|<iframe|<svg|href="javascript|href="data/i);
    expect(v.answerHtml).toContain('<a href="https://example.org/paper" rel="noopener noreferrer nofollow" target="_blank">');
    expect(v.files.map((x) => [x.view, x.here])).toEqual([['image', true], ['markdown', true], ['svg', true], ['download', true]]);
    const plan = ItemViewSchema.parse((await get('/api/batches/web/items/plan')).body);
    expect(plan.pauses).toEqual([{ runId: expect.any(String), tool: 'confirm_scope', input: expect.objectContaining({ cost: 50, objective: expect.any(String), steps: expect.any(Array), instead: expect.any(String) }), untrustedCost: null, decision: null, waiting: 'person' }]);
    expect((await get('/api/batches/web/items/zzz')).status).toBe(404);
  });

  it("an item's runs take the lengths the service measured, as show and the notebook do", async () => {
    const v = ItemViewSchema.parse((await get('/api/batches/web/items/plain')).body);
    const id = v.runs[0]!.id;
    const run = (await (await fetch(`${f.sim.url}/runs/${id}`, { headers: { authorization: `Bearer ${f.sim.keys[0]}` } })).json()) as Record<string, string>;
    const measured = (Date.parse(run.finished_at!) - Date.parse(run.created_at!)) / 1000;
    expect(v.runs[0]).toMatchObject({ seconds: measured, endedUnwatched: false });
    expect((await f.store.runTimes(f.batch.id)).find((t) => t.runId === id)).toMatchObject({ seconds: measured, unwatched: false });
  });

  it("items and an item carry the verdicts: the overview's pass rates, a filter by verdict, the item's verdicts with their reasons", async () => {
    const v = (pass: boolean | null, reason: string) => ({ scorer: 'mentions', version: 'v1', pass, score: pass === null ? null : Number(pass), reason, scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' });
    expect(ItemViewSchema.parse((await get('/api/batches/web/items/plain')).body).verdicts).toEqual([]);
    // The two completed items: plain passed, bad could not be judged.
    await f.store.recordVerdicts(f.batch.id, 'plain', [v(true, 'says it')]);
    await f.store.recordVerdicts(f.batch.id, 'bad', [v(null, 'no expected answer')]);
    expect(OverviewSchema.parse((await get('/api/batches/web')).body).scores).toEqual([{ name: 'mentions', version: 'v1', passed: 1, failed: 0, unscored: 1, passRate: 1, low: expect.any(Number), high: 1 }]);
    const ids = async (q: string) => ItemPageSchema.parse((await get(`/api/batches/web/items?${q}`)).body).items.map((i) => i.id);
    expect(await ids('scorer=mentions&verdict=passed')).toEqual(['plain']);
    expect(await ids('scorer=mentions&verdict=unscored')).toEqual(['bad']);
    expect(await ids('scorer=mentions&verdict=failed')).toEqual([]);
    expect(await get('/api/batches/web/items?scorer=mentions')).toMatchObject({ status: 400, body: { error: 'query: scorer and verdict go together (scorer=NAME&verdict=passed|failed|unscored)' } });
    expect((await get('/api/batches/web/items?scorer=mentions&verdict=maybe')).status).toBe(400);
    expect(ItemViewSchema.parse((await get('/api/batches/web/items/bad')).body).verdicts).toMatchObject([{ scorer: 'mentions', pass: null, reason: 'no expected answer' }]);
  });

  it('charts are SVG images drawn by the notebook chart code, without script', async () => {
    for (const c of ['states', 'runs']) {
      const r = await fetch(`${f.server.origin}/api/batches/web/charts/${c}.svg`, { headers: bearer(f.server) });
      expect(r.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      const svg = await r.text();
      expect(svg).toMatch(/^<svg xmlns/);
      expect(svg).not.toContain('<script');
    }
  });

  it('compare: counts and the items that differ', async () => {
    const { status, body } = await get('/api/compare?a=web&b=web');
    expect(status).toBe(200);
    expect(body).toMatchObject({ a: 'web', b: 'web', counts: { both: 6, same: 6 }, changed: [], more: false });
    expect((await get('/api/compare?a=web')).status).toBe(400);
  });
});
