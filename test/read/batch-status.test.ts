import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { openResults, type Results } from '../../src/notebook/results.js';
import type { BatchStatus } from '../../src/read/index.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';

// One batch read through every window at one moment (one injected clock): `resq status
// --json`, the page's JSON API, the notebook helpers and /metrics show the same counts, rate,
// ETA, next step and deciders, because they all render the library's one status.

/** The status as each window gives it, read at `nowMs`. */
async function windows(o: { db: string; name: string; server: WebServer; results: Results; nowMs: number }) {
  const clock = { now: () => o.nowMs };
  const cli = await runInProcess(['status', o.name, '--db', o.db, '--json'], {}, { clock });
  expect(cli.code, cli.stderr).toBe(0);
  const { unknownFinal: _u, db: _d, ...fromCli } = JSON.parse(cli.stdout) as BatchStatus & { unknownFinal: unknown; db: unknown };
  const api = (await (await fetch(`${o.server.origin}/api/batches/${o.name}`, { headers: { Authorization: `Bearer ${o.server.token}` } })).json()) as BatchStatus;
  const notebook = JSON.parse(JSON.stringify(await o.results.status(o.name, o.nowMs))) as BatchStatus;
  const metrics = await (await fetch(`${o.server.origin}/metrics`, { headers: { Authorization: `Bearer ${o.server.token}` } })).text();
  const text = await runInProcess(['status', o.name, '--db', o.db], {}, { clock });
  return { cli: fromCli as BatchStatus, api, notebook, metrics, text: text.stdout };
}

/** A worker's heartbeat may land between two reads: everything else must be equal. */
function steady(s: BatchStatus): BatchStatus {
  return { ...s, workers: s.workers.map((w) => ({ ...w, heartbeatAt: 0, heartbeatAgeMs: 0 })) };
}

function metric(text: string, name: string, batch: string): number | null {
  const m = new RegExp(`^${name}\\{batch="${batch}"\\} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : null;
}

describe('one status in every window', () => {
  let sim: Sim;
  let dir: string;
  let db: string;
  let env: Record<string, string>;
  let store: Store;
  let server: WebServer;
  let results: Results;
  let clockNow = Date.now();

  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 30, seed: 5 });
    dir = tempDir();
    db = join(dir, 'resq.db');
    env = { RESQ_API_KEY: sim.keys[0]!, RESQ_BASE_URL: sim.url };
    // The database exists before the server and the notebook open it.
    writeFileSync(join(dir, 'none.csv'), 'id,question\nx,nothing\n');
    expect((await runInProcess(['run', join(dir, 'none.csv'), '--db', db, '--batch', 'first'], env)).code).toBe(0);
    store = await openStore(db);
    // `resq serve --db DB`: its hints carry the --db it was given, as the CLI's do.
    server = await startWebServer({ store, port: 0, db, clock: { now: () => clockNow, sleep: (ms, signal) => systemClock.sleep(ms, signal) } });
    results = await openResults(db);
  }, 60_000);
  afterAll(async () => {
    await results?.close();
    await server?.close();
    await store?.close();
    await sim?.close();
  });

  it('a held batch, then an answer with no worker running: same counts, rate, ETA, next step and deciders in the CLI, the API, the notebook, /metrics and the export', async () => {
    const q = join(dir, 'held.csv');
    writeFileSync(q, 'id,question\na,one\nb,two\nc,three\nplan,"A plan @confirm=3 @choice"\npick,Pick @choice=multi\n');
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'confirm_scope:\n  approve_max_cost: 10\n');
    const run = await runInProcess(['run', q, '--db', db, '--batch', 'held', '--policy', policy], env);
    expect(run.code).toBe(3);
    clockNow = Date.now();
    let w = await windows({ db, name: 'held', server, results, nowMs: clockNow });
    expect(w.api).toEqual(w.cli);
    expect(w.notebook).toEqual(w.cli);
    expect(w.cli).toMatchObject({ held: 2, unfinished: 0, etaS: 0, next: null, liveWorkers: 0, counts: { completed: 3, held: 2 } });
    expect(w.cli.ratePerS).not.toBeNull();
    expect(metric(w.metrics, 'resq_items_held', 'held')).toBe(2);
    expect(metric(w.metrics, 'resq_items_ended_per_second', 'held')).toBe(w.cli.ratePerS);
    // The plan's first pause was approved by the policy: the held list says so.
    const plan = w.cli.heldItems.find((h) => h.id === 'plan')!;
    expect(plan.decisions).toMatchObject([{ tool: 'confirm_scope', by: 'policy', words: 'approved', person: null }]);
    expect(w.text).toContain('    earlier confirm_scope: approved by the policy');

    // A person answers while no worker runs the batch: every window says nothing sends it until `resq resume`.
    const answered = await runInProcess(['answer', 'held', 'pick', '--choose', 'a', '--note', 'the cheap one', '--by', 'Ana', '--db', db]);
    expect(answered.stdout).toContain(`recorded for held/pick (by Ana): chose a — note: the cheap one; not sent yet (no worker running), to send it: resq resume held --db ${db}\n`);
    clockNow = Date.now();
    w = await windows({ db, name: 'held', server, results, nowMs: clockNow });
    expect(w.api).toEqual(w.cli);
    expect(w.notebook).toEqual(w.cli);
    expect(w.cli).toMatchObject({ held: 1, unfinished: 1, etaS: null, next: { why: 'no-worker', text: `no worker running: resq resume held --db ${db}`, command: `resq resume held --db ${db}` } });
    expect(w.text).toContain(`no ETA: no worker running: resq resume held --db ${db}`);
    expect(metric(w.metrics, 'resq_eta_seconds', 'held')).toBeNull();

    // Who decided, in the item view (CLI and API), the notebook's decisions, the export and the decision_log view.
    const show = JSON.parse((await runInProcess(['show', 'held', 'pick', '--db', db, '--json'], {}, { clock: { now: () => clockNow } })).stdout);
    const item = await (await fetch(`${server.origin}/api/batches/held/items/pick`, { headers: { Authorization: `Bearer ${server.token}` } })).json();
    const { answerHtml: _h, files: _f, verdicts: apiVerdicts, ...apiItem } = item as Record<string, unknown>;
    const { files: _g, verdicts: showVerdicts, ...cliItem } = show as Record<string, unknown>;
    expect(apiItem).toEqual(cliItem);
    // The same verdicts (none here) as show gives, where show gives them.
    expect(apiVerdicts).toEqual(showVerdicts ?? []);
    expect(show.pauses[0]).toMatchObject({ waiting: 'send', decision: { by: 'person', person: 'Ana', note: 'the cheap one', words: 'chose a' } });
    expect(show.next).toEqual(w.cli.next);
    const decisions = await results.decisions('held');
    expect(decisions.filter((d) => d.item === 'pick')).toMatchObject([{ by: 'person', person: 'Ana', note: 'the cheap one', words: 'chose a' }]);
    const csv = parse((await runInProcess(['export', 'held', '--db', db, '--format', 'csv'])).stdout, { columns: true }) as Record<string, string>[];
    expect(csv.find((r) => r.id === 'pick')).toMatchObject({ decided_by: 'ask_choice: chose a by Ana', decision_notes: 'ask_choice: the cheap one' });
    expect(csv.find((r) => r.id === 'plan')!.decided_by).toBe('confirm_scope: approved by the policy');
    const log = (store as unknown as { db: import('better-sqlite3').Database }).db
      .prepare("SELECT person, note FROM decision_log WHERE batch = 'held' AND item_id = 'pick'")
      .all();
    expect(log).toEqual([{ person: 'Ana', note: 'the cheap one' }]);
  }, 60_000);

  it('a running batch: the same counts, runs in flight, workers, rate and ETA everywhere while its worker runs', async () => {
    const q = join(dir, 'running.csv');
    writeFileSync(q, `id,question\n${['a', 'b', 'c', 'd'].map((x) => `${x},quick ${x}`).join('\n')}\nl1,long one @duration=60s\nl2,long two @duration=60s\n`);
    let stop: (() => void) | null = null;
    const running = runInProcess(['run', q, '--db', db, '--batch', 'running', '--concurrency', '3'], env, { onIo: (io) => (stop = () => io.stop('SIGINT')) });
    const until = Date.now() + 30_000;
    for (;;) {
      const b = await store.findBatch('running');
      const c = b ? await store.itemCounts(b.id) : null;
      if (c && c.completed === 4 && c.running === 2) break;
      if (Date.now() > until) throw new Error(`the batch did not reach 4 completed and 2 running: ${JSON.stringify(c)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    clockNow = Date.now();
    const w = await windows({ db, name: 'running', server, results, nowMs: clockNow });
    stop!();
    expect((await running).code).toBe(130);
    expect(steady(w.api)).toEqual(steady(w.cli));
    expect(steady(w.notebook)).toEqual(steady(w.cli));
    expect(w.cli).toMatchObject({ inFlight: 2, unfinished: 2, liveWorkers: 1, concurrency: 3, next: null, counts: { completed: 4, running: 2 } });
    expect(w.cli.ratePerS).toBeGreaterThan(0);
    expect(w.cli.etaS).toBe(Math.ceil(2 / w.cli.ratePerS!) || expect.any(Number));
    expect(w.text).toContain('2 in flight');
    expect(w.text).toMatch(/rate \d+\.\d\d items\/s, ETA \d+ s/);
    expect(metric(w.metrics, 'resq_runs_in_flight', 'running')).toBe(2);
    expect(metric(w.metrics, 'resq_workers_live', 'running')).toBe(1);
    expect(metric(w.metrics, 'resq_eta_seconds', 'running')).toBe(w.cli.etaS);
  }, 60_000);
});
