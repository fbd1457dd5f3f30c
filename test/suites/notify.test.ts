import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventDoc } from '../../src/notify/events.js';
import { verifySignature } from '../../src/notify/sign.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { runCliChild, tempDir } from '../support/cli.js';
import { serveUntil, startReceiver, type Behaviour, type Receiver } from '../support/receiver.js';

// Notifications end to end: the real CLI as child processes, the simulator over HTTP, a real
// SQLite file, real HTTP receivers on loopback (issue 31, points 1–3 and 7).

const POLICY = 'confirm_scope:\n  approve_max_cost: 10\n  otherwise: hold\n';
const KEY = { RESQ_API_KEY: 'sim-key-bob' };

describe('notifications from resq run and resq serve', () => {
  let sim: Sim;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 50, seed: 3 });
  });
  afterAll(async () => sim?.close());
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  async function receiver(b?: Behaviour): Promise<Receiver> {
    const r = await startReceiver(b);
    receivers.push(r);
    return r;
  }

  /** A question set: `held` costly plans (held by the policy) and `plain` plain questions. */
  function questions(dir: string, held: number, plain: number): { file: string; policy: string } {
    const rows = ['id,question,owner'];
    for (let i = 0; i < held; i++) rows.push(`h${i},Costly plan h${i} TOP-SECRET-Q @duration=50ms @confirm=${40 + i},ana`);
    for (let i = 0; i < plain; i++) rows.push(`p${i},Plain p${i} TOP-SECRET-Q @duration=50ms,ana`);
    const file = join(dir, 'q.csv');
    writeFileSync(file, `${rows.join('\n')}\n`);
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, POLICY);
    return { file, policy };
  }

  it('three held items: one signed digest with their tool, cost, reason and page links, no question text; status says all delivered', async () => {
    const r = await receiver();
    const dir = tempDir();
    const q = questions(dir, 3, 2);
    const db = join(dir, 'x.db');
    const out = join(dir, 'cmd.jsonl');
    const res = await runCliChild(
      ['run', q.file, '--db', db, '--policy', q.policy, '--base-url', sim.url, '--no-download', '--notify', r.url, '--notify-command', `cat >> '${out}'; echo >> '${out}'`],
      { ...KEY, RESQ_NOTIFY_SECRET: 'team-secret', RESQ_PAGE_URL: 'https://resq.team.example/' },
    );
    expect(res.code, res.stderr).toBe(3); // items held for a person
    const digests = r.requests.filter((x) => x.headers['x-resq-event-type'] === 'items.held');
    expect(digests).toHaveLength(1);
    const d = JSON.parse(digests[0]!.body) as EventDoc;
    expect(d.items!.sort((a, b) => a.id.localeCompare(b.id)).map((i) => [i.id, i.tool, i.cost, i.reason?.includes('approve_max_cost'), i.link])).toEqual(
      [0, 1, 2].map((i) => [`h${i}`, 'confirm_scope', 40 + i, true, `https://resq.team.example/b/q/i/h${i}`]),
    );
    expect(d.link).toBe('https://resq.team.example/b/q');
    for (const x of r.requests) {
      expect(x.body).not.toContain('TOP-SECRET-Q');
      expect(x.body).not.toContain('sim-key-bob');
      expect(verifySignature('team-secret', String(x.headers['x-resq-signature']), x.body)).toBe(true);
      // A replayed request (its timestamp 10 minutes old) and an altered body fail.
      expect(verifySignature('team-secret', String(x.headers['x-resq-signature']), x.body, { now: Date.now() + 600_000 })).toBe(false);
      expect(verifySignature('team-secret', String(x.headers['x-resq-signature']), x.body.replace('"held":3', '"held":0'))).toBe(false);
    }
    // The command got the same document on stdin.
    const viaCommand = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as EventDoc);
    expect(viaCommand.map((e) => e.id)).toEqual(r.requests.map((x) => x.headers['x-resq-event-id']));
    expect(res.stdout + res.stderr).not.toContain('secret-path-token');
    const st = await runCliChild(['status', '--db', db], {});
    // The worker that ran the command has left: only its URL is the batch's (the command was never stored).
    expect(st.stdout).toContain(`notifications: 1 URL (${new URL(r.url).host}), json; all delivered`);
  }, 60_000);

  it('the question and meta go only with --notify-include question; slack format sends text with the links', async () => {
    const r = await receiver();
    const dir = tempDir();
    const q = questions(dir, 1, 0);
    const res = await runCliChild(
      ['run', q.file, '--db', join(dir, 'x.db'), '--policy', q.policy, '--base-url', sim.url, '--no-download', '--notify', r.url, '--notify-include', 'question', '--notify-format', 'slack', '--page-url', 'http://page.test'],
      KEY,
    );
    expect(res.code, res.stderr).toBe(3);
    expect(r.requests).toHaveLength(1);
    const { text } = JSON.parse(r.requests[0]!.body) as { text: string };
    expect(text).toContain('1 item held in batch <http://page.test/b/q|q>');
    expect(text).toContain('<http://page.test/b/q/i/h0|h0> — confirm_scope, cost 40');
    const json = await receiver();
    const again = await runCliChild(['run', q.file, '--db', join(dir, 'y.db'), '--policy', q.policy, '--base-url', sim.url, '--no-download', '--notify', json.url, '--notify-include', 'question'], KEY);
    expect(again.code).toBe(3);
    expect((JSON.parse(json.requests[0]!.body) as EventDoc).items![0]).toMatchObject({ question: expect.stringContaining('TOP-SECRET-Q'), meta: { owner: 'ana' } });
  }, 60_000);

  it('a receiver answering 500 gets batch.finished later, once, from the worker before it leaves', async () => {
    const flaky = await receiver((n) => (n === 1 ? 500 : 200));
    const dir = tempDir();
    const q = questions(dir, 0, 4);
    const res = await runCliChild(['run', q.file, '--db', join(dir, 'x.db'), '--base-url', sim.url, '--no-download', '--notify', flaky.url], KEY);
    expect(res.code, res.stderr).toBe(0);
    expect(flaky.requests.map((x) => x.status)).toEqual([500, 200]);
    expect(new Set(flaky.requests.map((x) => x.headers['x-resq-event-id'])).size).toBe(1);
    expect(JSON.parse(flaky.requests[1]!.body)).toMatchObject({ type: 'batch.finished', counts: { completed: 4 }, approvedCost: 0, failures: {} });
    expect(res.stderr).toMatch(/notification not delivered \(will retry\): batch\.finished \S+: 127\.0\.0\.1:\d+: HTTP 500\n/);
  }, 60_000);

  it('a receiver that never answers holds up nothing: the batch ends first, and status shows the event undelivered', async () => {
    const never = await receiver(() => 'hang');
    const dir = tempDir();
    const q = questions(dir, 0, 4);
    const db = join(dir, 'x.db');
    const res = await runCliChild(['run', q.file, '--db', db, '--base-url', sim.url, '--no-download', '--notify', never.url], KEY);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('4 completed');
    // Every item ended (the event is batch.finished, written as the last one ended) while the receiver had not answered.
    expect(never.requests.map((x) => [x.headers['x-resq-event-type'], x.status])).toEqual([['batch.finished', null]]);
    const st = await runCliChild(['status', '--db', db], {});
    expect(st.stdout).toMatch(/notifications: 1 URL \(127\.0\.0\.1:\d+\), json; 1 undelivered; last error: .*127\.0\.0\.1:\d+: stopped before an answer/);
  }, 60_000);

  it('a receiver that is down gets the event from resq serve when it is back', async () => {
    // A port nobody listens on, for now.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const dir = tempDir();
    const q = questions(dir, 1, 0);
    const db = join(dir, 'x.db');
    const url = `http://127.0.0.1:${port}/hooks/secret-path-token`;
    const res = await runCliChild(['run', q.file, '--db', db, '--policy', q.policy, '--base-url', sim.url, '--no-download', '--notify', url], KEY);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/ECONNREFUSED/);
    // The receiver is back on its port: resq serve (what runs while the batch waits on people) sends it.
    const back = await startReceiver(() => 200, port);
    receivers.push(back);
    await serveUntil(db, back, 1);
    expect(back.requests.map((x) => (JSON.parse(x.body) as EventDoc).type)).toEqual(['items.held']);
    expect((await runCliChild(['status', '--db', db], {})).stdout).toContain('all delivered');
  }, 60_000);

  it('resq models batch tells its receivers when the batch finished, and resume replaces them (said without the path)', async () => {
    const first = await receiver();
    const second = await receiver();
    const dir = tempDir();
    writeFileSync(join(dir, 'inputs.csv'), 'id,sequence\na,MKTAYIAK\nb,MVLSPADK\n');
    const db = join(dir, 'm.db');
    const res = await runCliChild(['models', 'batch', 'fold', join(dir, 'inputs.csv'), '--db', db, '--base-url', sim.url, '--no-download', '--notify', first.url], KEY);
    expect(res.code, res.stderr).toBe(0);
    expect(first.requests.map((x) => JSON.parse(x.body) as EventDoc).map((d) => [d.type, d.counts.completed])).toEqual([['batch.finished', 2]]);
    // A question batch given new receivers on resume: recorded and said, by host only.
    const q = questions(dir, 0, 1);
    const qdb = join(dir, 'q.db');
    expect((await runCliChild(['run', q.file, '--db', qdb, '--base-url', sim.url, '--no-download', '--dry-run', '--notify', first.url], KEY)).code).toBe(0);
    const resumed = await runCliChild(['resume', 'q', '--db', qdb, '--base-url', sim.url, '--notify', second.url, '--notify-format', 'slack'], KEY);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain(`notify: 1 URL (${new URL(first.url).host}), json → 1 URL (${new URL(second.url).host}), slack`);
    expect(resumed.stdout + resumed.stderr).not.toContain('secret-path-token');
    expect(second.requests.map((x) => Object.keys(JSON.parse(x.body) as object))).toEqual([['text']]);
    expect(first.requests).toHaveLength(1);
  }, 60_000);

  it('a bad --notify URL: one clear line, exit 2, nothing recorded or sent', async () => {
    const dir = tempDir();
    const q = questions(dir, 1, 0);
    const db = join(dir, 'x.db');
    const before = sim.counters().runsAdmitted;
    for (const bad of ['hooks.example.com/x', 'ftp://x.test/a']) {
      const res = await runCliChild(['run', q.file, '--db', db, '--base-url', sim.url, '--notify', bad], KEY);
      expect(res.code).toBe(2);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(/--notify: /);
    }
    expect(existsSync(db)).toBe(false);
    expect(sim.counters().runsAdmitted).toBe(before);
    // resume refuses a bad value before it opens the database: the flag is named, not the missing file.
    for (const bad of ['hooks.example.com/x', 'ftp://x.test/a']) {
      const res = await runCliChild(['resume', '--db', db, '--notify', bad], KEY);
      expect(res.code).toBe(2);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(/--notify: /);
    }
    expect(existsSync(db)).toBe(false);
  }, 60_000);
});
