import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDoc } from '../../src/notify/events.js';
import { verifySignature } from '../../src/notify/sign.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { collect, runCliChild, spawnCli, tempDir } from '../support/cli.js';
import { sharedPgServer, type SharedPg } from '../support/pg-shared.js';
import { startReceiver } from '../support/receiver.js';

// Issue 31, point 7: a receiver that counts deliveries sees each event once with three workers
// running at once on one PostgreSQL batch, one of them killed with SIGKILL in the middle of a
// delivery (the receiver holds its request open and never answers it; the event's claim is
// shown to be that worker's when it is killed).
const { Client } = pg;
describe('notifications from three workers at once on one PostgreSQL batch, one killed -9 mid-delivery', () => {
  let pg: SharedPg;
  let sim: Sim;
  beforeAll(async () => {
    [pg, sim] = await Promise.all([sharedPgServer(), startSim({ defaultDurationMs: 100, seed: 11 })]);
  });
  afterAll(async () => {
    await sim?.close();
    await pg?.stop();
  });

  it('each event is taken once, the one a killed worker was sending included; every request signed', async () => {
    const url = await pg.createDatabase('notify_workers');
    const dir = tempDir();
    const rows = ['id,question'];
    for (let i = 0; i < 4; i++) rows.push(`h${i},Costly plan h${i} @duration=100ms @confirm=50`);
    for (let i = 0; i < 4; i++) rows.push(`c${i},Cheap plan c${i} @duration=100ms @confirm=3`);
    for (let i = 0; i < 6; i++) rows.push(`p${i},Plain p${i} @duration=1500ms`);
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, `${rows.join('\n')}\n`);
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'confirm_scope:\n  approve_max_cost: 10\n  batch_budget: 15\n  otherwise: hold\n');
    const env = { RESQ_API_KEY: 'sim-key-bob', RESQ_LEASE_MS: '3000', RESQ_NOTIFY_SECRET: 'shared-secret' };
    const admin = new Client({ connectionString: url });
    admin.on('error', () => {});
    /** The pid of the worker whose sender holds the event now (its outbox claim's owner is `host:pid:notify:…`), or null. */
    const senderOf = async (eventId: string): Promise<number | null> => {
      const { rows } = await admin.query<{ owner: string | null }>(`SELECT o.owner FROM outbox o JOIN batches b ON b.num = o.batch_num WHERE b.id || '.' || o.key = $1`, [eventId]);
      const pid = rows[0]?.owner?.split(':')[1];
      return pid ? Number(pid) : null;
    };
    // The victim is the worker that sends the first request. Its requests are held open and
    // never answered (a crash between send and mark would rightly send one again); the others'
    // are held until it is killed, then answered.
    let victimPid: number | null = null;
    let killed!: () => void;
    const afterKill = new Promise<void>((resolve) => (killed = resolve));
    const receiver = await startReceiver(async (_n, body) => {
      const sender = await senderOf((JSON.parse(body) as EventDoc).id);
      victimPid ??= sender;
      if (sender === victimPid) return new Promise<number>(() => {});
      await afterKill;
      return 200;
    });
    try {
      await admin.connect();
      const load = await runCliChild(
        ['run', questions, '--db', url, '--batch', 'shared', '--policy', policy, '--base-url', sim.url, '--no-download', '--dry-run', '--notify', receiver.url, '--notify-digest', '1s', '--page-url', 'https://resq.example.com'],
        env,
      );
      expect(load.code, load.stderr).toBe(0);
      const worker = () => spawnCli(['resume', 'shared', '--db', url, '--json'], env);

      // Three workers at once; the one whose delivery reaches the receiver first is killed while the receiver holds it open.
      const three = [worker(), worker(), worker()];
      const runs = three.map((c) => collect(c));
      await Promise.race([receiver.waitFor(1), Promise.all(runs)]);
      expect(receiver.requests.length, 'a delivery under way').toBeGreaterThan(0);
      const hungId = String(receiver.requests[0]!.headers['x-resq-event-id']);
      // The three registered on the batch and still running (bounded, not a hang).
      const registered = async () => (await admin.query<{ n: number }>('SELECT count(DISTINCT pid)::int AS n FROM workers WHERE pid = ANY($1)', [three.map((c) => c.pid)])).rows[0]!.n;
      for (let i = 0; i < 200 && (await registered()) < 3; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await registered(), 'the three workers registered').toBe(3);
      expect(three.map((c) => c.exitCode ?? c.signalCode), 'the three alive at the kill').toEqual([null, null, null]);
      // Mid-delivery: the request is open, and the event's claim is the victim's.
      const victim = three.find((c) => c.pid === victimPid);
      expect(victim, `the first request's sender (${victimPid}) is one of the three`).toBeDefined();
      expect(await senderOf(hungId), 'the held event claimed by the victim at the kill').toBe(victim!.pid);
      expect(receiver.requests[0]!.status).toBeNull();
      victim!.kill('SIGKILL');
      const survivors = three.flatMap((c, i) => (c === victim ? [] : [runs[i]!]));
      expect((await runs[three.indexOf(victim!)]!).signal).toBe('SIGKILL');
      killed();

      // The two others carry the batch on (the victim's items and its claim on the event run out).
      for (const r of await Promise.all(survivors)) expect(r.code, r.stderr).toBe(3); // items held for a person
      // People approve the held plans, past the budget on purpose (budget.reached is an event
      // under test: --over-budget confirms it); two workers send them and finish the batch.
      for (let i = 0; i < 4; i++) {
        const ans = await runCliChild(['answer', 'shared', `h${i}`, '--approve', '--over-budget', '--db', url], {});
        expect(ans.code, ans.stderr).toBe(0);
      }
      const end = await Promise.all([collect(worker()), collect(worker())]);
      for (const r of end) expect(r.code, r.stderr).toBe(0);

      const accepted = receiver.acceptedIds();
      // Each event taken once: no id accepted twice, and every id that came (the hung one too) was accepted.
      expect(new Set(accepted).size, receiver.requests.map((r) => `${String(r.headers['x-resq-event-id'])} ${r.status} ${r.body.slice(0, 60)}`).join('\n')).toBe(accepted.length);
      expect(new Set(receiver.requests.map((r) => String(r.headers['x-resq-event-id'])))).toEqual(new Set(accepted));
      expect(accepted).toContain(hungId);
      const docs = receiver.requests.filter((r) => r.status === 200).map((r) => JSON.parse(r.body) as EventDoc);
      expect(docs.filter((d) => d.type === 'batch.finished')).toHaveLength(1);
      expect(docs.filter((d) => d.type === 'batch.finished')[0]).toMatchObject({ counts: { completed: 14 }, approvedCost: 212 });
      expect(docs.filter((d) => d.type === 'budget.reached').map((d) => d.share).sort()).toEqual([100, 80]);
      // Every held plan in exactly one digest.
      const held = docs.filter((d) => d.type === 'items.held' && !d.reminder).flatMap((d) => d.items!.map((i) => i.id));
      expect(held.sort()).toEqual(['h0', 'h1', 'h2', 'h3']);
      for (const r of receiver.requests) {
        const sig = String(r.headers['x-resq-signature']);
        expect(verifySignature('shared-secret', sig, r.body)).toBe(true);
        expect(verifySignature('shared-secret', sig, r.body, { now: Date.now() + 10 * 60_000 })).toBe(false);
        expect(verifySignature('shared-secret', sig, `${r.body} `)).toBe(false);
      }
      // Each question was admitted once at the service.
      const c = sim.counters();
      for (const row of rows.slice(1)) expect(c.admissionsByInput[row.slice(row.indexOf(',') + 1)] ?? 0, row).toBe(1);
      const store = await PostgresStore.open(url);
      try {
        const batch = (await store.findBatch('shared'))!;
        expect(await store.outboxState(batch.id)).toMatchObject({ undelivered: 0 });
      } finally {
        await store.close();
      }
    } finally {
      await receiver.close();
      await admin.end();
    }
  }, 240_000);
});
