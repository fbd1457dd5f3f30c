import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Notifier } from '../../src/notify/sender.js';
import { verifySignature } from '../../src/notify/sign.js';
import type { EventDoc } from '../../src/notify/events.js';
import type { BatchSettings, NewBatch, NotifySettings } from '../../src/store/index.js';
import { appendJudgings, ensureJudgeBatch } from '../../src/score/judge-batch.js';
import type { ScorerSpec } from '../../src/score/types.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { type Behaviour, startReceiver, type Receiver } from '../support/receiver.js';
import { virtualClock } from '../support/virtual-clock.js';
import { snap } from '../store/snapshot.js';

// The sender against a real SQLite file and real HTTP receivers on loopback; time is a
// virtual clock the test moves (digests, retries), never a sleep.

const dir = tempDir('resq-notify-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const receivers: Receiver[] = [];
const stores: SqliteStore[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

const T0 = 1_800_000_000_000;

async function receiver(b?: Behaviour): Promise<Receiver> {
  const r = await startReceiver(b);
  receivers.push(r);
  return r;
}

function settings(over: Partial<NotifySettings>): NotifySettings {
  return { urls: [], format: 'json', includeQuestion: false, pageUrl: 'https://resq.example.com', digestMs: 300_000, remindMs: null, stalledMs: null, ...over };
}

/** A batch of `count` items with these receivers; the first `held` of them paused on a costly plan and held. */
async function batchWithHeld(notify: NotifySettings, count: number, held: number, policy: unknown = null, over: Partial<BatchSettings> = {}) {
  const clock = virtualClock(T0);
  const store = SqliteStore.open(join(dir, `n${n++}.db`), { clock });
  stores.push(store);
  const batch: NewBatch = {
    id: `b${n}`, name: 'team batch', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'x', baseUrl: null,
    settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 1, out: null }, pipelineFile: null, service: 'sim', notify, ...over }, policy,
  };
  const loader = await store.beginBatchLoad(batch);
  for (let i = 0; i < count; i++) await loader.add({ id: `q${i}`, seq: i, line: i + 2, question: `Secret question ${i}?`, threadKey: null, meta: { owner: 'ana' } });
  await loader.flush();
  await loader.commit([]);
  const w = (await store.registerWorker(batch.id, { host: 'h', pid: 1 })).id;
  const running = [];
  for (let i = 0; i < count; i++) {
    const [it] = (await store.claimItems(batch.id, { workerId: w, leaseMs: 60_000, max: 1, cap: 100, afterSeq: i - 1, takeOver: [] })).items;
    running.push(await store.markAdmitted(it!, { id: `r${i}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it!.pendingKey! }));
  }
  for (let i = 0; i < held; i++)
    await store.markPaused(running[i]!, snap(`r${i}`, { status: 'requires_action', requiredAction: { tool: 'confirm_scope', input: { cost: 40 + i } } }), () => ({ kind: 'hold', reason: 'cost over 10' }));
  return { store, clock, batchId: batch.id, running, worker: w };
}

const docs = (r: Receiver): EventDoc[] => r.requests.map((q) => JSON.parse(q.body) as EventDoc);

describe('the notification sender', () => {
  it('sends one digest for several held items, with tool, cost, reason and page links, no question text, signed', async () => {
    const r = await receiver();
    const { store, clock, batchId } = await batchWithHeld(settings({ urls: [r.url] }), 4, 3);
    const sender = new Notifier({ store, batchId, clock, secret: 'shh' });
    expect(await sender.tick()).toBe(1);
    expect(await sender.tick()).toBe(0);
    expect(r.requests).toHaveLength(1);
    const [d] = docs(r);
    expect(d).toMatchObject({ type: 'items.held', reminder: false, batch: { id: batchId, name: 'team batch' }, link: 'https://resq.example.com/b/team%20batch', counts: { held: 3, running: 1 } });
    expect(d!.items!.map((i) => [i.id, i.tool, i.cost, i.reason, i.link])).toEqual([0, 1, 2].map((i) => [`q${i}`, 'confirm_scope', 40 + i, 'cost over 10', `https://resq.example.com/b/team%20batch/i/q${i}`]));
    expect(r.requests[0]!.body).not.toContain('Secret question');
    expect(r.requests[0]!.body).not.toContain('ana');
    expect(r.requests[0]!.headers['x-resq-event-id']).toBe(d!.id);
    expect(verifySignature('shh', String(r.requests[0]!.headers['x-resq-signature']), r.requests[0]!.body, { now: clock.now() })).toBe(true);
    expect(await store.outboxState(batchId)).toMatchObject({ undelivered: 0, lastError: null });
  });

  it('includes the question and meta only when asked', async () => {
    const r = await receiver();
    const { store, clock, batchId } = await batchWithHeld(settings({ urls: [r.url], includeQuestion: true }), 1, 1);
    await new Notifier({ store, batchId, clock }).tick();
    expect(docs(r)[0]!.items![0]).toMatchObject({ question: 'Secret question 0?', meta: { owner: 'ana' } });
    expect(r.requests[0]!.headers['x-resq-signature']).toBeUndefined();
  });

  it('a receiver answering 500 gets the event later, once, and status shows it undelivered meanwhile', async () => {
    const r = await receiver((k) => (k === 1 ? 500 : 200));
    const { store, clock, batchId } = await batchWithHeld(settings({ urls: [r.url] }), 1, 1);
    const sender = new Notifier({ store, batchId, clock, retryBaseMs: 10_000 });
    await sender.tick();
    expect(await store.outboxState(batchId)).toMatchObject({ undelivered: 1, lastError: expect.stringMatching(/127\.0\.0\.1:\d+: HTTP 500$/) });
    expect((await store.outboxState(batchId)).lastError).not.toContain('secret-path-token');
    expect(await sender.tick()).toBe(0);
    clock.advance(10_001);
    expect(await sender.tick()).toBe(1);
    expect(r.requests.map((q) => q.status)).toEqual([500, 200]);
    expect(new Set(r.requests.map((q) => q.headers['x-resq-event-id'])).size).toBe(1);
    expect((await store.outboxState(batchId)).undelivered).toBe(0);
  });

  it('a receiver that never answers times out without holding up the other; only it gets the event again', async () => {
    const slow = await receiver(() => 'hang');
    const fine = await receiver();
    const { store, clock, batchId } = await batchWithHeld(settings({ urls: [slow.url, fine.url] }), 1, 1);
    const sender = new Notifier({ store, batchId, clock, timeoutMs: 300, retryBaseMs: 1_000 });
    await sender.tick();
    expect(fine.requests.map((q) => q.status)).toEqual([200]);
    expect(slow.requests.map((q) => q.status)).toEqual([null]);
    expect((await store.outboxState(batchId)).lastError).toMatch(/no answer in/);
    clock.advance(1_001);
    await sender.tick();
    expect(fine.requests).toHaveLength(1);
    expect(slow.requests).toHaveLength(2);
  });

  it('a held item after the digest waits for the next one; a reminder lists the items still held', async () => {
    const r = await receiver();
    const { store, clock, batchId, running } = await batchWithHeld(settings({ urls: [r.url], remindMs: 3_600_000 }), 3, 1);
    const sender = new Notifier({ store, batchId, clock });
    await sender.tick();
    await store.markPaused(running[1]!, snap('r1', { status: 'requires_action', requiredAction: { tool: 'ask_choice', input: {} } }), () => ({ kind: 'hold', reason: 'no preferred option' }));
    clock.advance(60_000);
    expect(await sender.tick()).toBe(0);
    clock.advance(240_000);
    expect(await sender.tick()).toBe(1);
    clock.advance(3_600_000);
    await sender.tick();
    expect(docs(r).map((d) => [d.reminder, d.items!.map((i) => i.id)])).toEqual([
      [false, ['q0']],
      [false, ['q1']],
      [true, ['q0', 'q1']],
    ]);
  });

  it('slack format sends {"text"} with the links; a command gets the JSON on stdin, and a failing one is retried', async () => {
    const r = await receiver();
    const out = join(dir, `cmd-${n}.json`);
    const marker = join(dir, `tried-${n}`);
    // Fails the first time (no marker yet), then writes stdin to a file.
    const command = `if [ ! -e '${marker}' ]; then touch '${marker}'; exit 3; fi; cat > '${out}'`;
    const { store, clock, batchId } = await batchWithHeld(settings({ urls: [r.url], format: 'slack' }), 2, 1);
    const sender = new Notifier({ store, batchId, clock, retryBaseMs: 1_000, command });
    await sender.tick();
    const body = JSON.parse(r.requests[0]!.body) as { text: string };
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toContain('Waiting for a person: 1 item held in batch <https://resq.example.com/b/team%20batch|team batch>');
    expect(body.text).toContain('<https://resq.example.com/b/team%20batch/i/q0|q0> — confirm_scope, cost 40: cost over 10');
    expect((await store.outboxState(batchId)).lastError).toMatch(/the notify command: exited with 3/);
    clock.advance(1_001);
    await sender.tick();
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ type: 'items.held', items: [{ id: 'q0' }] });
    // The URL took it the first time: not sent to it again.
    expect(r.requests).toHaveLength(1);
  });

  it("keeps leases and holds on the store's clock, not a sender's clock an hour ahead", async () => {
    const r = await receiver();
    const { store, clock, batchId } = await batchWithHeld(settings({ urls: [r.url] }), 2, 1);
    const ahead = virtualClock(T0 + 3_600_000);
    const sender = new Notifier({ store, batchId, clock: ahead, command: 'cat > /dev/null', leaseMs: 60_000 });
    await sender.tick();
    // The command's sender holds the batch for one lease of the store's time: gone once it ran out.
    expect(await store.notifyCommands(batchId)).toHaveLength(1);
    clock.advance(60_001);
    expect(await store.notifyCommands(batchId)).toEqual([]);
  });

  it('batch.finished says counts, approved cost and failures by code; budget.reached its share', async () => {
    const r = await receiver();
    const { store, clock, batchId, running } = await batchWithHeld(settings({ urls: [r.url] }), 3, 1, { confirm_scope: { approve_max_cost: 1, batch_budget: 50 } });
    const sender = new Notifier({ store, batchId, clock });
    await store.answerHeld(batchId, 'q0', { runId: 'r0', tool: 'confirm_scope', input: { cost: 40 }, answer: { approve: true }, by: 'person', person: 'ana', reason: null, cost: 40 }, 'k0');
    await store.markError(batchId, 'q1', 'HTTP 400', 'http_400');
    await store.markFinished(running[2]!, snap('r2', { status: 'failed', output: null, error: { code: 'agent_error', message: 'x' } }), 'failed');
    await store.markCancelled(batchId, 'q0');
    await sender.tick();
    const byType = new Map(docs(r).map((d) => [d.type, d]));
    expect(byType.get('budget.reached')).toMatchObject({ share: 80, budget: 50, approved: 40 });
    expect(byType.get('batch.finished')).toMatchObject({ approvedCost: 40, failures: { http_400: 1, agent_error: 1 }, counts: { error: 1, failed: 1, cancelled: 1 } });
  });

  it("batch.finished carries each scorer's pass rate with its 95% interval, and Slack's message says them", async () => {
    const verdict = (pass: boolean | null) => ({ scorer: 'mentions', version: 'v1', pass, score: pass === null ? null : Number(pass), reason: 'r', scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' });
    /** Three items finished, judged as each completes: two pass, one could not be judged; then the sender's look. */
    const finishJudged = async (notify: NotifySettings) => {
      const { store, clock, batchId, running } = await batchWithHeld(notify, 3, 0);
      for (let i = 0; i < 3; i++) {
        await store.markFinished(running[i]!, snap(`r${i}`), 'completed');
        await store.recordVerdicts(batchId, `q${i}`, [verdict(i < 2 ? true : null)]);
      }
      await new Notifier({ store, batchId, clock }).tick();
    };
    const r = await receiver();
    await finishJudged(settings({ urls: [r.url] }));
    const fin = docs(r).find((d) => d.type === 'batch.finished');
    expect(fin?.scores).toHaveLength(1);
    expect(fin?.scores?.[0]).toMatchObject({ name: 'mentions', version: 'v1', passed: 2, failed: 0, unscored: 1, passRate: 1, high: 1 });
    expect(fin?.scores?.[0]?.low).toBeCloseTo(0.3424, 3);
    const slack = await receiver();
    await finishJudged(settings({ urls: [slack.url], format: 'slack' }));
    const text = slack.requests.map((q) => (JSON.parse(q.body) as { text: string }).text).find((t) => t.includes('finished'));
    expect(text).toContain('; pass rates: mentions 100.0% (95% CI 34.2–100.0%)');
  });

  it("batch.finished waits while the batch's agent judge is still judging with a live worker, then carries the last verdicts; a judge with no live worker is not waited for", async () => {
    const judged: ScorerSpec = { name: 'judged', kind: 'agent', version: 'j1', settings: { rubric: 'same?' } };
    const r = await receiver();
    const { store, clock, batchId, running } = await batchWithHeld(settings({ urls: [r.url] }), 2, 0, null, { scorers: [judged] });
    const parent = (await store.findBatch(batchId))!;
    const judge = await ensureJudgeBatch(store, parent);
    const done = [];
    for (let i = 0; i < 2; i++) done.push(await store.markFinished(running[i]!, snap(`r${i}`), 'completed'));
    await appendJudgings(store, judge, judged, done, null);
    const jw = (await store.registerWorker(judge.id, { host: 'h', pid: 2 })).id;
    const sender = new Notifier({ store, batchId, clock });
    await sender.tick();
    // Every answer ended, the judging has not: nothing finished is said yet, and why is on record.
    expect(docs(r).some((d) => d.type === 'batch.finished')).toBe(false);
    expect((await store.outboxState(batchId)).lastError).toContain("waiting for the agent judge's verdicts");
    // The judge records its verdicts and leaves.
    for (let i = 0; i < 2; i++) await store.recordVerdicts(batchId, `q${i}`, [{ scorer: 'judged', version: 'j1', pass: i === 0, score: i === 0 ? 1 : 0, reason: 'r', scoredAt: '2026-01-01T00:00:00.000Z', by: `agent:j${i}` }]);
    for (const it of (await store.claimItems(judge.id, { workerId: jw, leaseMs: 60_000, max: 2, cap: 2, afterSeq: -1, takeOver: [] })).items) {
      const a = await store.markAdmitted(it, { id: `jr-${it.seq}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it.pendingKey! });
      await store.markFinished(a, snap(`jr-${it.seq}`), 'completed');
    }
    await store.retireWorker(jw);
    clock.advance(1_000);
    await sender.tick();
    const fin = docs(r).find((d) => d.type === 'batch.finished');
    expect(fin?.scores?.[0]).toMatchObject({ name: 'judged', passed: 1, failed: 1, unscored: 0 });

    // A judge whose worker is gone (killed, its judgings left queued) does not hold batch.finished back.
    const r2 = await receiver();
    const b2 = await batchWithHeld(settings({ urls: [r2.url] }), 1, 0, null, { scorers: [judged] });
    const p2 = (await b2.store.findBatch(b2.batchId))!;
    const j2 = await ensureJudgeBatch(b2.store, p2);
    await appendJudgings(b2.store, j2, judged, [await b2.store.markFinished(b2.running[0]!, snap('r0'), 'completed')], null);
    await new Notifier({ store: b2.store, batchId: b2.batchId, clock: b2.clock }).tick();
    expect(docs(r2).find((d) => d.type === 'batch.finished')?.scores?.[0]).toMatchObject({ name: 'judged', unscored: 1 });
  });

  it('batch.stalled when nothing moved for the set time and no worker lives', async () => {
    const r = await receiver();
    const { store, clock, batchId, worker } = await batchWithHeld(settings({ urls: [r.url], stalledMs: 60_000 }), 2, 0);
    await store.retireWorker(worker);
    clock.advance(120_000);
    const sender = new Notifier({ store, batchId, clock });
    await sender.tick();
    await sender.tick();
    expect(docs(r).map((d) => [d.type, d.reason])).toEqual([['batch.stalled', 'no live worker']]);
  });

  it('batch.stalled says every item is held when only held items remain, once per quiet spell', async () => {
    const r = await receiver();
    const { store, clock, batchId } = await batchWithHeld(settings({ urls: [r.url], stalledMs: 60_000, digestMs: 0 }), 2, 2);
    clock.advance(120_000);
    const sender = new Notifier({ store, batchId, clock });
    await sender.tick();
    await sender.tick();
    expect(docs(r).filter((d) => d.type === 'batch.stalled').map((d) => d.reason)).toEqual(['every item held']);
  });

  it('two senders at once send each event once', async () => {
    // The first delivery is held open until the other sender has made a whole pass: the two overlap.
    let release!: (status: number) => void;
    const held = new Promise<number>((resolve) => (release = resolve));
    const r = await receiver(() => held);
    const { store, clock, batchId } = await batchWithHeld(settings({ urls: [r.url], digestMs: 0 }), 6, 6);
    // Their deliveries never time out while the test holds one.
    const a = new Notifier({ store, batchId, clock, timeoutMs: 120_000 });
    const b = new Notifier({ store, batchId, clock, timeoutMs: 120_000 });
    const ticks = [a.tick(), b.tick()];
    await r.waitFor(1);
    // Bounded: senders run one after the other never get here (the held delivery blocks the first).
    const otherDone = await Promise.race([Promise.race(ticks).then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
    const heldMeanwhile = r.requests[0]!.status === null;
    release(200);
    const claimed = await Promise.all(ticks);
    expect(otherDone, 'one sender made its whole pass while the other was delivering').toBe(true);
    expect(heldMeanwhile).toBe(true);
    expect(claimed.sort()).toEqual([0, 1]);
    const ids = r.acceptedIds();
    expect(ids).toHaveLength(1);
    expect(docs(r).flatMap((d) => d.items!.map((i) => i.id)).sort()).toEqual(['q0', 'q1', 'q2', 'q3', 'q4', 'q5']);
  });

  it('a sender without a command leaves the batch to one with its own command while it lives, then sends again', async () => {
    const r = await receiver();
    const out = join(dir, `own-${n}.jsonl`);
    const { store, clock, batchId } = await batchWithHeld(settings({ urls: [r.url] }), 2, 1);
    const withCommand = new Notifier({ store, batchId, clock, command: `cat >> '${out}'; echo >> '${out}'` });
    const serve = new Notifier({ store, batchId: null, clock });
    // The one with a command records that it takes the batch (the fact, never the command).
    expect(await withCommand.tick()).toBe(1);
    await store.addOutboxEvent(batchId, { key: 'x', type: 'batch.stalled', data: { reason: 'test', since: 'then' } }, clock.now());
    expect(JSON.stringify(await store.notifyCommands(batchId, clock.now()))).not.toContain(out);
    expect(await serve.tick()).toBe(0);
    expect(await withCommand.tick()).toBe(1);
    expect(readFileSync(out, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as EventDoc).type)).toEqual(['items.held', 'batch.stalled']);
    // It leaves: the batch is the others' again at once, and they send to the URLs only.
    await withCommand.finish(1_000);
    expect(await store.notifyCommands(batchId, clock.now())).toEqual([]);
    await store.addOutboxEvent(batchId, { key: 'y', type: 'batch.stalled', data: { reason: 'test', since: 'later' } }, clock.now());
    expect(await serve.tick()).toBe(1);
    expect(docs(r).map((d) => d.type)).toEqual(['items.held', 'batch.stalled', 'batch.stalled']);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(2);
  });
});
