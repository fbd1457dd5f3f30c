import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSim } from '../../src/sim/index.js';
import { tempDir } from '../support/cli.js';
import { call, createRun, finish, recordState, someFinishedRuns } from './helpers.js';

describe('simulator state file (statePath)', () => {
  it('keeps runs, threads, pauses and idempotency keys across a restart, on the same port', async () => {
    const state = join(tempDir(), 'resq.db.sim.json');
    const first = await startSim({ defaultDurationMs: 20, statePath: state });
    const paused = await createRun(first, 'plan @confirm=3', { idem: 'k-paused' });
    const pausedDone = await finish(first, paused.id);
    expect(pausedDone.status).toBe('requires_action');
    const long = await createRun(first, 'long @duration=600ms', { idem: 'k-long' });
    await first.close();
    expect(existsSync(state)).toBe(true);
    // Let fetch's pool see the closed keep-alive sockets before the same origin serves again.
    await new Promise((r) => setTimeout(r, 50));

    const second = await startSim({ defaultDurationMs: 20, statePath: state });
    try {
      expect(second.origin).toBe(first.origin);
      // The run that was going carries on and finishes.
      expect((await finish(second, long.id)).status).toBe('completed');
      // The pause can be answered after the restart.
      const r = await call(second, 'POST', `/runs/${paused.id}/respond`, { body: { answer: { approved: true } }, headers: { 'idempotency-key': 'k-answer' } });
      expect(r.status).toBe(200);
      expect((await finish(second, r.body.id)).status).toBe('completed');
      // A replayed key returns the run the first simulator admitted.
      const replay = await call(second, 'POST', '/runs', { body: { input: 'long @duration=600ms' }, headers: { 'idempotency-key': 'k-long' } });
      expect(replay.body.id).toBe(long.id);
      const threads = await call(second, 'GET', '/threads');
      expect(threads.body.data.map((t: { id: string }) => t.id)).toContain(paused.thread_id);
    } finally {
      await second.close();
    }
  });

  it('moves recorded URLs when the old port is taken', async () => {
    const state = join(tempDir(), 'x.sim.json');
    const first = await startSim({ defaultDurationMs: 5, statePath: state });
    const run = await createRun(first, 'files @files=md');
    await finish(first, run.id);
    await first.close();
    const squatter = await startSim({ port: Number(new URL(first.origin).port) });
    const second = await startSim({ statePath: state });
    try {
      expect(second.origin).not.toBe(first.origin);
      const read = await call(second, 'GET', `/runs/${run.id}`);
      const url: string = read.body.output.tool_results.flatMap((t: { files: { url: string }[] }) => t.files)[0].url;
      expect(url.startsWith(second.url)).toBe(true);
    } finally {
      await second.close();
      await squatter.close();
    }
  });
});

describe('simulator state file round trip', () => {
  it('gives back the same runs, events, threads and files after a restart', async () => {
    const state = join(tempDir(), 'rt.sim.json');
    const first = await startSim({ defaultDurationMs: 20, statePath: state });
    const { runIds, threadIds } = await someFinishedRuns(first);
    const before = await recordState(first, runIds, threadIds);
    await first.close();
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    expect(saved.version).toBe(2);
    expect(saved.runs[0].events).toBeUndefined();
    await new Promise((r) => setTimeout(r, 50));
    const second = await startSim({ defaultDurationMs: 20, statePath: state });
    try {
      expect(await recordState(second, runIds, threadIds)).toEqual(before);
      const url: string = before.runs[1]!.read.output.tool_results[1].files[0].url;
      const file = await fetch(url, { headers: { authorization: 'Bearer sim-key-alice' } });
      expect(file.status).toBe(200);
      expect((await file.arrayBuffer()).byteLength).toBe(2048);
      const replay = await call(second, 'POST', '/runs', { body: { input: 'Question 1 @duration=10ms' }, headers: { 'idempotency-key': 'rt-plain' } });
      expect(replay.body.id).toBe(runIds[0]);
    } finally {
      await second.close();
    }
  });
});
