import { appendFileSync, copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { journalPathOf, readJournal, SimJournal } from '../../src/sim/journal.js';
import type { SimSnapshot } from '../../src/sim/snapshot-shape.js';
import { tempDir } from '../support/cli.js';
import { call, createRun, finish, recordState, someFinishedRuns } from './helpers.js';

/** What a SIGKILL leaves on disk at this instant: the state file and its journal, copied in one go. */
function killImage(state: string, dir: string): string {
  const image = join(dir, 'image.sim.json');
  copyFileSync(state, image);
  if (existsSync(journalPathOf(state))) copyFileSync(journalPathOf(state), journalPathOf(image));
  return image;
}

/** A simulator on a state file; closed after `fn`. */
async function withSim<T>(statePath: string, fn: (sim: Sim) => Promise<T>): Promise<T> {
  const sim = await startSim({ defaultDurationMs: 20, statePath });
  try {
    return await fn(sim);
  } finally {
    await sim.close();
    // Let fetch's pool see the closed keep-alive sockets before the same origin serves again.
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('readJournal', () => {
  it('reads the records after a number, leaves out a last line cut short, and refuses other garbage', () => {
    const dir = tempDir();
    const path = join(dir, 'j');
    expect(readJournal(path, 0)).toEqual([]);
    const j = new SimJournal(path, 4);
    j.threadDeleted('a');
    j.clockMoved(10);
    j.close();
    expect(readJournal(path, 0).map((r) => [r.n, r.k])).toEqual([
      [5, 'thread-deleted'],
      [6, 'clock'],
    ]);
    expect(readJournal(path, 5).map((r) => r.n)).toEqual([6]);
    // A kill in the middle of a write leaves part of a line, never acknowledged.
    appendFileSync(path, '{"n":7,"k":"clo');
    expect(readJournal(path, 0).map((r) => r.n)).toEqual([5, 6]);
    writeFileSync(path, `not a record\n${readFileSync(path, 'utf8')}`);
    expect(() => readJournal(path, 0)).toThrow(/line 1 is not a simulator journal record/);
  });

  it('appends nothing once closed', () => {
    const path = join(tempDir(), 'j');
    const j = new SimJournal(path, 0);
    j.close();
    j.clockMoved(1);
    expect(readFileSync(path, 'utf8')).toBe('');
  });
});

describe('the journal beside a state file', () => {
  it('a kill image taken right after the replies gives back every run, answer, cancel, file, key, deleted thread, model run and clock move', async () => {
    const dir = tempDir();
    const state = join(dir, 'r.db.sim.json');
    const first = await startSim({ defaultDurationMs: 20, modelJobMs: 50, statePath: state });
    let image: string;
    let before: Awaited<ReturnType<typeof recordState>>;
    let ids: { runIds: string[]; threadIds: string[] };
    let long: any;
    let gone: any;
    let model: any;
    let job: any;
    try {
      ids = await someFinishedRuns(first);
      long = await createRun(first, 'long @duration=600000ms', { idem: 'k-long' });
      gone = await createRun(first, 'to delete @duration=10ms');
      await finish(first, gone.id);
      expect((await call(first, 'DELETE', `/threads/${gone.thread_id}`)).status).toBe(200);
      model = (await call(first, 'POST', '/models/echo/runs', { body: { inputs: { text: 'hi' } }, headers: { 'idempotency-key': 'k-echo' } })).body;
      job = (await call(first, 'POST', '/models/fold/runs', { body: { inputs: { sequence: 'MKTAYIAKQR' } }, headers: { 'idempotency-key': 'k-fold' } })).body;
      expect(job.status).toBe('running');
      for (;;) {
        const r = await call(first, 'GET', `/model-runs/${job.id}`);
        if (r.body.status !== 'running') {
          job = r.body;
          break;
        }
        await new Promise((res) => setTimeout(res, 20));
      }
      first.clock.advance(60_000);
      before = await recordState(first, ids.runIds, ids.threadIds);
      image = killImage(state, dir);
    } finally {
      await first.close();
    }
    await new Promise((r) => setTimeout(r, 50));

    await withSim(image, async (second) => {
      expect(await recordState(second, ids.runIds, ids.threadIds)).toEqual(before);
      // The long run carries on.
      expect((await call(second, 'GET', `/runs/${long.id}`)).body).toMatchObject({ id: long.id, status: 'running' });
      // Keys replay to what the first simulator made.
      const replay = await call(second, 'POST', '/runs', { body: { input: 'long @duration=600000ms' }, headers: { 'idempotency-key': 'k-long' } });
      expect(replay.body.id).toBe(long.id);
      const echo = await call(second, 'POST', '/models/echo/runs', { body: { inputs: { text: 'hi' } }, headers: { 'idempotency-key': 'k-echo' } });
      expect(echo.body).toEqual(model);
      expect((await call(second, 'GET', `/model-runs/${job.id}`)).body).toEqual(job);
      // The fold job's file, made by the first simulator, is still there.
      expect((await fetch(job.outputs.structure.url, { headers: { authorization: 'Bearer sim-key-alice' } })).status).toBe(200);
      expect((await call(second, 'GET', `/threads/${gone.thread_id}`)).status).toBe(404);
      expect(second.clock.now()).toBeGreaterThanOrEqual(Date.now() + 59_000);
    });
  });

  it('applies an admission kept only in the journal on top of the snapshot before it', async () => {
    const dir = tempDir();
    const state = join(dir, 's.sim.json');
    const { held, answered } = await withSim(state, async (sim) => {
      const held = await createRun(sim, 'plan @confirm=2', { idem: 'k-plan' });
      await finish(sim, held.id);
      const answered = await call(sim, 'POST', `/runs/${held.id}/respond`, { body: { answer: { approved: true } }, headers: { 'idempotency-key': 'k-yes' } });
      expect(answered.status).toBe(200);
      await finish(sim, answered.body.id);
      return { held, answered: answered.body };
    });
    // The state as it was when the respond had been acknowledged but no snapshot had it yet:
    // the snapshot without the answer's run, the journal with its one record.
    const snap = JSON.parse(readFileSync(state, 'utf8')) as SimSnapshot;
    expect(snap.journalSeq).toEqual(expect.any(Number));
    const run = snap.runs.find((r) => r.id === answered.id)!;
    const thread = snap.threads.find((t) => t.id === run.threadId)!;
    const key = snap.idempotency.find(([, id]) => id === answered.id)![0];
    const journal = new SimJournal(journalPathOf(state), snap.journalSeq!);
    journal.runStarted({ ...run, progress: 0, status: 'running', completedAt: null, live: null, listeners: null }, thread, key);
    journal.close();
    snap.runs = snap.runs.filter((r) => r.id !== answered.id).map((r) => (r.id === held.id ? { ...r, answeredBy: null } : r));
    thread.runIds = thread.runIds.filter((id) => id !== answered.id);
    snap.idempotency = snap.idempotency.filter(([k]) => k !== key);
    writeFileSync(state, JSON.stringify(snap));

    await withSim(state, async (sim) => {
      // The answer's run is back, carries on to its end, and its key and parent know it.
      expect((await finish(sim, answered.id)).status).toBe('completed');
      const again = await call(sim, 'POST', `/runs/${held.id}/respond`, { body: { answer: { approved: true } }, headers: { 'idempotency-key': 'k-yes' } });
      expect(again.body.id).toBe(answered.id);
      const other = await call(sim, 'POST', `/runs/${held.id}/respond`, { body: { answer: { approved: true } }, headers: { 'idempotency-key': 'k-other' } });
      expect(other.status).toBe(409);
      expect((await call(sim, 'GET', `/threads/${thread.id}`)).body.messages).toHaveLength(3);
    });
    // Closed: the snapshot holds it all, no journal is left.
    expect(existsSync(journalPathOf(state))).toBe(false);
    expect((JSON.parse(readFileSync(state, 'utf8')) as SimSnapshot).runs.map((r) => r.id)).toContain(answered.id);
  });

  it('skips records the snapshot already holds (a kill between the snapshot and emptying the journal)', async () => {
    const dir = tempDir();
    const state = join(dir, 'k.sim.json');
    const run = await withSim(state, async (sim) => {
      const r = await createRun(sim, 'kept @duration=10ms');
      await finish(sim, r.id);
      return r;
    });
    const snap = JSON.parse(readFileSync(state, 'utf8')) as SimSnapshot;
    const j = new SimJournal(journalPathOf(state), snap.journalSeq! - 1);
    j.threadDeleted(run.thread_id); // number journalSeq: held (here: undone) by the snapshot
    j.clockMoved(3_600_000); // number journalSeq + 1: applied
    j.close();
    await withSim(state, async (sim) => {
      expect((await call(sim, 'GET', `/threads/${run.thread_id}`)).status).toBe(200);
      expect(sim.clock.now()).toBeGreaterThanOrEqual(Date.now() + 3_500_000);
    });
  });

  it('a state file from before journals loads as it did, and a journal beside it is not read', async () => {
    const dir = tempDir();
    const state = join(dir, 'old.sim.json');
    const run = await withSim(state, async (sim) => {
      const r = await createRun(sim, 'old @duration=10ms');
      await finish(sim, r.id);
      return r;
    });
    const { journalSeq: _s, ...old } = JSON.parse(readFileSync(state, 'utf8')) as SimSnapshot;
    writeFileSync(state, JSON.stringify(old));
    const j = new SimJournal(journalPathOf(state), 0);
    j.threadDeleted(run.thread_id);
    j.close();
    await withSim(state, async (sim) => {
      expect((await call(sim, 'GET', `/runs/${run.id}`)).body.status).toBe('completed');
      expect((await call(sim, 'GET', `/threads/${run.thread_id}`)).status).toBe(200);
    });
  });

  it('refuses to start on a journal that is not one, naming it', async () => {
    const dir = tempDir();
    const state = join(dir, 'bad.sim.json');
    await withSim(state, async () => undefined);
    writeFileSync(journalPathOf(state), 'garbage\n{"n":1}\n');
    await expect(startSim({ statePath: state })).rejects.toThrow(`${journalPathOf(state)}: line 1 is not a simulator journal record`);
    // The lock went with the failed start: a good journal then loads.
    writeFileSync(journalPathOf(state), '');
    await withSim(state, async () => undefined);
  });
});
